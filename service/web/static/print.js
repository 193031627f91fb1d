// The print button of the seat plan and the standings: shown only where this script runs,
// it opens the browser's print dialog (the page's print style makes it A4, without links
// and buttons).
"use strict";

(function () {
  document.querySelectorAll("button[data-print]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  });
})();
