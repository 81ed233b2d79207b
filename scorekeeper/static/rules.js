/* Rules reference: filter the rows as you type in the "Find a rule" box. The same box
   submits ?q=... to the server when script is off. */
(function () {
  "use strict";
  var box = document.getElementById("q");
  if (!box) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("section.rule"));
  var heads = Array.prototype.slice.call(document.querySelectorAll("h2.group"));
  var found = document.getElementById("found");
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row, i) {
      var hit = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      row.hidden = !hit;
      if (hit) shown += 1;
    });
    heads.forEach(function (h) {
      var el = h.nextElementSibling, any = false;
      while (el && el.tagName !== "H2") { if (el.matches("section.rule") && !el.hidden) any = true; el = el.nextElementSibling; }
      h.hidden = !any;
    });
    found.textContent = words.length
      ? window.words("rules_rows_match", { count: shown, total: rows.length })
      : "";
  }
  box.addEventListener("input", apply);
})();
