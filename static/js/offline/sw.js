/* The site's service worker. Served at /sw.js (root scope) by caro.offline.views.service_worker as
   `self.CARO_OFFLINE = {...}` (what to keep, the version; caro.offline.precache), then
   sw-logic.js (self.CaroSW), then this file.

   - install: keeps every static file of the version (hashed names; a copy an older version already
     holds is reused, not downloaded again), the pages rendered in the visitor's language (home, the
     on-device play pages, the JavaScript catalogue, the offline page) and, as far as they come, the
     guides and the manifest; then takes over at once (skipWaiting): the next navigation of every
     tab is served by the new version.
   - activate: deletes the caches of every other version, turns on navigation preload, and takes
     control of the pages already open (the first visit's page is controlled without a reload).
   - fetch: static files cache first; the kept pages network first (their copy when the network
     fails or is slower than CARO_OFFLINE.pageTimeoutMs); any other page of the site from the
     network, and the offline page when that fails. Everything else is not touched.
   - message {type: "visitor", lang, key}: every page says which language the visitor reads (the
     head tag's data-visitor-language) and a digest of the CSRF cookie (it changes when the visitor
     logs in); when either changes, the visitor-language pages are fetched again, so the pages
     kept for offline use are in the visitor's language, with the visitor's header and valid
     form tokens. */
"use strict";

const CONFIG = self.CARO_OFFLINE;
const SW = self.CaroSW;
const ROUTES = SW.buildRoutes(CONFIG);
const NAMES = SW.cacheNames(CONFIG.version);
/** Where the worker's state (the visitor's language) is kept, in the STATE_CACHE. */
const STATE_KEY = "/__caro-offline/state";
/** How many files the install fetches at once. */
const PARALLEL_FETCHES = 4;

let stateNow = null;
let refreshing = null;

self.addEventListener("install", (event) => event.waitUntil(install()));
self.addEventListener("activate", (event) => event.waitUntil(activate()));
self.addEventListener("fetch", onFetch);
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "visitor") event.waitUntil(onVisitor(data.lang, data.key || ""));
});

async function install() {
  await keepStaticFiles();
  await refreshVisitorPages();
  await keepFixedPages();
  await self.skipWaiting();
}

async function activate() {
  const stale = SW.staleCaches(await caches.keys(), CONFIG.version);
  await Promise.all(stale.map((name) => caches.delete(name)));
  if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
  await self.clients.claim();
}

/** Run `task` on every item, at most `limit` at a time; rejects with the first failure. */
async function eachLimited(items, limit, task) {
  const queue = [...items];
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    while (queue.length) await task(queue.shift());
  });
  await Promise.all(workers);
}

/** A response the cache can hold and a navigation may be answered with (a redirected response
    may not answer a navigation: its body is copied into a plain one). */
async function plain(response) {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function keepStaticFiles() {
  const cache = await caches.open(NAMES.static);
  await eachLimited(ROUTES.staticUrls, PARALLEL_FETCHES, async (url) => {
    if (await cache.match(url)) return; // an interrupted install already kept it
    // A hashed name is its content: the copy an older version kept is the same file.
    let response = await caches.match(url, { ignoreVary: true });
    if (!response) {
      response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
    }
    await cache.put(url, await plain(response));
  });
}

/** Fetch the visitor-language pages again (with the visitor's cookies: they come in the visitor's
    language) and keep them under that language. Required at install: without them nothing works
    offline. One refresh at a time. */
function refreshVisitorPages() {
  refreshing = refreshing || (async () => {
    try {
      let language = null;
      await eachLimited(ROUTES.visitorPages, PARALLEL_FETCHES, async (page) => {
        const response = await fetch(page.url, { credentials: "same-origin", cache: "no-store" });
        if (!response.ok) throw new Error(`${page.url}: ${response.status}`);
        language = (await keepPage(page, response)) || language;
      });
      if (language) await setState({ language });
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The guides and the manifest: as many as come (a guide that fails is fetched on its next visit). */
async function keepFixedPages() {
  await eachLimited(ROUTES.fixedPages, PARALLEL_FETCHES, async (page) => {
    try {
      const response = await fetch(page.url, { credentials: "same-origin", cache: "no-store" });
      if (response.ok) await keepPage(page, response);
    } catch (error) {
      // kept on its next visit
    }
  });
}

/** Keep `response` as `page`'s copy; returns the visitor language it was rendered in (visitor-
    language pages), else null. */
async function keepPage(page, response) {
  let cacheName = NAMES.pages;
  let language = null;
  if (page.visitor) {
    language = SW.primaryLanguage(response.headers.get("Content-Language"), CONFIG.languages) || CONFIG.defaultLanguage;
    cacheName = SW.languageCache(CONFIG.version, language);
  }
  await (await caches.open(cacheName)).put(page.url, await plain(response));
  return language;
}

/** The kept copy of `page`: in the visitor's language first, then in the others. */
async function keptPage(page) {
  if (!page) return undefined;
  if (!page.visitor) return (await caches.open(NAMES.pages)).match(page.url, { ignoreVary: true });
  for (const language of SW.languageOrder(await visitorLanguage(), CONFIG.languages)) {
    const cache = await caches.open(SW.languageCache(CONFIG.version, language));
    const copy = await cache.match(page.url, { ignoreVary: true });
    if (copy) return copy;
  }
  return undefined;
}

/** The worker's state, kept in the STATE_CACHE: {language, key} (key: see onVisitor). */
async function state() {
  if (stateNow) return stateNow;
  const kept = await (await caches.open(SW.STATE_CACHE)).match(STATE_KEY);
  stateNow = { language: CONFIG.defaultLanguage, key: "", ...(kept ? await kept.json() : {}) };
  return stateNow;
}

async function setState(changes) {
  stateNow = { ...(await state()), ...changes };
  const body = JSON.stringify(stateNow);
  await (await caches.open(SW.STATE_CACHE)).put(STATE_KEY, new Response(body, { headers: { "Content-Type": "application/json" } }));
}

async function visitorLanguage() {
  return (await state()).language;
}

/** A page said the visitor reads `language` and has CSRF cookie digest `key`: fetch the
    visitor-language pages again when the language is not the one they are kept in (a switch of
    language), the visitor is another (a log-in rotates the cookie), or some are missing. */
async function onVisitor(language, key) {
  if (!CONFIG.languages.includes(language)) return;
  const cache = await caches.open(SW.languageCache(CONFIG.version, language));
  const missing = await Promise.all(ROUTES.visitorPages.map(async (page) => !(await cache.match(page.url))));
  const known = await state();
  const otherVisitor = Boolean(key && known.key && key !== known.key);
  if (language !== known.language || otherVisitor || missing.some(Boolean)) {
    await setState({ language, key: key || known.key });
    try {
      await refreshVisitorPages();
    } catch (error) {
      // offline or the server is away: the next page load asks again
    }
  } else if (key && !known.key) {
    await setState({ key }); // the first page after the install: the pages were fetched with this cookie
  }
}

/** The offline page (status 503), in the visitor's language; a plain sentence when even that is
    not kept. */
async function offlineAnswer() {
  const copy = await keptPage(ROUTES.offline);
  if (copy) return new Response(copy.body, { status: 503, statusText: "Offline", headers: copy.headers });
  const language = await visitorLanguage();
  const text = CONFIG.fallback[language] || CONFIG.fallback[CONFIG.defaultLanguage];
  const html = `<!doctype html><html lang="${language}"><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><p>${text}</p>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** The network's answer to a fetch event (the navigation preload's, when there is one). */
async function fromNetwork(event) {
  if (event.request.mode === "navigate" && event.preloadResponse) {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
  }
  return fetch(event.request);
}

function onFetch(event) {
  const route = SW.classify(ROUTES, event.request, self.location.origin);
  if (route.kind === "static") event.respondWith(staticAnswer(event, route));
  else if (route.kind === "page") event.respondWith(pageAnswer(event, route.page));
  else if (route.kind === "navigate") event.respondWith(navigationAnswer(event));
}

async function staticAnswer(event, route) {
  const cache = await caches.open(NAMES.static);
  const kept = route.key && (await cache.match(route.key));
  if (kept) return kept;
  try {
    const response = await fetch(event.request);
    if (response.status === 404 && route.fallback) return (await cache.match(route.fallback)) || response;
    return response;
  } catch (error) {
    // A hashed name of an older deploy (a page opened before it): this version's copy of the file.
    const current = route.fallback && (await cache.match(route.fallback));
    if (current) return current;
    return Response.error();
  }
}

async function pageAnswer(event, page) {
  const request = event.request;
  let copy = null;
  const network = fromNetwork(event).then((response) => {
    if (response.ok && response.type === "basic" && SW.storable(page, new URL(request.url))) copy = response.clone();
    return response;
  });
  // Kept even when the kept copy answered first (a slow network): the worker lives until it is.
  event.waitUntil(network.then(async () => {
    if (copy) await onServedLanguage(await keepPage(page, copy));
  }).catch(() => {}));
  try {
    return await SW.networkFirst(network, () => keptPage(page), CONFIG.pageTimeoutMs);
  } catch (error) {
    return request.mode === "navigate" ? offlineAnswer() : Response.error();
  }
}

/** A visitor-language page came from the network in `language`: when that is not the language
    the other pages are kept in, the visitor switched: fetch them again. */
async function onServedLanguage(language) {
  if (language && language !== (await visitorLanguage())) await onVisitor(language, "");
}

async function navigationAnswer(event) {
  try {
    return await fromNetwork(event);
  } catch (error) {
    return offlineAnswer();
  }
}
