// The new-fleet form: the Variant list shows only the chosen faction's variants. Without
// JavaScript every faction's variants are listed, grouped by faction, and the server refuses a
// variant of another faction with a message (fleets/forms.py).
(function () {
  "use strict";
  var faction = document.getElementById("id_faction");
  var variant = document.getElementById("id_variant");
  if (!faction || !variant) return;

  function filter() {
    var chosen = faction.options[faction.selectedIndex];
    var name = chosen ? chosen.text : "";
    variant.querySelectorAll("optgroup").forEach(function (group) {
      var mine = group.label === name;
      group.hidden = !mine;
      group.disabled = !mine;
    });
    var picked = variant.options[variant.selectedIndex];
    if (picked && picked.parentNode.tagName === "OPTGROUP" && picked.parentNode.disabled) {
      variant.value = "";
    }
  }

  faction.addEventListener("change", filter);
  filter();
})();
