// Keeps a hand's live part (#live) up to date on every phone at the table: every few
// seconds it asks for it again with the version it shows (If-None-Match); the server
// answers 304 until the group's log has moved. A pick in progress (cards ticked but not
// sent) or text typed in a field is never thrown away: the refresh waits until it is sent
// or cleared.
"use strict";

(function () {
  const live = document.getElementById("live");
  if (!live || !window.fetch) return;
  let version = live.dataset.version;
  // Busy: cards ticked but not sent, a field being typed in, or text typed and left there
  // (a dispute's reason, when the keyboard was closed): a refresh would throw it away.
  const typed = () => [...live.querySelectorAll("input[type=text], input:not([type]), textarea")]
    .some((field) => field.value !== field.defaultValue);
  const busy = () => live.querySelector("form.picker input:checked") !== null || typed() ||
    live.contains(document.activeElement) && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);

  async function refresh() {
    if (document.hidden || busy()) return;
    try {
      const answer = await fetch(live.dataset.live, {
        credentials: "same-origin", headers: { "If-None-Match": `"${version}"` } });
      if (answer.status !== 200) return;
      const tag = answer.headers.get("ETag");
      if (tag) version = tag.replace(/"/g, "");
      live.innerHTML = await answer.text();
    } catch (e) {
      // offline for a moment: the next round asks again
    }
  }
  setInterval(refresh, 2000);
  document.addEventListener("visibilitychange", refresh);
})();
