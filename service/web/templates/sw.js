// bitka's service worker (service/web/offline.py), served from the site's root so that its
// scope is the whole site. It keeps, in a cache of this version, the files every page shares
// and nothing else: the styles, the scripts, the icons, the manifest and the page that says
// there is no network. A page is always asked of the network, and never kept: only when the
// network does not answer does the phone show the kept page that says so. A form sent, a
// page's live part, JSON and the API go to the network untouched, so nothing a member is
// shown, nothing sealed and no token is ever written to a cache.
"use strict";

const VERSION = {{ version | tojson }};
const CACHE = `bitka-${VERSION}`;
const KEPT = {{ kept | tojson }};
const OFFLINE = {{ offline | tojson }};
const KEEPS = new Set(KEPT);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {  // an earlier version's cache goes
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("bitka-") && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

async function kept(path, request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path, { ignoreVary: true })) || fetch(request);
}

async function page(event, url) {
  try {
    const answer = await fetch(event.request);
    if (url.pathname.startsWith("/language/")) {  // another language chosen: the kept page speaks it too
      event.waitUntil(caches.open(CACHE).then((cache) => cache.add(OFFLINE)).catch(() => {}));
    }
    return answer;
  } catch (e) {  // no network, or no bitka answering: the kept page says so
    return (await caches.open(CACHE)).match(OFFLINE, { ignoreVary: true });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (KEEPS.has(url.pathname) && !url.search) {
    event.respondWith(kept(url.pathname, request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  }
});
