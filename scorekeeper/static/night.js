/* A game's night (scorekeeper/table/nights.py): when #live's content is refreshed
   (static/table.js's event "sk:live") and carries a [data-next-game] link, the night's
   next game has started: the page moves to it by itself (the TV to the next game's TV
   view, a watching phone to its view link; the server chose the URL). A page opened on
   an earlier game stays there: only a refresh follows. */
(function () {
  "use strict";
  document.addEventListener("sk:live", function () {
    var next = document.querySelector("#live [data-next-game]");
    if (next) window.location.assign(next.getAttribute("href"));
  });
})();
