/* House-rule fields of a new-game form (templates/table/new.html, play/index.html):
   each field carries data-as-preset, {preset name: the preset's own value in words}.
   The empty choice "as the preset" (or a number box's placeholder) is rewritten to
   "as the preset: runs of 3 or more" for the preset chosen in the form's Preset / Rules
   select, and again whenever that choice changes. */
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
    var preset = form.querySelector("select[name=preset]");
    var fields = form.querySelectorAll("[data-as-preset]");
    if (!preset || !fields.length) return;
    var show = function () {
      Array.prototype.forEach.call(fields, function (field) {
        var values = JSON.parse(field.dataset.asPreset);
        var value = values[preset.value];
        var text = value === undefined
          ? window.words("house_as_preset")
          : window.words("house_as_preset_value", { value: value });
        if (field.tagName === "SELECT") {
          var empty = field.querySelector("option[value='']");
          if (empty) empty.textContent = text;
        } else {
          field.placeholder = text;
        }
      });
    };
    preset.addEventListener("change", show);
    show();
  });
})();
