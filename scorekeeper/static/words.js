/* The scripts' words in the page's language. The server hands them over as JSON in
   <html data-words> (scorekeeper/languages/script_words.py; the CSP forbids inline
   scripts). words(key, figures) gives the sentence for key with each %(name)s replaced by
   figures[name]; a plural entry ({zero, one, other}) is chosen by figures.count. An
   unknown key gives the key itself, so a missing entry shows and a test finds it.
   Loaded (deferred) in <head>, so it runs before every other deferred script. */
(function () {
  "use strict";
  var table = null;
  var load = function () {
    if (table) return table;
    try { table = JSON.parse(document.documentElement.dataset.words || "{}"); }
    catch (e) { table = {}; }
    return table;
  };
  var fill = function (text, figures) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return figures && name in figures ? String(figures[name]) : whole;
    });
  };
  window.words = function (key, figures) {
    var entry = load()[key];
    if (entry === undefined) return key;
    if (typeof entry !== "string") {
      var n = figures && typeof figures.count === "number" ? figures.count : 2;
      entry = n === 0 ? entry.zero : n === 1 ? entry.one : entry.other;
    }
    return fill(entry, figures);
  };
  window.words.language = function () { return document.documentElement.lang || "en"; };
})();
