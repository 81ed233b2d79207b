/* The digital game's page (/play/<slug>): small enhancements, the page works without them.
   - ol[data-animate]: the newest moves (li[data-new]) appear one after another (0.8 s
     apart) so you can follow the bots; "Show all at once" skips ahead.
   - hand cards (checkboxes): buttons with data-needs="1" (discard, lay off here) are
     enabled with exactly one card selected, data-needs="3" (lay down) with three or more;
     the discard button names the card.
   - a form is sent once: a second tap while it is on its way does nothing. */
(function () {
  "use strict";
  var list = document.querySelector("ol[data-animate]");
  if (list) {
    var items = Array.prototype.slice.call(list.querySelectorAll("li[data-new]"));
    var all = document.querySelector("[data-show-all]");
    var shown = 1;
    var timer = null;
    var finish = function () {
      items.forEach(function (li) { li.hidden = false; });
      if (all) all.hidden = true;
      if (timer) clearInterval(timer);
    };
    if (items.length > 1) {
      items.forEach(function (li, i) { li.hidden = i > 0; });
      if (all) { all.hidden = false; all.addEventListener("click", finish); }
      timer = setInterval(function () {
        if (shown >= items.length) { finish(); return; }
        items[shown].hidden = false;
        items[shown].classList.add("fresh");
        shown += 1;
      }, 800);
    }
  }
  var board = document.getElementById("board");
  if (!board) return;
  var picks = board.querySelectorAll("input.pick");
  var update = function () {
    var chosen = Array.prototype.filter.call(picks, function (p) { return p.checked; });
    board.querySelectorAll("button[data-needs]").forEach(function (b) {
      var need = Number(b.dataset.needs);
      b.disabled = need === 1 ? chosen.length !== 1 : chosen.length < need;
      if (b.dataset.verb) {
        var label = chosen.length === 1 ? board.querySelector("label[for='" + chosen[0].id + "']") : null;
        b.textContent = b.dataset.verb + (label ? " " + label.dataset.display : "");
      }
    });
  };
  board.addEventListener("change", update);
  update();
  document.querySelectorAll("form[method=post]").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (f.dataset.sending) { e.preventDefault(); return; }
      f.dataset.sending = "1";
    });
  });
})();
