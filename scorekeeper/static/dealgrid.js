/* A round by cards, one grid per player (templates/table/round.html, fieldset[data-deal]).
   Each player's fieldset keeps its plain inputs (meld rows, lay-off rows, the hand, each a
   card picker of static/cardpicker.js); this script adds one open grid at the top of the
   fieldset that fills those inputs in order, so a deal is entered in about one tap a card.
   It decides no rule: every meld question is asked of the server, which answers from the
   engine under this game's preset and house rules (GET data-deal's URL, ?meld=&card=,
   scorekeeper/table/deal_melds.py):
   - a card tapped into the meld being filled: the server says the row it makes (the card
     added; after one card of its suit, the run between the two: 5♥ then 8♥ gives 5♥ 6♥ 7♥
     8♥, round the corner or not as the table plays), or that no legal meld holds it with
     the row's cards, and then it starts the next meld row (a spare row shown);
   - "All four" shows when the server names cards completing the row as a set (the suits
     it lacks, as many as a set may hold under the table's rules); it adds those not held
     elsewhere;
   - the first card of an empty meld, a lay-off and the hand take the card as tapped: no
     rule is asked;
   - taps wait for the server's answer in order, one after the other; with no answer
     (offline, a refusal), the card is simply added to the row being filled: the grid only
     groups, and the person moves on with "Next meld";
   - "Next meld" moves on by hand (two runs of one suit, two sets of one rank); "The rest
     is in hand" sends the next taps to the hand; tapping any row's cards fills that row
     (a lay-off row too);
   - a tapped card already in the row filled is taken out of it; a wild joker (Joker, then
     the card it stands for) is placed as that card; cards held elsewhere are greyed as
     each row's picker greys them (its data-used, kept by static/table.js).
   The script only moves card texts into the form's inputs: the server reads and scores
   them (the preview explains them and says what it refuses); who went out, untold, is the
   one with nothing in hand. */
(function () {
  "use strict";
  if (!window.CardPicker) return;
  var CP = window.CardPicker;
  var known = {}, asked = {};  /* the server's answers and its questions, by URL */

  var input = function (picker) { return picker.querySelector("[data-picker-input]"); };
  var cardsOf = function (picker) { return CP.tokens(input(picker).value); };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    if (tag === "button") e.type = "button";
    return e;
  };

  var address = function (base, list, card) {
    return base + "?meld=" + encodeURIComponent(list.join(" ")) +
      (card ? "&card=" + encodeURIComponent(card) : "");
  };
  /* The server's answer {meld, complete} about a meld row's cards and a tapped card (none:
     the row alone), or null with no answer (offline, a refusal: asked again next time).
     A tap's answer is kept as the answer about the row it makes, too. */
  var ask = function (base, list, card) {
    var url = address(base, list, card);
    if (known[url]) return Promise.resolve(known[url]);
    asked[url] = asked[url] || fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        delete asked[url];
        if (answer) known[url] = answer;
        if (answer && answer.meld && card) known[address(base, answer.meld)] = answer;
        return answer;
      }, function () { delete asked[url]; return null; });
    return asked[url];
  };

  function Deal(box) {
    this.box = box;
    this.url = box.dataset.deal;
    this.name = (box.querySelector("legend") || {}).textContent || "";
    this.armed = false;
    this.busy = null;
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
    this.next = el("button", "small", words("dealgrid_next_meld"));
    this.four = el("button", "small", words("dealgrid_all_four"));
    this.rest = el("button", "small", words("dealgrid_rest_in_hand"));
    [this.next, this.four, this.rest].forEach(function (b) { bar.appendChild(b); });
    this.grid = CP.buildGrid(first.dataset.jokers || "1", words("dealgrid_tap_cards", { name: this.name }));
    var top = el("div", "deal");
    [this.say, bar, this.grid.grid].forEach(function (e) { top.appendChild(e); });
    this.box.insertBefore(top, this.box.querySelector("legend").nextSibling);
    this.grid.grid.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b || b.disabled) return;
      if (b === self.grid.joker) self.then(self.tapJoker); else if (b.dataset.card) self.then(self.tap, b.dataset.card);
    });
    this.next.addEventListener("click", function () { self.then(function () { this.aim(this.after(this.target)); }); });
    this.rest.addEventListener("click", function () { self.then(function () { this.aim(this.hand); }); });
    this.four.addEventListener("click", function () { self.then(self.completeSet); });
    this.box.addEventListener("click", function (e) {
      var row = e.target.closest("[data-card-picker]");
      if (row && self.box.contains(row) && row !== self.target) self.then(self.aim, row);
    });
    this.box.addEventListener("input", function () { self.render(); });
    new MutationObserver(function () { self.render(); })
      .observe(this.box, { subtree: true, attributes: true, attributeFilter: ["data-used"] });
  };

  /* Run ``step`` (a method, with ``arg``) after the steps before it: at once when none is
     waiting for the server, else when the last of them has its answer. */
  Deal.prototype.then = function (step, arg) {
    var self = this, run = function () { return step.call(self, arg); };
    var out = this.busy ? this.busy.then(run) : run();
    if (!out || !out.then) return;
    var mine = this.busy = out.then(null, function () {});
    mine.then(function () { if (self.busy === mine) self.busy = null; });
  };

  /* The meld row after ``row`` (the first empty one after the hand or a lay-off), shown. */
  Deal.prototype.after = function (row) {
    var at = this.melds.indexOf(row);
    if (at < 0) return this.melds.filter(function (p) { return !cardsOf(p).length; })[0] || null;
    return this.melds[at + 1] || null;
  };

  Deal.prototype.aim = function (row) {
    if (!row) { this.say.textContent = words("dealgrid_no_row"); return; }
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
      return this.tap("JK");
    }
    this.armed = true;
    this.render();
  };

  /* A card tapped into the row filled: taken out when there; into a meld being filled
     where the server says it goes (or the next meld), else added as it is. */
  Deal.prototype.tap = function (card) {
    var self = this, row = this.target, list = cardsOf(row);
    if (this.armed) { this.armed = false; card = "JK=" + card; }
    var at = list.lastIndexOf(card);
    if (at >= 0 && card !== "JK") { list.splice(at, 1); this.put(row, list); return; }
    if (this.melds.indexOf(row) < 0 || !list.length) { this.put(row, list.concat(card)); return; }
    return ask(this.url, list, card).then(function (answer) {
      if (!answer || answer.meld) { self.put(row, answer ? answer.meld : list.concat(card)); return; }
      var next = self.after(row);
      self.aim(next);
      if (next) self.put(next, cardsOf(next).concat(card));
    });
  };

  Deal.prototype.put = function (row, list) {
    row.cardPicker.write(list);
    this.render();
  };

  /* The cards completing the meld filled as a set, as the server named them, less those
     held elsewhere; null until the server has answered. */
  Deal.prototype.missing = function () {
    var row = this.target, list = cardsOf(row), self = this;
    if (this.melds.indexOf(row) < 0 || !list.length) return [];
    var answer = known[address(this.url, list)];
    if (!answer) {
      ask(this.url, list).then(function (got) { if (got && self.target === row) self.render(); });
      return [];
    }
    var used = CP.tokens(row.dataset.used || "");
    return answer.complete.filter(function (c) { return used.indexOf(c) < 0 && list.indexOf(c) < 0; });
  };

  Deal.prototype.completeSet = function () {
    this.put(this.target, cardsOf(this.target).concat(this.missing()));
  };

  Deal.prototype.render = function () {
    var row = this.target;
    if (!row) return;
    var label = (row.querySelector("label") || {}).textContent || "";
    this.say.textContent = words("dealgrid_row", { name: this.name, row: label.toLowerCase() });
    var missing = this.missing();
    this.four.hidden = !missing.length;
    this.four.textContent = missing.length ? words("dealgrid_all_four_rank", { rank: missing[0].slice(0, -1) }) : words("dealgrid_all_four");
    this.rest.hidden = row === this.hand;
    CP.paintGrid(this.grid, cardsOf(row), CP.tokens(row.dataset.used || ""), this.armed);
  };

  CP.onInit(function (root) {
    root.querySelectorAll("fieldset[data-deal]").forEach(function (box) {
      if (!box.deal && box.querySelector(".hand-slot [data-card-picker]")) box.deal = new Deal(box);
    });
  });
})();
