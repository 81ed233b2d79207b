/* Keep the phone's screen awake while a game is on screen (the game page, round entry).
   Loaded by templates/_awake.html as <script src=awake.js data-nosleep=URL defer>.
   - The Wake Lock API where the browser has it (a secure context: https or localhost):
     taken at once, taken again whenever the page becomes visible (the browser drops it
     when the tab is hidden).
   - Else (plain http over the LAN, older browsers) the vendored NoSleep.js, loaded only
     then; it plays a tiny muted video, which a browser allows only after a user gesture,
     so it starts on the first tap and again on the first tap after the page was hidden.
   document.documentElement.dataset.awake says which way is in use ("wake-lock",
   "nosleep", or "waiting" until the first tap), for tests and curious people. */
(function () {
  "use strict";
  var me = document.currentScript;
  var root = document.documentElement;
  if ("wakeLock" in navigator && window.isSecureContext) {
    var lock = null;
    var request = function () {
      if (lock || document.hidden) return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        root.dataset.awake = "wake-lock";
        l.addEventListener("release", function () { lock = null; });
      }).catch(function () { root.dataset.awake = "waiting"; });
    };
    request();
    document.addEventListener("visibilitychange", request);
    document.addEventListener("click", request);
    return;
  }
  var noSleep = null;
  var on = false;
  root.dataset.awake = "waiting";
  var enable = function () {
    if (on || !noSleep) return;
    on = true;
    Promise.resolve(noSleep.enable()).then(function () {
      root.dataset.awake = "nosleep";
    }).catch(function () { on = false; });
  };
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { on = false; root.dataset.awake = "waiting"; }
  });
  ["click", "touchend"].forEach(function (type) {
    document.addEventListener(type, enable, { capture: true });
  });
  var script = document.createElement("script");
  script.src = me.dataset.nosleep;
  script.onload = function () { noSleep = new window.NoSleep(); };
  document.head.appendChild(script);
})();
