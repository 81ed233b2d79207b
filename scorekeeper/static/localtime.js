/* Times in the phone's own time zone. The server writes every time as
   <time datetime="2026-11-23T19:04:00Z" data-local="datetime|time">… UTC</time>;
   this replaces the text with the phone's local time (Intl.DateTimeFormat, in the page's
   language: <html lang>), and again for times that arrive later in a refreshed fragment. */
(function () {
  "use strict";
  var formats = {
    datetime: { dateStyle: "medium", timeStyle: "short" },
    time: { timeStyle: "medium" }
  };
  var format = function (style) {
    try { return new Intl.DateTimeFormat(document.documentElement.lang || undefined, style); }
    catch (e) { return new Intl.DateTimeFormat(undefined, style); }
  };
  var localise = function (root) {
    Array.prototype.forEach.call(root.querySelectorAll("time[data-local]"), function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      var style = formats[t.dataset.local] || formats.datetime;
      t.textContent = format(style).format(when);
      t.title = when.toISOString();
      t.removeAttribute("data-local");
    });
  };
  localise(document);
  new MutationObserver(function () { localise(document); })
    .observe(document.body, { childList: true, subtree: true });
})();
