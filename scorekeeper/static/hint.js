/* The play page's Hint button (play/hints.py): asks the server what the expert bot would
   do now and why (GET, nothing is played) and shows it beside the button. Without
   JavaScript the button is a link to the page with the hint written in. The board is
   swapped after every move, so a hint never outlives the position it was given for. */
(function () {
  "use strict";
  var show = function (box, data) {
    box.textContent = "";
    if (data.error) { box.textContent = data.error; return; }
    var lead = document.createElement("b");
    lead.textContent = "The expert's move: ";
    box.appendChild(lead);
    box.appendChild(document.createTextNode(data.why));
    (data.rules || []).forEach(function (id) {
      var link = document.createElement("a");
      link.className = "rule-id";
      link.href = "/rules#" + encodeURIComponent(id);
      link.textContent = id;
      box.appendChild(document.createTextNode(" "));
      box.appendChild(link);
    });
    if (data.samples) {
      var detail = document.createElement("small");
      detail.className = "muted";
      detail.title = "weighed over " + data.samples + " sampled deals";
      detail.textContent = " (" + data.samples + " deals tried)";
      box.appendChild(detail);
    }
  };
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-hint]") : null;
    if (!link) return;
    var box = link.parentNode.querySelector("[data-hint-text]");
    if (!box || !window.fetch) return;
    event.preventDefault();
    box.hidden = false;
    box.textContent = "Thinking…";
    link.setAttribute("aria-busy", "true");
    fetch(link.dataset.hint, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) { show(box, data); })
      .catch(function () { box.textContent = "No hint: the server could not be reached."; })
      .then(function () { link.removeAttribute("aria-busy"); });
  });
})();
