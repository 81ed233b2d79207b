/* The share page: a Copy button for each link (the Clipboard API in a secure context,
   else selecting the text and the browser's copy command) and a Share button where the
   phone has the Web Share API (navigator.share, secure contexts only). Both buttons are
   hidden in the page and shown here, so without JavaScript only the links and QR codes
   remain. [data-copy=ID] copies the input #ID; [data-share=URL] shares URL. */
(function () {
  "use strict";
  var say = function (button, words) {
    var status = button.closest("section").querySelector("[data-copied]");
    if (status) status.textContent = words;
  };
  var fallback = function (input) {
    input.focus();
    input.select();
    return document.execCommand && document.execCommand("copy");
  };
  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (button) {
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var copied = function () { say(button, window.words("share_copied")); };
      var manual = function () {
        if (fallback(input)) copied();
        else say(button, window.words("share_selected"));
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(copied, manual);
      } else {
        manual();
      }
    });
  });
  if (!navigator.share) return;
  Array.prototype.forEach.call(document.querySelectorAll("[data-share]"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share })
        .catch(function () {});
    });
  });
})();
