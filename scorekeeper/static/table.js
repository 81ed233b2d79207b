/* Scorekeeper pages: live refresh, number pad helpers. Vanilla JS.
   - #live[data-poll][data-src][data-version]: polls the version JSON every 4 s while the
     page is visible; when it changes, fetches the fragment and replaces #live's content
     (event "sk:live"). With data-events (the TV view, the spectator board) an event
     stream says each new version instead, and the page polls only while the stream is
     down (refused with 503: opened again after REOPEN_MS). #netstate says "Last updated HH:MM" (the phone's time), or
     "Offline: reconnecting…" once a poll fails or takes over 3 s (event "sk:server",
     detail.up); in a secure context the service worker (/sw.js) is registered.
   - [data-sign] toggles a leading minus on its number input; [data-zero] sets it to 0.
   - [data-more] reveals the next hidden meld / lay-off row of its fieldset.
   - new game: name fields beyond the fourth appear one by one as names are typed; the
     first dealer's list names the players in seat order (a group's ticked players, then
     the names typed), updated as ticks and names change (a choice added for a guest:
     a group's form offers only the seated players).
   - a round by cards (form[data-packs]): each card picker greys out the cards the other
     pickers of the round hold as often as the pack has them (D2: two packs for 5+).
   - a round's own page (form.round): preview and save by fetch; the page's content is
     swapped in place; its mode tabs and a save's redirect replace the page in the
     history, so Back after a save lands on the game page, never on a form to send again. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  var state = document.getElementById("netstate");
  if (live) {
    var busy = false, seen = null;
    var clock = function (d) { return d.toLocaleTimeString(words.language(), { hour: "2-digit", minute: "2-digit" }); };
    var server = function (up) {
      if (up) seen = new Date();
      if (state) {
        state.classList.toggle("offline", !up);
        var key = (up ? "table_updated" : "table_offline_updated") + (seen ? "" : "_never");
        state.textContent = words(key, { time: seen ? clock(seen) : "" });
      }
      document.dispatchEvent(new CustomEvent("sk:server", { detail: { up: up } }));
    };
    var get = function (url) {
      var stop = new AbortController();
      var t = setTimeout(function () { stop.abort(); }, 3000);
      return fetch(url, { cache: "no-cache", signal: stop.signal }).then(function (r) {
        clearTimeout(t);
        if (!r.ok) throw new Error(r.status);
        return r;
      });
    };
    var streaming = false;
    var swap = function (version) {
      if (String(version) === live.dataset.version) return null;
      return get(live.dataset.src).then(function (r) { return r.text(); }).then(function (html) {
        live.innerHTML = html; live.dataset.version = String(version);
        document.dispatchEvent(new CustomEvent("sk:live"));
      });
    };
    var poll = function () {
      if (busy || streaming || document.hidden) return;
      busy = true;
      get(live.dataset.poll).then(function (r) { return r.json(); })
        .then(function (v) { return swap(v.version); })
        .then(function () { server(true); }, function () { server(false); })
        .then(function () { busy = false; });
    };
    var REOPEN_MS = 15000;
    var listen = function () {
      var source = new window.EventSource(live.dataset.events + "?since=" + live.dataset.version);
      source.addEventListener("open", function () { streaming = true; server(true); });
      source.addEventListener("version", function (e) {
        var heard = null;
        try { heard = JSON.parse(e.data).version; } catch (err) { return; /* malformed: ignore */ }
        Promise.resolve(swap(heard)).then(function () { server(true); }, function () { server(false); });
      });
      source.addEventListener("end", function () { source.close(); streaming = false; });
      source.addEventListener("error", function () {
        streaming = false;
        if (source.readyState === window.EventSource.CLOSED) window.setTimeout(listen, REOPEN_MS);
      });
    };
    if (live.dataset.events && window.EventSource) listen();
    server(true);
    setInterval(poll, 4000);
    document.addEventListener("visibilitychange", poll);
    window.addEventListener("offline", function () { server(false); });
    window.addEventListener("online", poll);
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/sw.js").catch(function () {});
    }
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
      var names = [];
      document.querySelectorAll(".group-pick input[name=pick]:checked").forEach(function (box) {
        names.push(box.parentNode.textContent.trim());
      });
      document.querySelectorAll(".player-name input").forEach(function (n) {
        if (n.value.trim()) names.push(n.value.trim());
      });
      while (dealer.options.length < Math.min(names.length, 8)) {  /* the server offers the seated only */
        dealer.add(new Option("", String(dealer.options.length)));
      }
      Array.prototype.forEach.call(dealer.options, function (o, i) {
        o.textContent = names[i] || words("table_player", { number: i + 1 });
        o.hidden = names.length > 1 && i >= names.length;
      });
      if (dealer.selectedOptions[0] && dealer.selectedOptions[0].hidden) dealer.value = "0";
    };
    document.addEventListener("input", label);
    document.addEventListener("change", label);
    label();
  }
  var spread = function (round) {
    var packs = Number(round.dataset.packs) || 1;
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
  var cards = function () {
    var round = document.querySelector("form.round[data-packs]");
    if (round && window.CardPicker) spread(round);
  };
  document.addEventListener("input", function (e) { if (e.target.closest("form.round")) cards(); });
  cards();
  document.addEventListener("click", function (e) {
    var tab = e.target.closest && e.target.closest("nav.modes a");
    if (tab && document.querySelector("form.round")) { e.preventDefault(); location.replace(tab.href); }
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches("form.round") || !window.fetch || !window.DOMParser) return;
    e.preventDefault();
    var body = new FormData(form);
    if (e.submitter && e.submitter.name) body.set(e.submitter.name, e.submitter.value);
    fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
      .then(function (r) {
        if (r.type === "opaqueredirect") { location.replace(form.dataset.back); return null; }
        return r.text().then(function (html) {
          var main = new DOMParser().parseFromString(html, "text/html").querySelector("main");
          document.querySelector("main").innerHTML = main.innerHTML;
          if (window.CardPicker) CardPicker.init(document);
          cards();
          var first = document.querySelector("#preview, [role=alert], .has-error");
          if (first) first.scrollIntoView({ block: "start" });
        });
      }).catch(function () {
        var note = form.querySelector(".offline-note") || form.insertBefore(document.createElement("p"), form.firstChild);
        note.className = "flash flash-error offline-note"; note.setAttribute("role", "alert");
        note.textContent = words("table_not_sent");
      });
  });
})();
