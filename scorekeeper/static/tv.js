/* The TV view (templates/table/tv.html): its [data-fullscreen] button shows where the
   Fullscreen API is allowed and puts the whole page on the screen, or back. The refresh
   is static/table.js's, the screen kept awake by static/awake.js. */
(function () {
  "use strict";
  var button = document.querySelector("[data-fullscreen]");
  if (!button || !document.fullscreenEnabled) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    if (document.fullscreenElement) document.exitFullscreen().catch(function () {});
    else document.documentElement.requestFullscreen().catch(function () {});
  });
  document.addEventListener("fullscreenchange", function () {
    button.textContent = words(document.fullscreenElement ? "tv_leave_full_screen" : "tv_full_screen");
  });
})();
