// The copy buttons of the settle-up list (an IBAN, a BLIK phone, a PIX "copia e cola"): each
// button's data-copy goes to the clipboard, and the button says so (data-copied) for a moment.
// Without a clipboard the buttons stay hidden: the text is on the page to select.
"use strict";

(function () {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(button.dataset.copy);
        button.textContent = button.dataset.copied;
        setTimeout(() => { button.textContent = label; }, 2000);
      } catch (e) {
        // a refused clipboard: the text stays on the page to select by hand
      }
    });
  }
})();
