/* A round by cards, one grid per player (templates/table/round.html, fieldset[data-deal]).
   Each player's fieldset keeps its plain inputs (meld rows, lay-off rows, the hand, each a
   card picker of static/cardpicker.js); this script adds one open grid at the top of the
   fieldset that fills those inputs in order, so a deal is entered in about one tap a card:
   - the grid fills the player's meld 1; a card that cannot continue the meld being filled
     (not of its rank for a set, not next to its ends in its suit for a run) starts the
     next meld row by itself (a spare row shown);
   - two cards of one suit tapped into an empty meld fill the run between them (5♥ then
     8♥ gives 5♥ 6♥ 7♥ 8♥; an ace goes at the nearer end); "All four" completes a set
     with the free cards of its rank;
   - "Next meld" moves on by hand (two runs of one suit, two sets of one rank); "The rest
     is in hand" sends the next taps to the hand; tapping any row's cards fills that row
     (a lay-off row too);
   - a tapped card already in the row filled is taken out of it; a wild joker (Joker, then
     the card it stands for) is placed as that card; cards held elsewhere are greyed as
     each row's picker greys them (its data-used, kept by static/table.js).
   The script only moves card texts into the form's inputs: the server reads and scores
   them (and says what it refuses); who went out, untold, is the one with nothing in hand. */
(function () {
  "use strict";
  if (!window.CardPicker) return;
  var CP = window.CardPicker, RANKS = CP.RANKS;

  var face = function (token) {  /* "JK=7C" -> "7C"; "JK" and natural cards as they are */
    var n = CP.normal(token) || token;
    return n.indexOf("JK=") === 0 ? n.slice(3) : n;
  };
  var rankOf = function (t) { var f = face(t); return f === "JK" ? "JK" : f.slice(0, -1); };
  var suitOf = function (t) { var f = face(t); return f === "JK" ? "" : f.slice(-1); };
  /* Places of a run's cards, an ace high (13) when the run reaches the queen or king. */
  var places = function (list) {
    var at = list.map(function (t) { return RANKS.indexOf(rankOf(t)); });
    var high = at.some(function (p) { return p >= 10; });
    return at.map(function (p) { return p === 0 && high ? 13 : p; });
  };
  var fits = function (list, card) {
    var rank = rankOf(card), suit = suitOf(card);
    if (rank === "JK" || list.some(function (t) { return rankOf(t) === "JK"; })) {
      return rank === "JK" && list.every(function (t) { return rankOf(t) === "JK"; });
    }
    if (list.every(function (t) { return rankOf(t) === rank; })) return true;
    if (!list.every(function (t) { return suitOf(t) === suit; })) return false;
    if (list.length === 1) return true;
    var at = places(list), lo = Math.min.apply(null, at), hi = Math.max.apply(null, at);
    var mine = RANKS.indexOf(rank);
    return [mine, mine === 0 ? 13 : mine].some(function (p) { return p === lo - 1 || p === hi + 1; });
  };
  /* One natural card then another of its suit two or more places away: the run between. */
  var grow = function (list, card) {
    var only = list[0];
    if (list.length !== 1 || only.indexOf("JK") === 0 || card.indexOf("JK") === 0) return list.concat(card);
    if (suitOf(only) !== suitOf(card) || rankOf(only) === rankOf(card)) return list.concat(card);
    var a = RANKS.indexOf(rankOf(only)), b = RANKS.indexOf(rankOf(card));
    if (a === 0) a = b >= 7 ? 13 : 0;
    if (b === 0) b = a >= 7 ? 13 : 0;
    if (Math.abs(a - b) < 2) return list.concat(card);
    var run = [];
    for (var p = Math.min(a, b); p <= Math.max(a, b); p++) run.push(RANKS[p % 13] + suitOf(card));
    return run;
  };

  var input = function (picker) { return picker.querySelector("[data-picker-input]"); };
  var cardsOf = function (picker) { return CP.tokens(input(picker).value); };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    if (tag === "button") e.type = "button";
    return e;
  };

  function Deal(box) {
    this.box = box;
    this.name = (box.querySelector("legend") || {}).textContent || "";
    this.armed = false;
    this.melds = Array.prototype.slice.call(box.querySelectorAll(".slot:not(.layoff) [data-card-picker]"));
    this.hand = box.querySelector(".hand-slot [data-card-picker]");
    this.build();
    this.aim(this.melds.filter(function (p) { return !cardsOf(p).length; })[0] || this.hand);
  }

  Deal.prototype.build = function () {
    var self = this, first = this.melds[0] || this.hand;
    this.say = el("p", "deal-target");
    this.say.setAttribute("aria-live", "polite");
    var bar = el("div", "deal-bar");
    this.next = el("button", "small", "Next meld");
    this.four = el("button", "small", "All four");
    this.rest = el("button", "small", "The rest is in hand");
    [this.next, this.four, this.rest].forEach(function (b) { bar.appendChild(b); });
    this.grid = CP.buildGrid(first.dataset.jokers || "1", "Tap " + this.name + "'s cards");
    var top = el("div", "deal");
    [this.say, bar, this.grid.grid].forEach(function (e) { top.appendChild(e); });
    this.box.insertBefore(top, this.box.querySelector("legend").nextSibling);
    this.grid.grid.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b || b.disabled) return;
      if (b === self.grid.joker) self.tapJoker(); else if (b.dataset.card) self.tap(b.dataset.card);
    });
    this.next.addEventListener("click", function () { self.aim(self.after(self.target)); });
    this.rest.addEventListener("click", function () { self.aim(self.hand); });
    this.four.addEventListener("click", function () { self.put(self.target, cardsOf(self.target).concat(self.missing())); });
    this.box.addEventListener("click", function (e) {
      var row = e.target.closest("[data-card-picker]");
      if (row && self.box.contains(row) && row !== self.target) self.aim(row);
    });
    this.box.addEventListener("input", function () { self.render(); });
    new MutationObserver(function () { self.render(); })
      .observe(this.box, { subtree: true, attributes: true, attributeFilter: ["data-used"] });
  };

  /* The meld row after ``row`` (the first empty one after the hand or a lay-off), shown. */
  Deal.prototype.after = function (row) {
    var at = this.melds.indexOf(row);
    if (at < 0) return this.melds.filter(function (p) { return !cardsOf(p).length; })[0] || null;
    return this.melds[at + 1] || null;
  };

  Deal.prototype.aim = function (row) {
    if (!row) { this.say.textContent = "No meld row left: type the cards, or save and add rows."; return; }
    if (this.target) this.target.classList.remove("filling");
    this.target = row;
    row.classList.add("filling");
    var slot = row.closest(".slot");
    if (slot) slot.classList.remove("spare");
    this.armed = false;
    this.render();
  };

  Deal.prototype.tapJoker = function () {
    if (this.armed || (this.target.dataset.jokers || "") === "plain") {
      this.armed = false;
      this.tap("JK");
    } else {
      this.armed = true;
      this.render();
    }
  };

  Deal.prototype.tap = function (card) {
    var row = this.target, list = cardsOf(row);
    if (this.armed) { this.armed = false; card = "JK=" + card; }
    var at = list.lastIndexOf(card);
    if (at >= 0 && card !== "JK") { list.splice(at, 1); this.put(row, list); return; }
    var meld = this.melds.indexOf(row) >= 0;
    if (meld && list.length && !fits(list, card)) {
      var next = this.after(row);
      if (!next) { this.aim(null); return; }
      this.aim(next);
      row = next; list = cardsOf(next);
    }
    this.put(row, meld ? grow(list, card) : list.concat(card));
  };

  Deal.prototype.put = function (row, list) {
    row.cardPicker.write(list);
    this.render();
  };

  /* The free cards of the rank of a set being filled (none when it is not a set). */
  Deal.prototype.missing = function () {
    var list = cardsOf(this.target);
    if (this.melds.indexOf(this.target) < 0 || !list.length) return [];
    var rank = rankOf(list[0]);
    if (rank === "JK" || !list.every(function (t) { return rankOf(t) === rank && t.indexOf("JK") !== 0; })) return [];
    var used = CP.tokens(this.target.dataset.used || "");
    return CP.SUITS.map(function (s) { return rank + s[0]; }).filter(function (c) {
      return list.indexOf(c) < 0 && used.indexOf(c) < 0;
    });
  };

  Deal.prototype.render = function () {
    var row = this.target;
    if (!row) return;
    var label = (row.querySelector("label") || {}).textContent || "";
    this.say.textContent = this.name + ": " + label.toLowerCase();
    var missing = this.missing();
    this.four.hidden = !missing.length;
    this.four.textContent = "All four " + (missing.length ? rankOf(missing[0]) + "s" : "");
    this.rest.hidden = row === this.hand;
    CP.paintGrid(this.grid, cardsOf(row), CP.tokens(row.dataset.used || ""), this.armed);
  };

  CP.onInit(function (root) {
    root.querySelectorAll("fieldset[data-deal]").forEach(function (box) {
      if (!box.deal && box.querySelector(".hand-slot [data-card-picker]")) box.deal = new Deal(box);
    });
  });
})();
