/* Light, dark or the phone's own setting. Loaded in <head> without defer, so the page is
   painted in the chosen theme from the start: sets <html data-theme="light|dark"> from
   localStorage "theme" (absent: "system", no attribute, and style.css follows the
   phone's prefers-color-scheme). Then wires the footer's switches: the language's form
   is sent as soon as its choice changes; the theme's (select#theme): a change
   is kept on this phone and applied at once; the switch shows only with scripts on.
   Tells the service worker (static/sw.js) the reader's language and its offline sentence,
   so kept pages follow the language switch and read offline in the chosen language. */
(function () {
  "use strict";
  var root = document.documentElement;
  var read = function () {
    try { return localStorage.getItem("theme") || "system"; } catch (e) { return "system"; }
  };
  var apply = function (choice) {
    if (choice === "light" || choice === "dark") root.dataset.theme = choice;
    else delete root.dataset.theme;
  };
  apply(read());
  var tellWorker = function (choice) {
    if (!("serviceWorker" in navigator) || !window.isSecureContext || !choice) return;
    if (choice.replace("_", "-") !== root.lang) return;  /* a TV's own language: not the reader's */
    navigator.serviceWorker.ready.then(function (reg) {
      if (!reg.active) return;
      reg.active.postMessage({
        type: "language",
        lang: choice.replace("_", "-"),
        offline: window.words ? window.words("offline_unopened") : ""
      });
    }).catch(function () {});
  };
  document.addEventListener("DOMContentLoaded", function () {
    var language = document.querySelector(".language-switch select");
    if (language) {
      var send = language.form.querySelector("button");
      if (send) { send.hidden = true; send.style.display = "none"; }  /* a button's display beats [hidden] */
      language.addEventListener("change", function () { language.form.submit(); });
    }
    tellWorker(language && language.value);
    var pick = document.getElementById("theme");
    if (!pick) return;
    pick.value = read();
    pick.closest("[hidden]") && pick.closest("[hidden]").removeAttribute("hidden");
    pick.addEventListener("change", function () {
      try { localStorage.setItem("theme", pick.value); } catch (e) { /* private mode: this page only */ }
      apply(pick.value);
    });
  });
})();
