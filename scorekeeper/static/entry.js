/* The game page's round entry (templates/table/_entry.html), a plain form upgraded:
   - the whole value is selected on focus; typed figures are kept in localStorage
     ("sk:draft:<game>") until the server has confirmed the round;
   - a debounced preview: the form posted with action=preview, the server's HTML shown;
     who went out is sent only when tapped, and otherwise marked as the server's answer
     says (shown / in hand: the one player with nothing in hand, rule O1 decided there);
   - Save round: a fetch (Accept: application/json); the server answers the parts of
     #live the round changed (standings, next dealer, the new row, the chart), or all of
     #live when the page's layout changes, rendered by the page's own templates
     (scorekeeper/table/entry.py), and the script puts them in place; a toast "Round N
     saved: Ann 250 · Bob 175 [Undo]" stays 10 s at the foot of the visible screen, above
     an open keyboard (Undo posts to the history's undo; its answer swapped in);
   - a round sent while none waits keeps its figures and the heading's number until the
     server answers: saved, the form is emptied and the number moves on; refused, nothing
     moves and each problem is one sentence on its own line (the server's); the server
     unreachable, the round is queued as below and the form emptied;
   - offline (or the server unreachable): the round is queued ("sk:queue:<game>") with its
     nonce and version, shown as "waiting to sync", and sent once when the server answers
     again; a stale version shows both versions and waits for the person's choice.
   - "Record a round" at the top of the page scrolls the entry up and focuses its first
     figure (a plain link to #entry without the script); hidden with the entry once the
     game is over.
   Every score and every part of the page is the server's; the script moves form fields
   and swaps in what the server rendered. */
(function () {
  "use strict";
  var form = document.getElementById("entry");
  var live = document.getElementById("live");
  if (!form || !live) return;
  var names = JSON.parse(form.dataset.names), url = form.getAttribute("action");
  var draftKey = "sk:draft:" + form.dataset.slug, queueKey = "sk:queue:" + form.dataset.slug;
  var preview = document.getElementById("entry-preview"), problem = document.getElementById("entry-problem");
  var pending = document.getElementById("pending"), conflict = document.getElementById("conflict");
  var timer = null, flushing = false, tapped = false, lastOwn = null, holding = null;
  var $ = function (sel, root) { return Array.prototype.slice.call((root || form).querySelectorAll(sel)); };
  var field = function (name) { return form.elements[name]; };
  var store = function (key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: kept in the page only */ }
  };
  var load = function (key, empty) {
    try { return JSON.parse(localStorage.getItem(key)) || empty; } catch (e) { return empty; }
  };
  var nonce = function () {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    return btoa(String.fromCharCode.apply(null, b)).replace(/[+/=]/g, function (c) { return { "+": "-", "/": "_", "=": "" }[c]; });
  };
  var pairs = function (action) {
    var out = [];
    new FormData(form).forEach(function (v, k) { if (k !== "csrf_token" && (k !== "went_out" || tapped)) out.push([k, String(v)]); });
    return out.map(function (p) { return p[0] === "action" ? ["action", action] : p; });
  };
  var chosen = function () { return form.querySelector("input[name=went_out]:checked"); };
  var typed = function () { return $("input.num").some(function (i) { return i.value !== ""; }) || !!chosen(); };
  var numberNow = function () { var d = live.querySelector("[data-next-round]"); return d ? Number(d.dataset.nextRound) : 1; };
  var setNumber = function (n) { form.querySelector("[data-round-number]").textContent = n; };

  var post = function (url, list) {
    var body = new FormData();
    body.append("csrf_token", field("csrf_token").value);
    list.forEach(function (p) { body.append(p[0], p[1]); });
    return fetch(url, { method: "POST", body: body, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (j) { j.status = r.status; return j; }); });
  };
  var say = function (text, lines) {
    problem.textContent = "";
    (lines && lines.length ? lines : text ? [text] : []).forEach(function (line) {
      problem.appendChild(document.createElement("span")).textContent = line;
    });
    problem.hidden = !problem.firstChild;
  };
  var mark = function (fields) {
    $("[aria-invalid]").forEach(function (i) { i.removeAttribute("aria-invalid"); });
    Object.keys(fields || {}).forEach(function (n) { var f = field(n); if (f && f.setAttribute) f.setAttribute("aria-invalid", "true"); });
  };
  var clear = function () {
    $("input.num").forEach(function (i) { i.value = ""; });
    $("input[name=went_out], input[name=seven]").forEach(function (i) { i.checked = false; });
    field("nonce").value = nonce();
    preview.innerHTML = ""; say(""); mark({}); tapped = false;
    store(draftKey, null);
  };
  /* A new round's parts (the server's, rendered by the page's macros) put in place: the
     standings, next dealer and chart replaced, the row added (the oldest dropped past
     the rounds the page shows), the "Rounds x to y" line replaced. */
  var patch = function (parts, shown) {
    var put = function (sel, html) { var e = live.querySelector(sel); if (e) e.outerHTML = html; };
    put(":scope > .standings", parts.standings); put(":scope > .dealer", parts.dealer); put(".chart", parts.chart);
    var older = live.querySelector(".older"), rows = live.querySelector("table.rounds tbody");
    if (older) older.remove();
    if (parts.older) live.querySelector(".rounds-panel .scroll").insertAdjacentHTML("beforebegin", parts.older);
    rows.insertAdjacentHTML("beforeend", parts.row);
    while (rows.rows.length > shown) rows.deleteRow(0);
  };
  var showLive = function (html, version, parts, shown) {
    if (parts) patch(parts, shown); else live.innerHTML = html;
    live.dataset.version = String(version);
    if (!load(queueKey, []).length) field("version").value = String(version);
    setNumber(numberNow() + load(queueKey, []).length);
    form.hidden = !!live.querySelector(".over");
    if (jump) jump.hidden = form.hidden;
  };

  /* The toast sits at the foot of the visible screen: lifted above an open keyboard
     (the visual viewport shorter than the layout one). */
  var lift = function () {
    var t = document.getElementById("toast"), v = window.visualViewport;
    if (t && v) t.style.setProperty("--keyboard", Math.max(0, window.innerHeight - v.height - v.offsetTop) + "px");
  };
  if (window.visualViewport) { window.visualViewport.addEventListener("resize", lift); window.visualViewport.addEventListener("scroll", lift); }
  var toast = function (text, undo) {
    var t = document.getElementById("toast") || document.body.appendChild(document.createElement("div"));
    t.id = "toast"; t.className = "toast"; t.setAttribute("role", "status");
    t.textContent = "";
    t.appendChild(document.createElement("span")).textContent = text;
    if (undo) {
      var b = t.appendChild(document.createElement("button"));
      b.type = "button"; b.textContent = words("entry_undo");
      b.addEventListener("click", function () {
        post(undo, [["version", live.dataset.version]]).then(function (j) {
          if (j.live) showLive(j.live, j.version);
          toast(j.message);
        }).catch(function () { toast(words("entry_undo_offline")); });
      });
    }
    clearTimeout(t.timer);
    t.hidden = false;
    lift();
    t.timer = setTimeout(function () { t.hidden = true; }, 10000);
  };

  var said = function (list) {
    var get = function (k) { var p = list.filter(function (x) { return x[0] === k; })[0]; return p ? p[1] : null; };
    var net = get("mode") === "net";
    var out = get("went_out");
    var parts = names.map(function (n, i) {
      if (net) return words("entry_net", { name: n, points: get("net-" + i) || "0" });
      return words("entry_totals", { name: n, shown: get("shown-" + i) || "0", in_hand: get("in_hand-" + i) || "0" });
    });
    if (out === "") parts.push(words("entry_stock_out"));
    else if (out !== null) parts.push(words("entry_went_out", { name: names[Number(out)] }));
    return parts.join(" · ");
  };
  var showQueue = function () {
    var q = load(queueKey, []);
    pending.hidden = !q.some(function (i) { return i.waiting; });
    pending.innerHTML = "";
    q.filter(function (i) { return i.waiting; }).forEach(function (item) {
      var li = pending.appendChild(document.createElement("li"));
      li.textContent = words("entry_waiting", { number: item.number, round: said(item.pairs) });
    });
  };

  var saved = function (j) { showLive(j.live, j.version, j.parts, j.shown); toast(j.message, j.undo); };
  var shift = function () { var q = load(queueKey, []); q.shift(); store(queueKey, q); showQueue(); };
  var showConflict = function (item, j) {
    var theirs = (j.latest || []).filter(function (r) { return r.number === item.number; })[0];
    var next = (j.latest && j.latest.length ? j.latest[j.latest.length - 1].number : 0) + 1;
    conflict.innerHTML = "";
    var add = function (tag, text) { var e = conflict.appendChild(document.createElement(tag)); e.textContent = text; return e; };
    add("h2", words("entry_two_versions", { number: item.number }));
    add("p", theirs ? words("entry_theirs_saved", { number: item.number }) : words("entry_game_changed"));
    if (theirs) {
      add("p", words("entry_theirs", { scores: Object.keys(theirs.scores).map(function (u) {
        return words("entry_net", { name: u, points: theirs.scores[u] });
      }).join(" · ") }));
    }
    add("p", words("entry_yours", { round: said(item.pairs) }));
    var keep = add("button", words("entry_save_mine", { number: next }));
    keep.type = "button"; keep.className = "primary";
    keep.addEventListener("click", function () {
      var q = load(queueKey, []);
      q[0] = item; item.version = j.version; item.number = next; item.chained = false;
      store(queueKey, q); conflict.hidden = true; flush();
    });
    var drop = add("button", words("entry_keep_theirs"));
    drop.type = "button";
    drop.addEventListener("click", function () { conflict.hidden = true; shift(); release(); flush(); });
    conflict.hidden = false;
    conflict.scrollIntoView({ block: "center" });
  };
  var setPair = function (list, key, value) { return list.map(function (p) { return p[0] === key ? [key, value] : p; }); };
  var release = function () { if (holding) { holding = null; clear(); } };
  var answered = function (item, j) {
    if (j.status === 201) { lastOwn = j.version; shift(); release(); saved(j); return true; }
    if (j.error === "already_saved") {
      shift(); release(); toast(j.message);
      return fetch(live.dataset.src, { cache: "no-store" }).then(function (r) { return r.text(); })
        .then(function (html) { showLive(html, j.version); return true; });
    }
    if (j.error === "stale") { showConflict(item, j); return false; }
    shift(); holding = null;
    if (!typed()) restore(item.pairs);
    setNumber(numberNow() + load(queueKey, []).length);
    say(j.message, j.sentences); mark(j.fields);
    return false;
  };
  var flush = function () {
    var q = load(queueKey, []);
    if (flushing || !q.length || !conflict.hidden) return;
    flushing = true;
    var head = q[0];
    if (head.chained && lastOwn !== null) head.version = lastOwn;
    post(url, setPair(head.pairs, "version", String(head.version))).then(function (j) {
      return answered(head, j);
    }, function () {
      var r = load(queueKey, []);
      var fresh = r.some(function (i) { return !i.waiting; });
      r.forEach(function (i) { i.waiting = true; });
      store(queueKey, r);
      if (holding) { holding = null; clear(); setNumber(numberNow() + r.length); }
      showQueue();
      if (fresh) toast(words("entry_kept", { number: head.number }));
      return false;
    }).then(function (ok) { flushing = false; if (ok) flush(); });
  };
  var queue = function (list) {
    if (holding) return;  /* the round sent is not answered yet: Save tapped twice */
    var q = load(queueKey, []);
    var item = { pairs: list, number: numberNow() + q.length, version: Number(field("version").value), chained: q.length > 0 };
    if (navigator.onLine === false) item.waiting = true;
    q.push(item);
    store(queueKey, q);
    if (q.length === 1 && !item.waiting) holding = item;
    else { clear(); showQueue(); setNumber(item.number + 1); }
    if (item.waiting) toast(words("entry_kept", { number: item.number }));
    flush();
  };

  var restore = function (list) {
    list.forEach(function (p) {
      var f = field(p[0]);
      if (!f || p[0] === "action") return;
      if (f.length !== undefined && !f.tagName) { Array.prototype.forEach.call(f, function (r) { r.checked = r.value === p[1]; }); } else if (f.type === "checkbox") { f.checked = true; } else { f.value = p[1]; }
    });
    tapped = !!chosen();
  };
  var shownOut = function (seat) {
    if (tapped) return;
    $("input[name=went_out]").forEach(function (r) { r.checked = seat !== null && seat !== undefined && r.value === String(seat); });
  };
  var ask = function () {
    if (!typed()) { preview.innerHTML = ""; say(""); shownOut(null); return; }
    post(url, pairs("preview")).then(function (j) {
      shownOut(j.went_out);
      if (j.html !== undefined) { preview.innerHTML = j.html; say(""); mark({}); } else { say(j.message); mark(j.fields); }
    }, function () { /* offline: the preview comes back with the server */ });
  };

  var jump = document.querySelector("[data-record]");
  if (jump) jump.addEventListener("click", function (e) {
    e.preventDefault();
    form.scrollIntoView({ block: "start" });
    var first = $("input.num").filter(function (i) { return i.offsetParent !== null; })[0];
    if (first) first.focus({ preventScroll: true });
  });

  var fresh = null;
  form.addEventListener("focusin", function (e) {
    if (e.target.matches("input.num")) { fresh = e.target; e.target.select(); }
  });
  form.addEventListener("mouseup", function (e) {
    if (e.target === fresh) e.preventDefault();  /* Safari would drop the selection */
    fresh = null;
  });
  form.addEventListener("change", function (e) { if (e.target.name === "went_out") tapped = e.isTrusted; });
  form.addEventListener("input", function () {
    store(draftKey, pairs("save"));
    clearTimeout(timer);
    timer = setTimeout(ask, 350);
  });
  form.addEventListener("change", function () { store(draftKey, pairs("save")); clearTimeout(timer); timer = setTimeout(ask, 350); });
  form.addEventListener("submit", function (e) { e.preventDefault(); queue(pairs("save")); });

  document.addEventListener("sk:server", function (e) { if (e.detail.up) flush(); });
  document.addEventListener("sk:live", function () {
    if (!typed() && !load(queueKey, []).length) { field("version").value = live.dataset.version; setNumber(numberNow()); }
  });
  window.addEventListener("online", flush);
  var draft = load(draftKey, null);
  if (draft) { restore(draft); ask(); }
  showQueue();
  setNumber(numberNow() + load(queueKey, []).length);
  flush();
})();
