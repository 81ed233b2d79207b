/* A finished game's replay (play/replays.py): the server computed every step with the
   engine (hands, melds, discard pile, scores, each move in words with its rules) and put
   them in #replay's data-steps; this script only shows step i. Forward and back (buttons
   and the arrow keys; Home and End for the first and last step) and a jump to a round's
   deal. Card texts ("7H", "JK=7C") are drawn as faces: suit letters become symbols. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  /* The steps as the server packed them (play/replays.py, pack_steps): each says only
     what changed since the step before; unpacked here into whole steps. */
  var unpack = function (data) {
    var out = [];
    var prev = { hands: {}, melds: [], pile: [], stock: 0, totals: {} };
    var cards = function (text) { return text ? text.split(" ") : []; };
    data.steps.forEach(function (d) {
      var hands = Object.assign({}, prev.hands);
      Object.keys(d.hands || {}).forEach(function (name) { hands[name] = cards(d.hands[name]); });
      var melds = d.melds_all ? d.melds_all : prev.melds.slice();
      Object.keys(d.melds || {}).forEach(function (i) { melds[Number(i)] = d.melds[i]; });
      var step = {
        kind: d.kind, round: d.round, player: d.player, text: d.text,
        rules: d.rules.map(function (i) { return { id: data.why[i][0], why: data.why[i][1] }; }),
        hands: hands, melds: melds,
        pile: d.pile ? prev.pile.slice(0, d.pile[0]).concat(d.pile[1]) : prev.pile,
        stock: "stock" in d ? d.stock : prev.stock,
        totals: d.totals || prev.totals,
        scores: d.scores || null
      };
      out.push(step);
      prev = step;
    });
    return out;
  };
  var steps = unpack(JSON.parse(root.getAttribute("data-steps")));
  var rulesUrl = root.getAttribute("data-rules-url") || "/rules";
  var SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
  var NAMES = { S: "replay_spades", H: "replay_hearts", C: "replay_clubs", D: "replay_diamonds" };
  var at = 0;
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  };

  var card = function (text) {
    var joker = text.indexOf("JK") === 0;
    var named = joker && text.indexOf("=") > 0 ? text.slice(3) : "";
    var plain = joker ? named : text;
    var suit = plain ? plain.slice(-1) : "";
    var rank = joker ? "JK" : plain.slice(0, -1);
    var face = el("span", "pcard " + (joker ? "joker" : (suit === "H" || suit === "D" ? "red" : "black")));
    face.setAttribute("data-card", text);
    face.title = joker ? (named ? words("replay_joker_as", { card: named }) : words("replay_joker")) : words(NAMES[suit], { rank: rank });
    face.appendChild(el("span", "r", rank));
    var shown = SUITS[suit] ? (joker ? plain.slice(0, -1) + SUITS[suit] : SUITS[suit]) : (joker ? (named || "\u2605") : suit);
    face.appendChild(el("span", "s", shown));
    return face;
  };
  var row = function (texts, cls) {
    var box = el("span", "prow mini " + (cls || ""));
    texts.forEach(function (t) { box.appendChild(card(t)); });
    return box;
  };
  var fill = function (node, children) {
    node.textContent = "";
    children.forEach(function (child) { node.appendChild(child); });
  };

  var showRules = function (step) {
    fill($("replay-rules"), step.rules.map(function (rule) {
      var item = el("li");
      var link = el("a", "rule-id", rule.id);
      link.href = rulesUrl + "#" + encodeURIComponent(rule.id);
      item.appendChild(link);
      item.appendChild(document.createTextNode(" " + rule.why));
      return item;
    }));
  };
  var showMelds = function (step) {
    var melds = step.melds.map(function (meld, i) {
      var item = el("div", "replay-meld");
      item.appendChild(el("span", "replay-meld-who", words("replay_meld_of", { name: meld.owner, number: i + 1 })));
      item.appendChild(row(meld.cards));
      if (meld.laid_off.length) {
        item.appendChild(el("small", "muted", words("replay_laid_off", { cards: meld.laid_off.map(function (x) {
          return words("replay_laid_off_by", { card: x.card.replace(/[SHCD]$/, function (s) { return SUITS[s]; }), name: x.by });
        }).join(", ") })));
      }
      return item;
    });
    fill($("replay-melds"), melds.length ? melds : [el("p", "muted", words("replay_no_meld"))]);
    fill($("replay-pile"), step.pile.map(card));
    $("replay-stock").textContent = words("replay_stock", { count: step.stock });
  };
  var showHands = function (step) {
    fill($("replay-hands"), Object.keys(step.hands).map(function (name) {
      var item = el("li", "replay-hand" + (name === step.player ? " moving" : ""));
      var head = el("p", "replay-hand-who");
      head.appendChild(el("b", "", name));
      /* "total %(total)s": the figure in its own element where the sentence names it */
      var around = words("replay_total").split("%(total)s");
      var total = el("span", "muted", around[0]);
      total.appendChild(el("span", "num", String(step.totals[name])));
      if (around.length > 1 && around[1]) total.appendChild(document.createTextNode(around[1]));
      head.appendChild(total);
      item.appendChild(head);
      var cards = step.hands[name];
      item.appendChild(cards.length ? row(cards) : el("span", "muted", words("replay_no_cards")));
      return item;
    }));
  };
  var showScores = function (step) {
    var box = $("replay-scores");
    box.hidden = !step.scores;
    if (!step.scores) { return; }
    fill($("replay-figures"), Object.keys(step.scores).map(function (name) {
      var f = step.scores[name];
      var line = el("tr");
      line.setAttribute("data-player", name);
      line.appendChild(el("th", "", name));
      [f.shown, f.in_hand, f.bonus, f.round, f.total].forEach(function (n) {
        line.appendChild(el("td", "num", String(n)));
      });
      return line;
    }));
  };

  var show = function (index) {
    at = Math.max(0, Math.min(steps.length - 1, index));
    var step = steps[at];
    root.setAttribute("data-at", String(at));
    $("replay-round").textContent = words("replay_round", { number: step.round });
    $("replay-index").textContent = String(at + 1);
    $("replay-text").textContent = step.text;
    root.setAttribute("data-kind", step.kind);
    showRules(step);
    showScores(step);
    showMelds(step);
    showHands(step);
    $("replay-back").disabled = at === 0;
    $("replay-forward").disabled = at === steps.length - 1;
    $("replay-jump").value = String(firstOf(step.round));
  };
  var firstOf = function (round) {
    for (var i = 0; i < steps.length; i += 1) { if (steps[i].round === round) { return i; } }
    return 0;
  };

  $("replay-back").addEventListener("click", function () { show(at - 1); });
  $("replay-forward").addEventListener("click", function () { show(at + 1); });
  $("replay-jump").addEventListener("change", function (event) { show(Number(event.target.value)); });
  document.addEventListener("keydown", function (event) {
    if (event.target && /^(SELECT|INPUT|TEXTAREA)$/.test(event.target.tagName)) { return; }
    var moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
    if (event.key in moves) { event.preventDefault(); show(moves[event.key]); }
  });
  show(0);
}());
