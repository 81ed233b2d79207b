/* Checker pages: keep the "laid by" player lists in step with the names typed above them,
   so a meld can be given to "Ann" before the form is sent. Without script the lists show
   the names from the last time the form was sent. */
(function () {
  "use strict";
  document.querySelectorAll("input[data-seat]").forEach(function (input) {
    input.addEventListener("input", function () {
      var seat = input.dataset.seat;
      var name = input.value.trim() || input.placeholder;
      document.querySelectorAll("select[data-seats] option[value='" + seat + "']").forEach(function (o) {
        o.textContent = name;
      });
      document.querySelectorAll("[data-seat-name='" + seat + "']").forEach(function (s) {
        s.textContent = name;
      });
    });
  });
})();
