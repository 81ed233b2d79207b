/* Card picker: tap cards into a plain text input. Vanilla JS, no dependencies.

   MARKUP (rendered by the Jinja macro card_picker in templates/_cards.html):
     <div class="picker" data-card-picker [data-jokers="0"] [data-used="7H 8H"] [data-open]>
       <label for="ID">Meld</label>
       <input type="text" id="ID" name="NAME" value="7H 7S JK=7C" data-picker-input>
     </div>
   The input holds space-separated card texts in the scoring contract's notation (7H 10D AS,
   JK for a joker, JK=7C for a joker declared as the 7 of clubs) and is submitted as it is,
   so every form works without this script.

   WHAT THE SCRIPT ADDS to every [data-card-picker] (on DOMContentLoaded, or CardPicker.init):
   - a row of chips showing the chosen cards with suit symbols; tapping a chip removes it;
   - a "Cards" button that opens a grid of 13 ranks x 4 suits (one grid open at a time;
     data-open starts it open), a joker button unless data-jokers="0" (with
     data-jokers="plain", where jokers are not wild, it adds a plain JK), and "Clear";
   - tapping a card toggles it into / out of the input (added at the end, removed if there);
   - tapping the joker arms it: the next card tapped adds "JK=<card>" (declared joker);
     tapping the joker again adds a plain "JK";
   - data-used="7H 8H" greys out cards used elsewhere (cards already in this input stay
     tappable so they can be removed); changing the attribute updates the grid.
   Typing in the input updates the grid. Every tap fires bubbling "input" and "change"
   events on the input.

   JAVASCRIPT: window.CardPicker = {
     init(root=document)        enhance every [data-card-picker] under root (idempotent),
                                then call each onInit function with root,
     onInit(fn)                 call fn(root) now and after every init (static/dealgrid.js),
     buildGrid(jokers, label) -> {grid, cards, joker, hint}   a tap grid, unwired,
     paintGrid(grid, list, used, armed)   its pressed and greyed cards, the joker's words,
     setUsed(picker, text)      set data-used on a picker element,
     tokens(text) -> [string]   the card texts of an input value, normalised where possible,
     normal(token) -> string|null  "10♦"/"td" -> "10D", "jk=7c" -> "JK=7C", junk -> null }
*/
(function () {
  "use strict";
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]];
  var SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var FROM_SYMBOL = { "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C" };

  function natural(text) {
    var t = text.toUpperCase();
    var suit = FROM_SYMBOL[t.slice(-1)] || t.slice(-1);
    var rank = t.slice(0, -1);
    if (rank === "T") rank = "10";
    if (rank === "1") rank = "A";
    return SYMBOL[suit] && RANKS.indexOf(rank) >= 0 ? rank + suit : null;
  }

  function normal(token) {
    var t = String(token).trim().toUpperCase();
    if (t === "JK") return "JK";
    if (t.indexOf("JK=") === 0) {
      var n = natural(t.slice(3));
      return n ? "JK=" + n : null;
    }
    return natural(t);
  }

  function tokens(text) {
    return String(text || "").split(/[\s,]+/).filter(Boolean).map(function (t) {
      return normal(t) || t;
    });
  }

  function display(token) {
    var n = normal(token);
    if (!n) return token;
    if (n === "JK") return "JK";
    if (n.indexOf("JK=") === 0) return "JK(" + display(n.slice(3)) + ")";
    return n.slice(0, -1) + SYMBOL[n.slice(-1)];
  }

  function isRed(token) {
    var n = normal(token) || "";
    return /[HD]$/.test(n);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function button(cls, text, label) {
    var b = el("button", cls, text);
    b.type = "button";
    if (label) b.setAttribute("aria-label", label);
    return b;
  }

  /* The tap grid: 13 ranks x 4 suits and, unless jokers is "0", a joker button with a
     hint beside it; {grid, cards: {"7H": button}, joker, hint}. */
  function buildGrid(jokers, label) {
    var grid = el("div", "picker-grid"), cards = {}, joker = null, hint = null;
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", label);
    SUITS.forEach(function (s) {
      var row = el("div", "picker-suit");
      RANKS.forEach(function (r) {
        var b = button("picker-card" + (s[0] === "H" || s[0] === "D" ? " red" : ""), r + s[1]);
        b.dataset.card = r + s[0];
        b.setAttribute("aria-pressed", "false");
        row.appendChild(b);
        cards[r + s[0]] = b;
      });
      grid.appendChild(row);
    });
    if (jokers !== "0") {
      var jrow = el("div", "picker-jokers");
      joker = button("picker-joker", words("picker_joker"), null);
      joker.setAttribute("aria-pressed", "false");
      hint = el("span", "picker-hint small muted");
      jrow.appendChild(joker);
      jrow.appendChild(hint);
      grid.appendChild(jrow);
    }
    return { grid: grid, cards: cards, joker: joker, hint: hint };
  }

  /* The joker's words and the grid's pressed and greyed cards: ``list`` the target's
     cards, ``used`` the cards held elsewhere, ``armed`` a wild joker waiting for its card. */
  function paintGrid(g, list, used, armed) {
    Object.keys(g.cards).forEach(function (card) {
      var mine = list.indexOf(card) >= 0;
      g.cards[card].setAttribute("aria-pressed", mine ? "true" : "false");
      g.cards[card].disabled = !mine && !armed && used.indexOf(card) >= 0;
    });
    if (g.joker) {
      var jokers = list.filter(function (t) { return t.indexOf("JK") === 0; }).length;
      g.joker.textContent = jokers ? words("picker_jokers", { count: jokers }) : words("picker_joker");
      g.joker.setAttribute("aria-pressed", armed ? "true" : "false");
      g.hint.textContent = armed ? words("picker_joker_hint") : "";
    }
  }

  function Picker(root) {
    this.root = root;
    this.input = root.querySelector("[data-picker-input]") || root.querySelector("input");
    this.armed = false;
    this.build();
    this.render();
  }

  Picker.prototype.build = function () {
    var self = this;
    var root = this.root;
    var label = (root.querySelector("label") || {}).textContent || words("picker_cards_label");
    this.chips = el("div", "picker-chips");
    this.chips.setAttribute("aria-live", "polite");
    this.toggle = button("picker-toggle", words("picker_open"), null);
    this.toggle.setAttribute("aria-expanded", "false");
    this.clear = button("picker-clear", words("picker_clear"), words("picker_clear_label", { label: label }));
    var bar = el("div", "picker-bar");
    bar.appendChild(this.toggle);
    bar.appendChild(this.clear);
    bar.appendChild(this.chips);
    root.appendChild(bar);
    var grid = buildGrid(root.dataset.jokers, words("picker_tap_for", { label: label }));
    this.grid = grid.grid; this.cardButtons = grid.cards; this.joker = grid.joker; this.hint = grid.hint;
    this.grid.hidden = true;
    root.appendChild(this.grid);
    this.grid.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b || b.disabled) return;
      if (b === self.joker) self.tapJoker();
      else if (b.dataset.card) self.tapCard(b.dataset.card);
    });
    this.chips.addEventListener("click", function (e) {
      var c = e.target.closest("button");
      if (c) self.removeAt(Number(c.dataset.index));
    });
    this.toggle.addEventListener("click", function () { self.open(self.grid.hidden); });
    this.clear.addEventListener("click", function () { self.armed = false; self.write([]); });
    this.input.addEventListener("input", function (e) { if (!e.pickerEvent) self.render(); });
    new MutationObserver(function () { self.render(); })
      .observe(root, { attributes: true, attributeFilter: ["data-used"] });
    if (root.hasAttribute("data-open")) this.open(true);
  };

  Picker.prototype.open = function (yes) {
    if (yes) {
      document.querySelectorAll("[data-card-picker]").forEach(function (other) {
        if (other.cardPicker && other.cardPicker !== this) other.cardPicker.open(false);
      }, this);
    }
    this.grid.hidden = !yes;
    this.toggle.setAttribute("aria-expanded", yes ? "true" : "false");
    this.toggle.textContent = words(yes ? "picker_close" : "picker_open");
    if (!yes) { this.armed = false; this.render(); }
  };

  Picker.prototype.tapJoker = function () {
    if (this.armed || this.root.dataset.jokers === "plain") {
      this.armed = false;
      this.write(tokens(this.input.value).concat("JK"));
    } else {
      this.armed = true;
      this.render();
    }
  };

  Picker.prototype.tapCard = function (card) {
    var list = tokens(this.input.value);
    if (this.armed) {
      this.armed = false;
      list.push("JK=" + card);
    } else {
      var at = list.lastIndexOf(card);
      if (at >= 0) list.splice(at, 1);
      else list.push(card);
    }
    this.write(list);
  };

  Picker.prototype.removeAt = function (index) {
    var list = tokens(this.input.value);
    list.splice(index, 1);
    this.write(list);
  };

  Picker.prototype.write = function (list) {
    this.input.value = list.join(" ");
    this.render();
    ["input", "change"].forEach(function (type) {
      var ev = new Event(type, { bubbles: true });
      ev.pickerEvent = true;
      this.input.dispatchEvent(ev);
    }, this);
  };

  Picker.prototype.render = function () {
    var list = tokens(this.input.value);
    var self = this;
    paintGrid({ cards: this.cardButtons, joker: this.joker, hint: this.hint }, list,
      tokens(this.root.dataset.used || ""), this.armed);
    this.chips.textContent = "";
    list.forEach(function (t, i) {
      var chip = button("card" + (isRed(t) ? " red" : "") + (t.indexOf("JK") === 0 ? " joker" : "") +
        (normal(t) ? "" : " bad"), display(t), words("picker_remove", { card: t }));
      chip.dataset.index = String(i);
      self.chips.appendChild(chip);
    });
  };

  var hooks = [];
  function init(root) {
    (root || document).querySelectorAll("[data-card-picker]").forEach(function (p) {
      if (!p.cardPicker) p.cardPicker = new Picker(p);
    });
    hooks.forEach(function (fn) { fn(root || document); });
  }
  function onInit(fn) { hooks.push(fn); fn(document); }

  function setUsed(picker, text) {
    picker.setAttribute("data-used", text || "");
  }

  window.CardPicker = {
    init: init, setUsed: setUsed, tokens: tokens, normal: normal, onInit: onInit,
    buildGrid: buildGrid, paintGrid: paintGrid, RANKS: RANKS, SUITS: SUITS
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
})();
