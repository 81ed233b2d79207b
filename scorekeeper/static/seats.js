/* A table game on several phones (/play/<slug> with #seating): live updates and the
   turn notice. The server is the only judge; this only asks it what changed.
   - Server-sent events from #seating[data-events] bring the board from this phone's
     seat with the game's version (the same body as data-board's answer), handed to
     static/play.js ("play:board" on #play) when it is not the board shown; an event
     without a board (and each poll that sees a new version) fetches data-board.
   - When the stream drops (a locked screen, a proxy) or is refused (503: the server
     carries as many streams as it can), the page polls data-poll (ETag, every POLL_MS)
     and reopens the stream after REOPEN_MS; coming back to the page
     (visibilitychange) checks at once. The server keeps one stream per seat: a stream
     ended by a newer one of the same seat (another tab or phone on this seat's link:
     "end" with reason "replaced") polls the same way instead of reconnecting at once;
     one whose seat was given to a bot or a new link ("removed") reloads the page, which
     then says so.
   - Turn notice: the status line (whose turn, who a bot plays for), the document title
     ("Your turn · ...") and a short vibration where the browser allows it.
   - The seats page (#table-seats[data-refresh]): who has joined, read again every
     LIST_MS (each read is also the host phone's contact, so no bot plays for the host
     while the others scan their codes). */
(function () {
  "use strict";
  var list = document.getElementById("table-seats");
  if (!list || !window.fetch || !window.DOMParser) return;
  var LIST_MS = 3000;
  window.setInterval(function () {
    window.fetch(list.dataset.refresh, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new window.DOMParser().parseFromString(html, "text/html");
        fresh.querySelectorAll("[data-seat]").forEach(function (seat) {
          var here = list.querySelector("[data-seat='" + seat.dataset.seat + "'] [data-status]");
          var now = seat.querySelector("[data-status]");
          if (here && now) here.textContent = now.textContent;
        });
      }, function () {});
  }, LIST_MS);
})();
(function () {
  "use strict";
  var seating = document.getElementById("seating");
  var play = document.getElementById("play");
  var root = document.getElementById("board-root");
  if (!seating || !play || !root || !window.fetch) return;
  var POLL_MS = 2000;
  var REOPEN_MS = 15000;
  /* the title without "Your turn · " around it, in the page's language */
  var around = words("play_your_turn_title").split("%(title)s");
  var baseTitle = document.title;
  if (around.length === 2 && baseTitle.indexOf(around[0]) === 0 &&
      baseTitle.slice(baseTitle.length - around[1].length) === around[1] && document.title.length > around[0].length + around[1].length) {
    baseTitle = baseTitle.slice(around[0].length, baseTitle.length - around[1].length);
  }
  var wasMine = seating.dataset.mine === "yes";
  var stream = null;
  var pollTimer = null;
  var reopenTimer = null;
  var etag = null;
  var fetching = false;
  var again = false;
  var live = seating.querySelector("[data-live]");

  var shownVersion = function () {
    var input = root.querySelector("input[name=version]");
    return input ? Number(input.value) : Number(seating.dataset.version || 0);
  };

  var notice = function (data) {
    var line = seating.querySelector("[data-turn]");
    if (line) {
      line.textContent = data.text;
      line.classList.toggle("mine", !!data.mine);
    }
    seating.dataset.version = data.version;
    document.title = data.mine ? words("play_your_turn_title", { title: baseTitle }) : baseTitle;
    if (data.mine && !wasMine && navigator.vibrate) {
      try { navigator.vibrate(180); } catch (e) { /* not allowed before a tap */ }
    }
    wasMine = !!data.mine;
  };

  /* A board from this phone's seat (board.json's answer, or a version event's data):
     swapped in when it is newer than the one shown, the cards picked kept picked (an
     older one, a fetch overtaken by an event, is dropped). */
  var show = function (data) {
    if (data.version < shownVersion()) return;
    if (data.version !== shownVersion()) {
      var picked = Array.prototype.map.call(root.querySelectorAll("input.pick:checked"), function (p) { return p.value; });
      play.dispatchEvent(new CustomEvent("play:board", { detail: { board: data.board } }));
      picked.forEach(function (value) {
        var box = root.querySelector("input.pick[value='" + value + "']");
        if (box) box.checked = true;
      });
      root.dispatchEvent(new Event("change"));
    }
    notice(data);
  };

  var refresh = function () {
    if (fetching) { again = true; return; }
    fetching = true;
    window.fetch(seating.dataset.board, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        fetching = false;
        if (!data) return;
        show(data);
        if (again) { again = false; refresh(); }
      }, function () { fetching = false; });
  };

  var heard = function (version) {
    if (version !== Number(seating.dataset.version)) refresh();
  };

  /* A version event: its board swapped in at once, or fetched when it came without one. */
  var told = function (data) {
    if (typeof data.board !== "string") heard(data.version);
    else if (data.version !== Number(seating.dataset.version)) show(data);
  };

  var poll = function () {
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    window.fetch(seating.dataset.poll, { credentials: "same-origin", headers: headers })
      .then(function (r) {
        if (r.status === 304) return null;
        etag = r.headers.get("ETag");
        return r.ok ? r.json() : null;
      })
      .then(function (data) { if (data) heard(data.version); }, function () {});
  };

  var startPolling = function () {
    if (!pollTimer) {
      if (live) live.textContent = words("play_checking");
      pollTimer = window.setInterval(poll, POLL_MS);
      poll();
    }
    if (!reopenTimer) {
      reopenTimer = window.setTimeout(function () { reopenTimer = null; if (!stream) open(); }, REOPEN_MS);
    }
  };
  var stopPolling = function () {
    if (pollTimer) window.clearInterval(pollTimer);
    pollTimer = null;
  };

  var open = function () {
    if (!window.EventSource) { startPolling(); return; }
    if (stream) stream.close();
    stream = new window.EventSource(seating.dataset.events + "?since=" + shownVersion());
    stream.addEventListener("version", function (e) {
      stopPolling();
      if (live) live.textContent = words("play_live");
      var data = null;
      try { data = JSON.parse(e.data); } catch (err) { /* a malformed event: ignore */ }
      if (data) told(data);
    });
    stream.addEventListener("end", function (e) {
      var reason = "";
      try { reason = JSON.parse(e.data).reason; } catch (err) { /* a malformed event: poll */ }
      if (stream) stream.close();
      stream = null;
      if (reason === "removed" || reason === "gone") window.location.reload();
      else startPolling();
    });
    stream.addEventListener("open", function () { stopPolling(); if (live) live.textContent = words("play_live"); });
    stream.addEventListener("error", function () {
      if (stream && stream.readyState === window.EventSource.CLOSED) { stream = null; startPolling(); }
      else poll();
    });
  };

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { poll(); if (!stream) open(); }
  });
  open();
})();
