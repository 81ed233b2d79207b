/* The digital game's page (/play/<slug>) as an app; every form still works without it.
   - Moves in place: a form's button is sent as a small JSON call to #play[data-tap]
     ({version, do, cards}, CSRF token in the X-CSRFToken header). The answer's board
     replaces #board-root; a refusal (message and rule id) or a question (which meld,
     which joker) is shown in #notice; nothing reloads.
   - Bots' moves: made by the server's workers after the person's move, each reaches the
     page as a new board through the event stream (static/seats.js, "play:board").
   - The hand: "By suit" / "By rank" sort it, dragging a card (SortableJS) moves it; the
     order is kept on this phone per game (localStorage) and new cards come last.
   - A "play:board" event on #play ({board}, from static/seats.js) swaps in the board
     after a bot's move or another phone's.
   - Selection: buttons with data-needs="1" (discard, lay off) need exactly one card
     selected, data-needs="3" (meld) three or more; the discard button names the card. */
(function () {
  "use strict";
  var play = document.getElementById("play");
  var root = document.getElementById("board-root");
  if (!play || !root) return;
  var orderKey = "play-hand:" + play.dataset.game;
  var busy = false;
  var lastButton = null;

  var all = function (selector, within) {
    return Array.prototype.slice.call((within || root).querySelectorAll(selector));
  };
  var one = function (selector) { return root.querySelector(selector); };

  /* ---- selection ---- */
  var updateButtons = function () {
    var picked = all("input.pick:checked");
    all("button[data-needs]").forEach(function (b) {
      if (b.dataset.off === undefined) b.dataset.off = b.disabled ? "1" : "";
      var need = Number(b.dataset.needs);
      var enough = need === 1 ? picked.length === 1 : picked.length >= need;
      b.disabled = b.dataset.off === "1" || !enough;
      if (b.dataset.verb) {
        var label = picked.length === 1 ? picked[0].nextElementSibling : null;
        b.textContent = b.dataset.verb + (label ? " " + label.dataset.display : "");
      }
    });
  };

  /* ---- the hand's order ---- */
  var field = { by_suit: "bySuit", by_rank: "byRank" };
  var loadOrder = function () {
    try { return JSON.parse(window.localStorage.getItem(orderKey) || "null"); } catch (e) { return null; }
  };
  var saveOrder = function (mode) {
    var order = all(".hand .hcard").map(function (c) { return c.dataset.card; });
    try { window.localStorage.setItem(orderKey, JSON.stringify({ mode: mode, order: order })); } catch (e) { /* private mode: order kept until reload */ }
  };
  var markSort = function (mode) {
    all("[data-sort]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.sort === mode)); });
  };
  var ranked = function (cards, saved) {
    if (!saved || field[saved.mode]) {
      var key = field[(saved && saved.mode) || "by_suit"];
      return cards.slice().sort(function (a, b) { return Number(a.dataset[key]) - Number(b.dataset[key]); });
    }
    var places = {};
    (saved.order || []).forEach(function (text, i) { (places[text] = places[text] || []).push(i); });
    var rank = cards.map(function (c, i) {
      var p = places[c.dataset.card];
      return p && p.length ? p.shift() : 1000 + i;
    });
    return cards.map(function (c, i) { return i; })
      .sort(function (a, b) { return rank[a] - rank[b]; })
      .map(function (i) { return cards[i]; });
  };
  var arrange = function (saved) {
    var hand = one("[data-hand]");
    if (!hand) return;
    ranked(all(".hcard", hand), saved).forEach(function (c) { hand.appendChild(c); });
    markSort(saved ? saved.mode : "by_suit");
  };
  var wireHand = function () {
    var sorts = one("[data-sorts]");
    if (sorts) sorts.hidden = false;
    arrange(loadOrder());
    var hand = one("[data-hand]");
    if (hand && window.Sortable) {
      window.Sortable.create(hand, {
        draggable: ".hcard", animation: 120, forceFallback: true, fallbackTolerance: 8,
        delay: 160, delayOnTouchOnly: true,
        onEnd: function () { saveOrder("custom"); markSort("custom"); }
      });
    }
  };

  /* ---- the dock's height, so the page scrolls clear of it ---- */
  var fitDock = function () {
    var dock = document.getElementById("dock");
    var height = dock ? dock.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--dock-h", Math.ceil(height) + "px");
  };

  var wire = function () { wireHand(); updateButtons(); fitDock(); };

  /* ---- notices: a refusal with its rule, or a question ---- */
  var notice = function () { return document.getElementById("notice"); };
  var say = function (message, rule, stale) {
    var box = notice();
    if (!box) return;
    box.textContent = "";
    var flash = document.createElement("div");
    flash.className = "flash flash-error refusal";
    var strong = document.createElement("strong");
    strong.textContent = words("play_not_allowed") + " ";
    flash.appendChild(strong);
    flash.appendChild(document.createTextNode(message + " "));
    if (rule) {
      var link = document.createElement("a");
      link.className = "rule-id";
      link.href = "/rules#" + rule;
      link.textContent = words("play_rule", { rule: rule });
      flash.appendChild(link);
    }
    if (stale) {
      var reload = document.createElement("a");
      reload.href = window.location.pathname;
      reload.className = "button small";
      reload.textContent = words("play_reload");
      flash.appendChild(reload);
    }
    box.appendChild(flash);
  };
  var ask = function (choices) {
    var box = notice();
    if (!box) return;
    box.textContent = "";
    var panel = document.createElement("div");
    panel.className = "panel choices";
    var title = document.createElement("p");
    title.textContent = words("play_which");
    panel.appendChild(title);
    choices.forEach(function (choice) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = choice.label;
      b.addEventListener("click", function () { send({ do: choice.value, cards: [] }); });
      panel.appendChild(b);
    });
    box.appendChild(panel);
  };

  /* ---- a move as a JSON call ---- */
  var show = function (data) {
    root.innerHTML = data.board;
    wire();
  };
  var send = function (body) {
    if (busy) return;
    var token = one("input[name=csrf_token]");
    var version = one("input[name=version]");
    body.version = version ? Number(version.value) : 0;
    busy = true;
    root.classList.add("sending");
    var done = function () { busy = false; root.classList.remove("sending"); };
    window.fetch(play.dataset.tap, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": token ? token.value : "" }
    }).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; });
    }).then(function (answer) {
      done();
      if (answer.data.board !== undefined) show(answer.data);
      else if (answer.data.choices) ask(answer.data.choices);
      else say(answer.data.error || words("play_not_made"), answer.data.rule, answer.status === 409);
    }, function () {
      done();
      say(words("play_unreached"), null, false);
    });
  };

  root.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button") : null;
    if (button) lastButton = button;
    var sort = e.target.closest("[data-sort]");
    if (sort) {
      arrange({ mode: sort.dataset.sort });
      saveOrder(sort.dataset.sort);
    }
  }, true);
  root.addEventListener("change", updateButtons);
  root.addEventListener("submit", function (e) {
    if (!window.fetch) return;
    e.preventDefault();
    var button = e.submitter || lastButton;
    var cards = all("input.pick:checked", e.target).map(function (p) { return p.value; });
    send({ do: button ? button.value : "", cards: cards });
  });
  window.addEventListener("resize", fitDock);
  /* a table of several phones: static/seats.js hands over the board after another's move */
  play.addEventListener("play:board", function (e) {
    if (busy) return;
    show(e.detail);
  });
  wire();
})();
