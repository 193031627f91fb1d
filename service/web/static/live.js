// Keeps a page's live part (#live) up to date: a hand's on every phone at the table, a
// tournament's tables and standings on the organizer's screen and the watch page: every few
// seconds it asks for it again with the version it shows (If-None-Match); the server
// answers 304 until the group's log has moved. A pick in progress (cards ticked but not
// sent), text typed in a field or a call opened to be confirmed is never thrown away: the
// new part is kept, the phone says the table moved on, and it shows once that is sent,
// cleared or closed. A refusal this phone was shown stays on it until the phone acts again
// (a new page, after its next tap). A live part that is gone (410: a watch link ended) loads
// the page again, which says why.
"use strict";

(function () {
  const live = document.getElementById("live");
  if (!live || !window.fetch) return;
  let version = live.dataset.version;
  // Busy: cards ticked but not sent, a field being typed in, or text typed and left there
  // (a dispute's reason, when the keyboard was closed): a refresh would throw it away.
  const typed = () => [...live.querySelectorAll("input[type=text], input:not([type]), textarea")]
    .some((field) => field.value !== field.defaultValue);
  const busy = () => live.querySelector("form.picker input:checked, details.call[open]") !== null || typed() ||
    live.contains(document.activeElement) && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);

  const news = document.getElementById("live-news");
  let held = null;  // the part as the log has it now, kept while this phone is busy

  function show(text, tag) {
    const refused = live.querySelector(".problem");
    live.innerHTML = text;
    if (tag) version = tag;
    held = null;
    if (news) news.textContent = "";
    if (refused && !live.querySelector(".problem")) {
      const heading = live.querySelector("#now-h");
      if (heading) heading.after(refused); else live.prepend(refused);
    }
  }

  async function refresh() {
    if (document.hidden) return;
    if (held && !busy()) {
      show(held.text, held.tag);
      return;
    }
    try {
      const answer = await fetch(live.dataset.live, {
        credentials: "same-origin", headers: { "If-None-Match": `"${(held && held.tag) || version}"` } });
      if (answer.status === 410) {
        window.location.reload();
        return;
      }
      if (answer.status !== 200) return;
      const tag = (answer.headers.get("ETag") || "").replace(/"/g, "") || null;
      const text = await answer.text();
      if (busy()) {  // kept for when this phone is done, and said meanwhile
        held = { text, tag };
        if (news) news.textContent = window.bitkaSay("moved_meanwhile");
        return;
      }
      show(text, tag);
    } catch (e) {
      // offline for a moment: the next round asks again
    }
  }
  setInterval(refresh, 2000);
  document.addEventListener("visibilitychange", refresh);
  document.addEventListener("bitka:caught-up", refresh);  // taps kept while offline went (static/taps.js)
})();
