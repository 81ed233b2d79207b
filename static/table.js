/* Scorekeeper pages: live refresh, screen wake lock, number pad helpers. Vanilla JS.
   - #live[data-poll][data-src][data-version]: polls the version JSON every 4 s while the
     page is visible; when it changes, fetches the fragment and replaces #live's content.
   - [data-sign] toggles a leading minus on its number input; [data-zero] sets it to 0.
   - [data-more] reveals the next hidden meld / lay-off row of its fieldset.
   - new game: name fields beyond the fourth appear one by one as names are typed.
   - a round by cards (form[data-packs]): each card picker greys out the cards the other
     pickers of the round hold as often as the pack has them (D2: two packs for 5+). */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (live) {
    var busy = false;
    var poll = function () {
      if (busy || document.hidden) return;
      busy = true;
      fetch(live.dataset.poll, { cache: "no-store" }).then(function (r) { return r.json(); })
        .then(function (v) {
          if (String(v.version) === live.dataset.version) return null;
          return fetch(live.dataset.src, { cache: "no-store" }).then(function (r) { return r.text(); })
            .then(function (html) { live.innerHTML = html; live.dataset.version = String(v.version); });
        }).catch(function () {}).then(function () { busy = false; });
    };
    setInterval(poll, 4000);
    document.addEventListener("visibilitychange", poll);
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-sign],[data-zero],[data-more]");
    if (!b) return;
    if (b.hasAttribute("data-more")) {
      var spare = b.closest("fieldset").querySelector(".slot.spare");
      if (spare) { spare.classList.remove("spare"); var i = spare.querySelector("input"); if (i) i.focus(); }
      if (!b.closest("fieldset").querySelector(".slot.spare")) b.hidden = true;
      return;
    }
    var input = b.parentNode.querySelector("input");
    if (b.hasAttribute("data-zero")) input.value = "0";
    else input.value = input.value.charAt(0) === "-" ? input.value.slice(1) : "-" + (input.value || "");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  var seats = document.querySelectorAll(".player-name");
  if (seats.length) {
    var reveal = function () {
      var shown = 4;
      Array.prototype.forEach.call(seats, function (s, i) {
        if (i < 8 && s.querySelector("input").value.trim()) shown = Math.max(shown, i + 2);
      });
      Array.prototype.forEach.call(seats, function (s, i) {
        s.classList.toggle("extra-player", i >= shown);
      });
    };
    document.addEventListener("input", reveal);
    reveal();
  }
  var dealer = document.querySelector(".newgame select[name=first_dealer]");
  if (dealer) {
    var label = function () {
      Array.prototype.forEach.call(dealer.options, function (o, i) {
        var n = document.querySelector("input[name=player_" + i + "]");
        o.textContent = (n && n.value.trim()) || "Player " + (i + 1);
      });
    };
    document.addEventListener("input", label);
    label();
  }
  var round = document.querySelector("form.round[data-packs]");
  if (round && window.CardPicker) {
    var packs = Number(round.dataset.packs) || 1;
    var spread = function () {
      var pickers = round.querySelectorAll("[data-card-picker]");
      var held = Array.prototype.map.call(pickers, function (p) {
        return CardPicker.tokens(p.querySelector("input").value).filter(function (t) {
          return t.indexOf("JK") !== 0;
        });
      });
      Array.prototype.forEach.call(pickers, function (p, i) {
        var count = {};
        held.forEach(function (cards, j) {
          if (j !== i) cards.forEach(function (c) { count[c] = (count[c] || 0) + 1; });
        });
        var mine = {};
        held[i].forEach(function (c) { mine[c] = (mine[c] || 0) + 1; });
        var used = Object.keys(count).filter(function (c) {
          return count[c] + (mine[c] || 0) >= packs;
        });
        CardPicker.setUsed(p, used.join(" "));
      });
    };
    round.addEventListener("input", spread);
    spread();
  }
})();
