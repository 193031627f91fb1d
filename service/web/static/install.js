// Makes bitka installable and able to open without a network: registers the service worker
// (served from the site's root, so its scope is the whole site; service/web/offline.py), and
// says on the page how far it got: <html data-installed="kept"> once the worker keeps its
// files, "serving" once it serves this page (from the next page opened, when it was installed
// while this one was loading). A browser offers service workers only in a secure context
// (HTTPS, or this machine's own loopback address): on a hall's network served over plain HTTP
// there is none, and nothing is missing but the installed app (the taps a phone makes offline
// are kept by static/taps.js).
"use strict";

(function () {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const html = document.documentElement;
  const served = () => {
    if (navigator.serviceWorker.controller) html.dataset.installed = "serving";
  };
  navigator.serviceWorker.addEventListener("controllerchange", served);
  navigator.serviceWorker.ready.then(() => {
    if (!html.dataset.installed) html.dataset.installed = "kept";
    served();
  });
  served();
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // refused (private browsing, a policy): the pages work as they do without it
  });
})();
