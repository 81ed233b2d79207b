/* The game page's round entry (templates/table/_entry.html), a plain form upgraded:
   - the whole value is selected on focus; typed figures are kept in localStorage
     ("sk:draft:<game>") until the server has confirmed the round;
   - a debounced preview: the form posted with action=preview, the server's HTML shown;
     who went out is sent only when tapped, and otherwise marked as the server's answer
     says (shown / in hand: the one player with nothing in hand, rule O1 decided there);
   - Save round: a fetch (Accept: application/json); the parts of #live the round changed
     (standings, next dealer, the new row, the chart) are drawn from the figures the
     server answers (scorekeeper/table/entry.py), or all of #live swapped in when the
     server sends it; a toast "Round N saved · Undo" stays 10 s (Undo posts to
     the history's undo);
   - offline (or the server unreachable): the round is queued ("sk:queue:<game>") with its
     nonce and version, shown as "waiting to sync", and sent once when the server answers
     again; a stale version shows both versions and waits for the person's choice.
   Every score is the server's; the script moves form fields and draws the standings and
   the chart from the scores as the server would. */
(function () {
  "use strict";
  var form = document.getElementById("entry");
  var live = document.getElementById("live");
  if (!form || !live) return;
  var names = JSON.parse(form.dataset.names), url = form.getAttribute("action");
  var draftKey = "sk:draft:" + form.dataset.slug, queueKey = "sk:queue:" + form.dataset.slug;
  var preview = document.getElementById("entry-preview"), problem = document.getElementById("entry-problem");
  var pending = document.getElementById("pending"), conflict = document.getElementById("conflict");
  var timer = null, flushing = false, tapped = false, lastOwn = null;
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
  var say = function (text) { problem.textContent = text || ""; problem.hidden = !text; };
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
  var esc = function (text) {
    return String(text).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" }[c]; });
  };
  /* A number with one decimal as the server writes it (Python's "%.1f": an exact half
     goes to the even digit; an exact half in binary is x.25 or x.75). */
  var tenths = function (x) {
    var q = x * 4;
    if (q === Math.floor(q) && q % 2 !== 0) { var t = Math.floor(x * 10); return ((t % 2 ? t + 1 : t) / 10).toFixed(1); }
    return x.toFixed(1);
  };
  var signed = function (n) { return (n < 0 ? "" : "+") + n; };
  var tone = function (n) { return n > 0 ? "good" : n < 0 ? "bad" : ""; };
  /* The parts of #live a new round changes, drawn from the save's figures as the
     server's templates draw them (templates/table/_parts.html, _macros.html chart). */
  var standingsHtml = function (j, totals) {
    var order = j.units.map(function (u, i) { return { name: u, total: totals[i] }; });
    order.sort(function (a, b) { return b.total - a.total; });
    return '<section class="standings">' + order.map(function (s) {
      var out = '<div class="standing"><div class="row"><span class="name">' + esc(s.name) + '</span><span class="total num">' + s.total + "</span></div>";
      if (!j.deals) {
        var t = j.target, needed = Math.max(t - s.total, 0);
        out += '<div class="bar" role="progressbar" aria-label="' + esc(s.name) + " toward " + t + '" aria-valuemin="0" aria-valuemax="' + t +
          '" aria-valuenow="' + Math.min(Math.max(s.total, 0), t) + '" aria-valuetext="' + s.total + " of " + t +
          '"><i style="width:' + tenths(Math.min(Math.max(s.total, 0) / t, 1) * 100) + '%"></i></div>' +
          '<div class="small muted">' + (needed ? needed + " to go" : "reached " + t) + "</div>";
      }
      return out + "</div>";
    }).join("") + "</section>";
  };
  var dealerHtml = function (j) {
    var next = j.number + 1;
    return '<p class="dealer" data-next-round="' + next + '">Next deal: <strong>' + esc(j.dealer) + "</strong> · " +
      (j.deals ? "Deal " + next + " of " + j.deals : "round " + next) + "</p>";
  };
  var rowHtml = function (j) {
    var n = j.number, r = j.row;
    return "<tr><td>" + n + (r.cards ? ' <span class="badge">cards</span>' : "") + "</td>" + r.cells.map(function (c) {
      return '<td class="num"><span class="' + tone(c[0]) + '">' + signed(c[0]) + '</span><br><span class="small muted">' + c[1] + "</span></td>";
    }).join("") + (r.edit ? '<td><a class="button small" href="' + esc(r.edit) + '" aria-label="Edit round ' + n + '">Edit</a></td>' : "") + "</tr>";
  };
  /* The chart's lines (scorekeeper/table/standings.py chart_of) from the rows shown. */
  var redraw = function (j, rows) {
    var svg = live.querySelector(".chart svg"), w = j.chart[0], h = j.chart[1], pad = j.chart[2];
    var series = j.units.map(function (u, k) {
      return Array.prototype.map.call(rows.rows, function (tr) {
        var s = tr.cells[k + 1].querySelectorAll("span");
        return [parseInt(s[0].textContent, 10), parseInt(s[1].textContent, 10)];
      });
    }).map(function (cells) {
      return [cells[0][1] - cells[0][0]].concat(cells.map(function (c) { return c[1]; }));
    });
    var values = [].concat.apply(j.deals ? [0] : [j.target, 0], series);
    var hi = Math.max.apply(null, values), lo = Math.min.apply(null, values);
    var span = (hi - lo) || 1, n = series[0].length, step = (w - 2 * pad) / ((n - 1) || 1), height = h - 2 * pad;
    var y = function (total) { return pad + height * (hi - total) / span; };
    var line = function (cls, total) {
      var l = svg.querySelector("line." + cls);
      if (l) { l.setAttribute("y1", tenths(y(total))); l.setAttribute("y2", tenths(y(total))); }
    };
    line("target", j.target); line("zero", 0);
    Array.prototype.forEach.call(svg.querySelectorAll("polyline"), function (p, k) {
      p.setAttribute("points", series[k].map(function (t, i) { return tenths(pad + i * step) + "," + tenths(y(t)) + " "; }).join(""));
    });
  };
  var patch = function (j) {
    var put = function (sel, html) { var e = live.querySelector(sel); if (e) e.outerHTML = html; };
    var rows = live.querySelector("table.rounds tbody"), older = live.querySelector(".older");
    put(":scope > .standings", standingsHtml(j, j.row.cells.map(function (c) { return c[1]; })));
    put(":scope > .dealer", dealerHtml(j));
    if (older) older.remove();
    var first = Math.max(j.number - j.shown + 1, 1);
    if (first > 1) {
      live.querySelector(".rounds-panel .scroll").insertAdjacentHTML("beforebegin", '<p class="small muted older">Rounds ' + first + " to " + j.number +
        " of " + j.number + '; the chart shows these rounds. <a href="' + esc(j.all) + '#rounds">Show all ' + j.number + " rounds</a></p>");
    }
    rows.insertAdjacentHTML("beforeend", rowHtml(j));
    while (rows.rows.length > j.shown) rows.deleteRow(0);
    redraw(j, rows);
  };
  var showLive = function (html, version, drawn) {
    if (drawn) patch(drawn); else live.innerHTML = html;
    live.dataset.version = String(version);
    if (!load(queueKey, []).length) field("version").value = String(version);
    setNumber(numberNow() + load(queueKey, []).length);
    form.hidden = !!live.querySelector(".over");
  };

  var toast = function (text, undo) {
    var t = document.getElementById("toast") || document.body.appendChild(document.createElement("div"));
    t.id = "toast"; t.className = "toast"; t.setAttribute("role", "status");
    t.textContent = text;
    if (undo) {
      var b = t.appendChild(document.createElement("button"));
      b.type = "button"; b.textContent = "Undo";
      b.addEventListener("click", function () {
        post(undo, [["version", live.dataset.version]]).then(function (j) {
          if (j.live) showLive(j.live, j.version);
          toast(j.message);
        }).catch(function () { toast("Offline: undo from the history when back online."); });
      });
      t.insertBefore(document.createTextNode(" · "), b);
    }
    clearTimeout(t.timer);
    t.hidden = false;
    t.timer = setTimeout(function () { t.hidden = true; }, 10000);
  };

  var words = function (list) {
    var get = function (k) { var p = list.filter(function (x) { return x[0] === k; })[0]; return p ? p[1] : null; };
    var net = get("mode") === "net";
    var out = get("went_out");
    return names.map(function (n, i) {
      return n + " " + (net ? (get("net-" + i) || "0") : (get("shown-" + i) || "0") + " shown, " + (get("in_hand-" + i) || "0") + " in hand");
    }).join(" · ") + (out === null ? "" : out === "" ? " · stock ran out" : " · " + names[Number(out)] + " went out");
  };
  var showQueue = function () {
    var q = load(queueKey, []);
    pending.hidden = !q.some(function (i) { return i.waiting; });
    pending.innerHTML = "";
    q.filter(function (i) { return i.waiting; }).forEach(function (item) {
      var li = pending.appendChild(document.createElement("li"));
      li.textContent = "Round " + item.number + ": " + words(item.pairs) + " — waiting to sync";
    });
  };

  var saved = function (j) { showLive(j.live, j.version, j.live === undefined ? j : null); toast(j.message, j.undo); };
  var shift = function () { var q = load(queueKey, []); q.shift(); store(queueKey, q); showQueue(); };
  var showConflict = function (item, j) {
    var theirs = (j.latest || []).filter(function (r) { return r.number === item.number; })[0];
    var next = (j.latest && j.latest.length ? j.latest[j.latest.length - 1].number : 0) + 1;
    conflict.innerHTML = "";
    var add = function (tag, text) { var e = conflict.appendChild(document.createElement(tag)); e.textContent = text; return e; };
    add("h2", "Round " + item.number + ": two versions");
    add("p", (theirs ? "Another phone saved round " + item.number : "The game changed on another phone") + " meanwhile. Nothing was overwritten.");
    if (theirs) add("p", "Theirs (saved): " + Object.keys(theirs.scores).map(function (u) { return u + " " + theirs.scores[u]; }).join(" · "));
    add("p", "Yours (on this phone): " + words(item.pairs));
    var keep = add("button", "Save mine as round " + next);
    keep.type = "button"; keep.className = "primary";
    keep.addEventListener("click", function () {
      var q = load(queueKey, []);
      q[0] = item; item.version = j.version; item.number = next; item.chained = false;
      store(queueKey, q); conflict.hidden = true; flush();
    });
    var drop = add("button", "Keep theirs, drop mine");
    drop.type = "button";
    drop.addEventListener("click", function () { conflict.hidden = true; shift(); flush(); });
    conflict.hidden = false;
    conflict.scrollIntoView({ block: "center" });
  };
  var setPair = function (list, key, value) { return list.map(function (p) { return p[0] === key ? [key, value] : p; }); };
  var answered = function (item, j) {
    if (j.status === 201) { lastOwn = j.version; shift(); saved(j); return true; }
    if (j.error === "already_saved") {
      shift(); toast(j.message);
      return fetch(live.dataset.src, { cache: "no-store" }).then(function (r) { return r.text(); })
        .then(function (html) { showLive(html, j.version); return true; });
    }
    if (j.error === "stale") { showConflict(item, j); return false; }
    shift();
    if (!typed()) restore(item.pairs);
    say(j.message); mark(j.fields);
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
      store(queueKey, r); showQueue();
      if (fresh) toast("Round " + head.number + " kept on this phone: waiting to sync");
      return false;
    }).then(function (ok) { flushing = false; if (ok) flush(); });
  };
  var queue = function (list) {
    var q = load(queueKey, []);
    var item = { pairs: list, number: numberNow() + q.length, version: Number(field("version").value), chained: q.length > 0 };
    if (navigator.onLine === false) item.waiting = true;
    q.push(item);
    store(queueKey, q);
    clear(); showQueue(); setNumber(item.number + 1);
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
