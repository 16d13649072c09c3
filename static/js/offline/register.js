/* Registers the site's service worker (/sw.js, root scope) and tells it who is visiting: the
   visitor's language, so the pages it keeps for offline use are in the language the visitor reads,
   and a digest of who the visitor is (page.js: the CSRF cookie, which Django rotates at a log-in,
   and the user's id), so the kept pages' forms and header are fetched again for a new visitor. */

/** SHA-256 of `text` as hex ("" for ""; only a digest of the cookie leaves the page). */
export async function digest(text, subtle = globalThis.crypto?.subtle) {
  if (!text || !subtle) return "";
  const bytes = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Register the worker at `workerUrl` and send it {type: "visitor", lang: language, key} once it
    is active (`key`: the digest of `visitor`). Resolves to the registration, or null where
    service workers are unavailable (an insecure origin, an old browser) or turned off (no
    `workerUrl`). */
export async function registerWorker(workerUrl, language, visitor, container = globalThis.navigator?.serviceWorker) {
  if (!container || !workerUrl) return null;
  const registration = await container.register(workerUrl, { scope: "/" });
  const key = await digest(visitor);
  container.ready.then((ready) => {
    if (ready.active) ready.active.postMessage({ type: "visitor", lang: language, key });
  });
  return registration;
}
