/* Registers the site's service worker (/sw.js, root scope) and tells it the visitor's language,
   so the pages it keeps for offline use are in the language the visitor reads. */

/** Register the worker at `workerUrl` and send it {type: "visitor-language", lang: language} once
    it is active. Resolves to the registration, or null where service workers are unavailable
    (an insecure origin, an old browser) or turned off (no `workerUrl`). */
export async function registerWorker(workerUrl, language, container = globalThis.navigator?.serviceWorker) {
  if (!container || !workerUrl) return null;
  const registration = await container.register(workerUrl, { scope: "/" });
  container.ready.then((ready) => {
    if (ready.active) ready.active.postMessage({ type: "visitor-language", lang: language });
  });
  return registration;
}
