/* The service worker's pure parts: cache names, which requests it answers and how, where a page's
   copy is looked up, and the network-first race. No I/O here: everything that touches the caches
   or the network is in sw.js.

   A classic script (the worker is a classic worker, served at /sw.js by caro.offline.views with
   its configuration and this file in front of sw.js). It defines `self.CaroSW`; the Node tests
   (tests/js/offline/) run it in a vm context. */
(function (scope) {
  "use strict";

  /** Every cache of ours starts with this; anything else in the origin's caches is left alone. */
  const PREFIX = "caro-";
  /** The one cache that outlives versions: the worker's small state (the visitor's language). */
  const STATE_CACHE = "caro-state";
  /** Django's hashed static names: "name.<12 hex digits>.ext" (ManifestFilesMixin.file_hash). */
  const HASHED = /\.[0-9a-f]{12}(?=\.[^./]+$|$)/;
  /** Statuses of a page's answer that mean "the server is not there", not "this page is wrong". */
  const UNAVAILABLE = new Set([502, 503, 504]);

  /** The versioned caches: hashed static files, and pages whose URL fixes their language. */
  function cacheNames(version) {
    return { static: `${PREFIX}static-${version}`, pages: `${PREFIX}pages-${version}` };
  }

  /** The cache of the pages rendered in the visitor's language `language`, for `version`. */
  function languageCache(version, language) {
    return `${PREFIX}pages-${language}-${version}`;
  }

  /** Our caches that belong to another version than `version` (to delete on activate). */
  function staleCaches(names, version) {
    return names.filter((name) => name.startsWith(PREFIX) && name !== STATE_CACHE && !name.endsWith(`-${version}`));
  }

  /** The site language of a Content-Language header ("en-US" -> "en"), or null when it is none
      of `languages`. */
  function primaryLanguage(header, languages) {
    if (!header) return null;
    const code = String(header).split(",")[0].trim().toLowerCase().split("-")[0];
    return languages.includes(code) ? code : null;
  }

  /** `preferred` first (when it is a site language), then the others in the site's order. */
  function languageOrder(preferred, languages) {
    return languages.includes(preferred) ? [preferred, ...languages.filter((l) => l !== preferred)] : [...languages];
  }

  /** "/static/js/room.5f3e1a2b3c4d.js" -> "/static/js/room.js" (unchanged when not hashed). */
  function unhashed(path) {
    const slash = path.lastIndexOf("/");
    return path.slice(0, slash + 1) + path.slice(slash + 1).replace(HASHED, "");
  }

  /** The lookup tables of a configuration (`self.CARO_OFFLINE`, see caro.offline.views):
      `staticKeys` maps every static path the pages may ask for (the hashed name, and the original
      one, as ES module imports and workers use) to the hashed path the cache holds; `pages` maps a
      page's path to its entry {url, visitor, anyQuery}. */
  function buildRoutes(config) {
    const staticKeys = new Map();
    const staticUrls = [];
    for (const [original, hashed] of Object.entries(config.static.files)) {
      const key = config.static.url + hashed;
      staticKeys.set(key, key);
      staticKeys.set(config.static.url + original, key);
      staticUrls.push(key);
    }
    const pages = new Map(config.pages.map((page) => [page.url, page]));
    return {
      staticUrl: config.static.url,
      staticKeys,
      staticUrls,
      pages,
      visitorPages: config.pages.filter((page) => page.visitor),
      fixedPages: config.pages.filter((page) => !page.visitor),
      offline: pages.get(config.offline) || null,
    };
  }

  /** How the worker answers a request ({method, mode, url}; `origin` is the worker's own):
      - {kind: "static", key, fallback}: cache first (`key`: the cached hashed path, or null when
        the file is not kept; `fallback`: the current copy of the same file, for a hashed name of
        another deploy);
      - {kind: "page", page}: network first, the kept copy when the network fails;
      - {kind: "navigate"}: the network, the offline page when it fails (any other page of the
        site, POST forms included);
      - {kind: "none"}: not answered (the browser's own handling: other origins, POST requests of
        scripts, htmx and API calls, websockets). */
  function classify(routes, request, origin) {
    const url = new URL(request.url);
    if (url.origin !== origin) return { kind: "none" };
    const navigate = request.mode === "navigate";
    if (request.method !== "GET") return navigate ? { kind: "navigate" } : { kind: "none" };
    if (url.pathname.startsWith(routes.staticUrl)) {
      const key = routes.staticKeys.get(url.pathname) || null;
      const fallback = key ? null : routes.staticKeys.get(unhashed(url.pathname)) || null;
      return { kind: "static", key, fallback };
    }
    const page = routes.pages.get(url.pathname);
    if (page) return { kind: "page", page };
    return navigate ? { kind: "navigate" } : { kind: "none" };
  }

  /** Whether the network's copy of `page`, fetched at `url` (a URL), may replace the kept one:
      only a copy fetched without a query string, except for pages that one copy serves for every
      query (the play pages: CONTRACTS.md section 3). */
  function storable(page, url) {
    return page.anyQuery || url.search === "";
  }

  /** Network first with a deadline. `network` is the network's answer (a promise of a Response;
      it may reject), `kept` a function returning a promise of the kept copy (or undefined).
      Answers the network's response when it comes within `timeoutMs`; the kept copy when the
      network fails, is slower than `timeoutMs` (the network's answer still updates the copy
      meanwhile, through the caller) or answers 502/503/504; the network's answer anyway when
      nothing is kept; and rejects when neither has anything. */
  function networkFirst(network, kept, timeoutMs, timers = scope) {
    return new Promise((resolve, reject) => {
      let done = false;
      let keptCopy = null;
      const finish = (value, error) => {
        if (done) return;
        done = true;
        timers.clearTimeout(timer);
        if (error) reject(error);
        else resolve(value);
      };
      const fromKept = () => (keptCopy = keptCopy || Promise.resolve().then(kept).catch(() => undefined));
      const timer = timers.setTimeout(() => {
        fromKept().then((copy) => { if (copy) finish(copy); });
      }, timeoutMs);
      network.then(
        (response) => {
          if (!UNAVAILABLE.has(response.status)) return finish(response);
          fromKept().then((copy) => finish(copy || response));
        },
        (error) => fromKept().then((copy) => (copy ? finish(copy) : finish(null, error))),
      );
    });
  }

  scope.CaroSW = {
    PREFIX, STATE_CACHE, cacheNames, languageCache, staleCaches, primaryLanguage, languageOrder,
    unhashed, buildRoutes, classify, storable, networkFirst,
  };
})(self);
