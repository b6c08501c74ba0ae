// The static site's service worker: after one visit the site loads and plays with no network.
// The build (scripts/build-site.sh) writes files.json, the list of every file of the site with
// a version made from their contents, and stamps that version here, so a new build is a new
// worker that caches the new files and drops the old ones. Requests are answered from the cache
// first, the network only for what the cache lacks. moo serve never registers it.
const VERSION = "unbuilt";
const CACHE = `moo-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const list = await (await fetch("files.json", { cache: "no-cache" })).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(list.files.map((f) => new Request(f, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A page's address carries its state after '#', which never reaches here; "./" is the page.
    const hit = await cache.match(event.request, { ignoreSearch: true });
    if (hit) return hit;
    return fetch(event.request);
  })());
});
