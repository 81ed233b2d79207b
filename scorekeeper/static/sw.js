/* The scorekeeper's service worker (served at /sw.js, never from a cache: Cache-Control
   no-cache; registered by table.js in a secure context: https, or localhost). The /sw.js
   route (scorekeeper/hosting/assets.py) fills in the build (a hash of every static file and
   the version) and the app shell's URLs, each with its file's hash (?v=...). The shell comes
   from the cache (a hashed URL never changes; one without a hash is refreshed behind it);
   each game page opened is kept, network first, so that it reads offline. Only GET pages
   and /static/ files: saves, polls, the live fragment and JSON always go to the network, so
   a lost server shows as offline, never as old news. A new build installs its own caches
   and, once active, deletes every other cache, an older build's included.
   Languages: each page (theme.js, on load) posts {type: "language", lang, offline}: the
   reader's language (the footer switch's, never a TV's own) and the offline sentence in
   it (a page opened with ?lang= is not heard), kept in the pages' cache (WORDS), so
   the offline fallback speaks the reader's language; when the language changed (the
   footer's switch), every kept page is fetched again in the new one while online. */
"use strict";
var BUILD = "__BUILD__";
var SHELL = "sk-shell-" + BUILD, PAGES = "sk-pages-" + BUILD;
var FILES = __FILES__;
var KEPT = /^\/(games\/[\w-]+)?$/;
var WORDS = "/sw/words", OFFLINE = "Offline, and this page was not opened here before.";

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(SHELL).then(function (c) { return c.addAll(FILES); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== SHELL && k !== PAGES; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

var shell = function (req) {
  return caches.open(SHELL).then(function (c) {
    return c.match(req).then(function (hit) {
      if (hit && new URL(req.url).searchParams.has("v")) return hit;
      var net = fetch(req).then(function (r) {
        if (r.ok) c.put(req, r.clone());
        return r;
      });
      return hit ? (net.catch(function () {}), hit) : net;
    });
  });
};

var page = function (req) {
  return fetch(req).then(function (r) {
    if (r.ok) {
      var copy = r.clone();
      caches.open(PAGES).then(function (c) { c.put(req, copy); });
    }
    return r;
  }).catch(function () {
    return caches.match(req, { ignoreSearch: true }).then(function (hit) {
      return hit || words().then(function (w) {
        return new Response(offlinePage(w.lang || "en", w.offline || OFFLINE),
          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      });
    });
  });
};

var escaped = function (text) {
  return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
};

/* The offline answer for a page never opened here: one sentence, in the reader's language
   and direction, readable on a phone (no script, no style sheet: nothing to fetch). */
var offlinePage = function (lang, sentence) {
  var tag = escaped(String(lang).replace("_", "-"));
  var rtl = /^(ar|fa|he|ur)(-|$)/.test(tag) ? " dir=\"rtl\"" : "";
  return "<!doctype html><html lang=\"" + tag + "\"" + rtl + "><meta charset=\"utf-8\">"
    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    + "<meta name=\"color-scheme\" content=\"light dark\">"
    + "<title>500 Rum</title><p style=\"font: 1.1rem/1.5 system-ui, sans-serif; margin: 2rem 1rem\">"
    + escaped(sentence) + "</p></html>";
};

var words = function () {
  return caches.open(PAGES).then(function (c) { return c.match(WORDS); })
    .then(function (hit) { return hit ? hit.json() : {}; }).catch(function () { return {}; });
};

var refetch = function (c) {
  return c.keys().then(function (kept) {
    return Promise.all(kept.filter(function (r) { return KEPT.test(new URL(r.url).pathname); })
      .map(function (r) {
        return fetch(r.url, { credentials: "same-origin", cache: "no-store" })
          .then(function (res) { if (res.ok) return c.put(r, res); }).catch(function () {});
      }));
  });
};

var keepWords = function (lang, offline) {
  return words().then(function (old) {
    return caches.open(PAGES).then(function (c) {
      var kept = c.put(WORDS, new Response(JSON.stringify({ lang: lang, offline: offline }),
        { headers: { "Content-Type": "application/json" } }));
      return old.lang && old.lang !== lang ? kept.then(function () { return refetch(c); }) : kept;
    });
  });
};

self.addEventListener("message", function (e) {
  var d = e.data || {}, from = e.source && e.source.url ? new URL(e.source.url) : null;
  if (d.type !== "language" || typeof d.lang !== "string" || !from) return;
  if (from.origin !== self.location.origin || from.searchParams.has("lang")) return;
  e.waitUntil(keepWords(d.lang.slice(0, 20), String(d.offline || OFFLINE).slice(0, 500)));
});

self.addEventListener("fetch", function (e) {
  var req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) e.respondWith(shell(req));
  else if (req.mode === "navigate" && KEPT.test(url.pathname)) e.respondWith(page(req));
});
