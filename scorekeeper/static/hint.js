/* The play page's Hint button (play/hints.py): asks the server what the expert bot would
   do now and why (GET, nothing is played) and shows it beside the button. Without
   JavaScript the button is a link to the page with the hint written in. The expert thinks
   in a worker of the server: while it does, the answer is 202 ("thinking", Retry-After)
   and the button asks again after that many seconds (at most MAX_ASKS times); 429 says
   this phone asked for too much at once. The board is swapped after every move, so a
   hint never outlives the position it was given for. */
(function () {
  "use strict";
  var MAX_ASKS = 60;
  var show = function (box, data) {
    box.textContent = "";
    if (data.error) { box.textContent = data.error; return; }
    var lead = document.createElement("b");
    lead.textContent = words("hint_lead") + " ";
    box.appendChild(lead);
    box.appendChild(document.createTextNode(data.why));
    var rules = data.rules || [];  /* beside the sentence, as the page writes them: (rule T2) */
    if (rules.length) {
      var beside = document.createElement("small");
      /* "(rule %(rules)s)": the links go where the sentence names them */
      var around = words("hint_rules", { count: rules.length }).split("%(rules)s");
      beside.appendChild(document.createTextNode(around[0]));
      rules.forEach(function (id, i) {
        var link = document.createElement("a");
        link.className = "rule-id";
        link.href = "/rules#" + encodeURIComponent(id);
        link.textContent = id;
        if (i) beside.appendChild(document.createTextNode(", "));
        beside.appendChild(link);
      });
      beside.appendChild(document.createTextNode(around.slice(1).join("")));
      box.appendChild(document.createTextNode(" "));
      box.appendChild(beside);
    }
    if (data.samples) {
      var detail = document.createElement("small");
      detail.className = "muted";
      detail.title = words("hint_weighed", { count: data.samples });
      detail.textContent = " " + words("hint_tried", { count: data.samples });
      box.appendChild(detail);
    }
  };
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-hint]") : null;
    if (!link) return;
    var box = link.parentNode.querySelector("[data-hint-text]");
    if (!box || !window.fetch) return;
    event.preventDefault();
    if (link.getAttribute("aria-busy") === "true") return;
    box.hidden = false;
    box.textContent = words("hint_thinking");
    link.setAttribute("aria-busy", "true");
    var done = function () { link.removeAttribute("aria-busy"); };
    var ask = function (left) {
      fetch(link.dataset.hint, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          return response.json().then(function (data) { return { response: response, data: data }; });
        })
        .then(function (answer) {
          if (answer.response.status === 202 && left > 0 && box.isConnected) {
            var wait = Number(answer.response.headers.get("Retry-After")) || 1;
            window.setTimeout(function () { ask(left - 1); }, Math.min(wait, 5) * 1000);
            return;
          }
          if (answer.response.status === 202) answer.data = { error: words("hint_still") };
          show(box, answer.data);
          done();
        })
        .catch(function () { box.textContent = words("hint_unreached"); done(); });
    };
    ask(MAX_ASKS);
  });
})();
