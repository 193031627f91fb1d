// Keeps a hand's live part (#live) up to date on every phone at the table: every few
// seconds it asks for it again with the version it shows (If-None-Match); the server
// answers 304 until the group's log has moved. A pick in progress (cards ticked but not
// sent) is never thrown away: the refresh waits until it is sent or cleared.
"use strict";

(function () {
  const live = document.getElementById("live");
  if (!live || !window.fetch) return;
  let version = live.dataset.version;
  const busy = () => live.querySelector("form.picker input:checked") !== null ||
    live.contains(document.activeElement) && document.activeElement.tagName === "INPUT";

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
