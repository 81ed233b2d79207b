/* A finished game's "Share result" (templates/table/_result.html): the text goes to the
   phone's share sheet (navigator.share), else to the clipboard, else it is shown and
   selected for the phone's own Copy. <html data-share-ready> shows the button and hides
   the text until it is the way left (table.css), so without this script the text
   shows as it is. One click handler on the document, so a result that arrives with the
   page's live refresh or a save works too. */
(function () {
  "use strict";
  document.documentElement.dataset.shareReady = "";
  var show = function (text, said) {
    text.classList.add("open");
    text.focus();
    text.select();
    said.textContent = words("result_selected");
  };
  var copy = function (text, said) {
    if (!navigator.clipboard || !window.isSecureContext) { show(text, said); return; }
    navigator.clipboard.writeText(text.value).then(function () {
      said.textContent = words("result_copied");
    }, function () { show(text, said); });
  };
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-result]");
    if (!button) return;
    var text = document.getElementById(button.dataset.result);
    var said = button.parentNode.querySelector("[data-result-said]");
    if (!navigator.share) { copy(text, said); return; }
    navigator.share({ title: text.dataset.title, text: text.value }).catch(function (error) {
      if (!error || error.name !== "AbortError") copy(text, said);
    });
  });
})();
