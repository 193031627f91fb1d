// Opening a table (service/web/templates/new_table.html): of the rules each game asks beside its
// way of playing (data-game), only those of the game chosen are shown, and sent. Without this
// script every game's are shown, and bitka reads those of the game chosen alone.
"use strict";

(function () {
  const form = document.querySelector("form[data-new-table]");
  if (!form) return;
  const boxes = [...form.querySelectorAll("[data-game]")];
  function chosen() {
    const preset = form.querySelector("input[name=preset]:checked");
    const game = preset ? preset.value.split(":")[0] : "";
    boxes.forEach((box) => {
      const yes = box.dataset.game === game;
      box.hidden = !yes;
      box.style.display = yes ? "" : "none";  // [hidden] alone loses to the style a fieldset has
      box.querySelectorAll("input").forEach((input) => { input.disabled = !yes; });
    });
  }
  form.addEventListener("change", (event) => { if (event.target.name === "preset") chosen(); });
  chosen();
})();
