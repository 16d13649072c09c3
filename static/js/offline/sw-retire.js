/* The worker /sw.js serves while offline play is turned off (CARO_SERVICE_WORKER=0, or no static
   manifest: DEBUG). A browser that installed the real worker before checks /sw.js again on its next
   navigation, gets this one, and it deletes the site's caches and unregisters itself: nothing kept
   from before can answer for the server afterwards. */
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("caro-")).map((name) => caches.delete(name)));
    await self.registration.unregister();
  })());
});
