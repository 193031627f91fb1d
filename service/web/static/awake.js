// Keeps the phone's screen on while its player sits in a hand in play (the hand's live part
// shows "Your cards" then): a screen that sleeps between two tricks is a phone to unlock at
// every turn. The Screen Wake Lock is asked for as the hand page opens or the live part
// shows this player in a hand, let go when the hand ends, and asked for again when the page
// is shown again (a browser lets it go by itself when the page is hidden). Where the browser
// has none (a hall's network over plain HTTP is no secure context), a sentence says so.
"use strict";

(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const say = (key, values) => window.bitkaSay(key, values);  // static/words.js
  let lock = null, asking = false;
  const playing = () => live.querySelector(".mine") !== null;

  function note(key) {
    let said = document.getElementById("awake");
    if (!key) {
      if (said) said.remove();
      return;
    }
    if (!said) {
      said = document.createElement("p");
      said.id = "awake";
      said.className = "hint";
      live.before(said);
    }
    said.textContent = say(key);
  }

  async function keep() {
    if (!playing() || document.hidden) {
      note(null);
      const held = lock;
      lock = null;
      live.dataset.awake = "off";
      if (held) await held.release().catch(() => {});
      return;
    }
    if (lock || asking) return;
    if (!("wakeLock" in navigator)) {
      note(window.isSecureContext ? "awake_not_here" : "awake_needs_https");
      live.dataset.awake = "unavailable";
      return;
    }
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
        if (live.dataset.awake === "on") live.dataset.awake = "off";
      });
      live.dataset.awake = "on";
      note(null);
    } catch (e) {  // refused (a battery saver, a policy): the player sets the screen themselves
      note("awake_not_here");
      live.dataset.awake = "refused";
    } finally {
      asking = false;
    }
  }

  new MutationObserver(keep).observe(live, { childList: true });
  document.addEventListener("visibilitychange", keep);
  if (document.readyState !== "complete") {  // static/words.js, a script later on the page, says the sentences
    document.addEventListener("DOMContentLoaded", keep);
  } else {
    keep();
  }
})();
