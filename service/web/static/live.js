// Keeps a page's live part (#live) up to date: a hand's on every phone at the table, a
// table's score and its next deal, the group's balances, a tournament's tables and standings
// on the organizer's screen and the watch page. It asks for the part with the version it
// shows (If-None-Match) and "Prefer: wait=25": the server answers as soon as something the
// part shows has changed, or with a 304 after 25 s, and the page asks again at once. No
// timer decides when a phone learns it is its turn; only a failed request waits before the
// next (1 s, then longer, up to 15 s). A hidden page stops asking and asks again once shown.
//
// A pick in progress (cards ticked but not sent), text typed in a field or a call opened to
// be confirmed is never thrown away: the new part is kept, the phone says the table moved on,
// and it shows once that is sent, cleared or closed. A refusal this phone was shown stays on
// it until the phone acts again (a new page, after its next tap). A live part that is gone
// (410: a watch link ended) loads the page again, which says why. A part that names the next
// hand to follow (a[data-follow]: the table dealt again, or dealt a hand whose cards this
// phone's player enters) takes the phone there when it appears, unless the phone is busy; so
// does a page this phone loaded again after its own tap. A way shown when the page loaded is
// not followed: a player who went back from a hand stays where they went. What waits for the reader (#waiting[data-refresh]) is drawn again with each change.
// A fold the reader keeps closed (a hand's log) is not drawn again with each card: the phone
// keeps the copy it has, and asks for the fold as it is now when the reader opens it.
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
  let asking = null;  // the request waiting for news now (an AbortController)
  let failures = 0;

  // Where the part leads (a[data-follow]) as the page was loaded: a phone is taken only to a
  // hand that appears while it watches (a table dealt again), never back to one it left.
  const leads = () => [...live.querySelectorAll("a[data-follow]")].map((a) => a.href);
  let led = leads();

  // Go where the part leads, but not to a place in ``known`` (what the part led to before);
  // false when the phone is busy and stays, so that the next part still counts the way as new.
  function follow(known) {
    const next = leads().find((href) => !known || !known.includes(href));
    if (!next) return true;
    if (busy()) return false;
    window.location.assign(next);
    return true;
  }

  async function waiting() {
    const part = document.getElementById("waiting");
    if (!part || !part.dataset.refresh || part.querySelector("form[data-sending]")) return;  // its tap is going
    try {
      const answer = await fetch(part.dataset.refresh, { credentials: "same-origin" });
      if (answer.status === 200) part.innerHTML = await answer.text();
    } catch (e) {
      // the next change draws it again
    }
  }

  // The folds the reader has open (a hand's log): the server draws their inside only for these.
  const opened = () => [...live.querySelectorAll("details[open][id]")].map((d) => d.id);

  function show(text, tag) {
    const refused = live.querySelector(".problem");
    const open = opened();
    const drawn = document.createElement("template");
    drawn.innerHTML = text;
    // A fold's inside the server left out (it was folded here): this phone keeps what it had,
    // marked stale, and asks for it anew when the reader opens it.
    drawn.content.querySelectorAll("[data-fold][data-left-out]").forEach((slot) => {
      const had = live.querySelector(`[data-fold="${slot.dataset.fold}"]:not([data-left-out])`);
      if (had) { had.dataset.stale = ""; slot.replaceWith(had); }
    });
    live.replaceChildren(drawn.content);
    open.forEach((id) => { const d = document.getElementById(id); if (d && live.contains(d)) d.open = true; });
    if (tag) version = tag;
    held = null;
    if (news) news.textContent = "";
    if (refused && !live.querySelector(".problem")) {
      const heading = live.querySelector("#now-h");
      if (heading) heading.after(refused); else live.prepend(refused);
    }
    waiting();
    const before = led;
    led = leads();
    if (!follow(before)) led = before;
  }

  function settle() {  // this phone is no longer busy: what came meanwhile shows
    if (held && !busy()) show(held.text, held.tag);
  }

  async function ask(anew) {
    if (document.hidden || asking) return;
    const controller = new AbortController();
    asking = controller;
    let again = 0;
    const address = new URL(live.dataset.live, window.location.href);
    opened().forEach((id) => address.searchParams.append("open", id));
    // anew: a fold just opened holds what it had when it was folded: drawn again, news or not
    const headers = anew ? {} : { "If-None-Match": `"${(held && held.tag) || version}"`, "Prefer": "wait=25" };
    try {
      const answer = await fetch(address, { credentials: "same-origin", signal: controller.signal, headers });
      if (answer.status === 410) {
        window.location.reload();
        return;
      }
      const tag = (answer.headers.get("ETag") || "").replace(/"/g, "") || null;
      if (answer.status === 304) {
        if (tag && !held) version = tag;  // nothing it shows moved: the group's newer version is its own
        // A server with no thread to spare for waiting answers at once: then ask every 2 s.
        if (!answer.headers.get("Preference-Applied")) again = 2000;
      } else if (answer.status === 200) {
        const text = await answer.text();
        if (busy()) {  // kept for when this phone is done, and said meanwhile
          held = { text, tag };
          if (news) news.textContent = window.bitkaSay("moved_meanwhile");
        } else {
          show(text, tag);
        }
      } else {
        throw new Error(`live part: ${answer.status}`);
      }
      failures = 0;
    } catch (e) {
      if (controller.signal.aborted) return;  // asked again meanwhile (restart), or the page went away
      failures += 1;  // offline for a moment, or the server restarting: ask again a little later
      again = Math.min(1000 * 2 ** (failures - 1), 15000);
    } finally {
      if (asking === controller) asking = null;
    }
    if (!controller.signal.aborted) setTimeout(ask, again);
  }

  function restart(anew) {  // ask now, whatever was being waited for
    if (asking) asking.abort();
    asking = null;
    settle();
    ask(anew === true);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      if (asking) asking.abort();
      asking = null;
    } else {
      restart();
    }
  });
  // This phone's own tap ended the hand (the page it was on loaded again) while another phone
  // dealt: it goes on as if it had been watching. A hand opened from elsewhere stays put.
  try {
    if (document.referrer && new URL(document.referrer).pathname === window.location.pathname) follow();
  } catch (e) {
    // no referrer to read
  }
  document.addEventListener("bitka:caught-up", restart);  // taps kept while offline went (static/taps.js)
  live.addEventListener("change", () => setTimeout(settle, 0));  // a tick cleared, a call closed
  live.addEventListener("focusout", () => setTimeout(settle, 0));
  live.addEventListener("toggle", (event) => {  // does not bubble: caught on its way down
    const fold = event.target;
    if (fold.open && fold.querySelector("[data-fold][data-stale]")) restart(true);  // its inside, as it is now
    else setTimeout(settle, 0);
  }, true);
  ask();
})();
