/* The scorekeeper's service worker (served at /sw.js, never from a cache: Cache-Control
   no-cache; registered by table.js in a secure context: https, or localhost). The /sw.js
   route (scorekeeper/hosting/assets.py) fills in the build (a hash of every static file and
   the version) and the app shell's URLs, each with its file's hash (?v=...). The shell comes
   from the cache (a hashed URL never changes; one without a hash is refreshed behind it);
   each game page opened is kept, network first, so that it reads offline. Only GET pages
   and /static/ files: saves, polls, the live fragment and JSON always go to the network, so
   a lost server shows as offline, never as old news. A new build installs its own caches
   and, once active, deletes every other cache, an older build's included. */
"use strict";
var BUILD = "__BUILD__";
var SHELL = "sk-shell-" + BUILD, PAGES = "sk-pages-" + BUILD;
var FILES = __FILES__;

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
      return hit || new Response("Offline, and this page was not opened here before.",
        { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    });
  });
};

self.addEventListener("fetch", function (e) {
  var req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) e.respondWith(shell(req));
  else if (req.mode === "navigate" && /^\/(games\/[\w-]+)?$/.test(url.pathname)) e.respondWith(page(req));
});
