// A player's "I am here" on a tournament's page (API.md, "A draw nobody can arrange, whoever
// holds the server's key"): as the page opens, this phone draws 32 fresh random bytes
// (crypto.getRandomValues, which plain HTTP has too) into the form's hidden "entropy", and
// adds them to the fields the form's signature covers (data-fields), so that sign.js signs
// check_in {tournament, round, entropy} for a player who holds keys as the form is sent.
// The bytes are drawn once per page: the same tap sent twice is the same check-in. Without
// this script the button stays disabled and the page says, in words, why.
(function () {
  "use strict";
  if (!window.crypto || typeof window.crypto.getRandomValues !== "function") return;
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  document.querySelectorAll("form[data-check-in]").forEach((form) => {
    const input = form.querySelector("input[name=entropy]");
    if (!input) return;
    const entropy = hex(window.crypto.getRandomValues(new Uint8Array(32)));
    input.value = entropy;
    if (form.dataset.act) {  // signed by sign.js: the entropy is one of the act's fields
      const fields = JSON.parse(form.dataset.fields || "{}");
      fields.entropy = entropy;
      form.dataset.fields = JSON.stringify(fields);
    }
    form.querySelectorAll("button[disabled]").forEach((button) => { button.disabled = false; });
  });
})();
