// Makes bitka installable and able to open without a network: registers the service worker
// (served from the site's root, so its scope is the whole site; service/web/offline.py).
// A browser offers service workers only in a secure context (HTTPS, or this machine's own
// loopback address): on a hall's network served over plain HTTP there is none, and nothing
// is missing but the installed app (the taps a phone makes offline are kept by static/taps.js).
"use strict";

(function () {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // refused (private browsing, a policy): the pages work as they do without it
  });
})();
