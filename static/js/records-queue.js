/* The records queue (CONTRACTS.md section 4): finished computer and one-device games wait here, in
   IndexedDB, until the server has them.

   enqueue(record)  keep `record` (keyed by its own `record.id`, a uuid made by the page; a record
                    whose id is already queued is kept once), then send what waits
   flush()          POST each waiting record to /api/local-games/ (JSON, X-CSRFToken from the
                    csrftoken cookie); a record is removed only on 200/201 (201 stored, 200 stored
                    before: the server keeps one game per id). A 400 refusal (a forged or illegal
                    record; also 413/415/422) is kept aside with the server's translated message,
                    never retried and never dropped silently. Anything else (no network, 403, 404,
                    429, 5xx) leaves the record waiting and stops this round; it is tried again
                    after a delay (retryDelay), when the network comes back, and on the next load
   pending()        what this browser still holds: [{id, record, state: "waiting" | "refused",
                    error, message, queuedAt (Unix ms), attempts, lastStatus}], oldest first
   discard(id)      remove a refused record (the player's own choice, on "My games")
   start()          once per tab: flush now, on `online`, and when a retry delay ends (nothing
                    is tried while the browser knows it is offline)

   Two tabs never send at once: a flush holds the Web Lock "caro-records-queue" from reading the
   list to removing what was sent, so the other tab's flush starts after and finds them gone.
   (Without Web Locks, only the tab's own flushes are serialised; the server still stores a record
   sent twice once.) Every change is announced with a "caro:records-queue" event on window and to
   the other tabs through a BroadcastChannel of the same name.

   The pure part is createQueue({store, send, lock, now}); the Node tests (tests/js/offline) give it
   memoryStore() and their own `send`. */

/** The upload API's path (CONTRACTS.md section 4); the page's {% offline_head %} passes the
    reversed URL through configure() once the view exists. */
export const UPLOAD_URL = "/api/local-games/";
export const WAITING = "waiting";
export const REFUSED = "refused";
/** Answers that refuse the record itself: kept aside with the server's message. */
export const REFUSAL_STATUSES = new Set([400, 413, 415, 422]);
/** The first retry after a failed round, then doubling per failure up to RETRY_MAX_MS. */
export const RETRY_MIN_MS = 15_000;
export const RETRY_MAX_MS = 10 * 60_000;
export const EVENT_NAME = "caro:records-queue";
const LOCK_NAME = "caro-records-queue";
const DB_NAME = "caro-records";
const DB_VERSION = 1;
const STORE_NAME = "records";
const SHARED = Symbol.for("caro.records-queue");

/** How long to wait before the next round after `failures` failed ones in a row, the last
    answered with `status` (0: no answer) and a Retry-After header `retryAfter` (seconds or an
    HTTP date; null when absent). Milliseconds. */
export function retryDelay(status, retryAfter, failures, now = Date.now()) {
  const backoff = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, failures - 1));
  if (retryAfter != null && (status === 429 || status === 503)) {
    const seconds = Number(retryAfter);
    const asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(asked)) return Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, asked));
  }
  return backoff;
}

/** Serialise `fn`s: each starts after the previous one settled. */
export function mutex() {
  let tail = Promise.resolve();
  return (fn) => {
    const run = tail.then(() => fn());
    tail = run.catch(() => {});
    return run;
  };
}

/** An in-memory store (the Node tests; a browser whose IndexedDB refuses to open, such as some
    private windows: there the records live as long as the tab). Same methods as idbStore(). */
export function memoryStore() {
  const rows = new Map();
  const copy = (value) => (value === undefined ? undefined : structuredClone(value));
  return {
    all: async () => [...rows.values()].map(copy),
    get: async (id) => copy(rows.get(id)),
    put: async (entry) => { rows.set(entry.id, copy(entry)); },
    add: async (entry) => {
      if (rows.has(entry.id)) return false;
      rows.set(entry.id, copy(entry));
      return true;
    },
    delete: async (id) => { rows.delete(id); },
  };
}

/** The IndexedDB store: database "caro-records", object store "records" keyed by `id`. */
export function idbStore(factory = globalThis.indexedDB) {
  let opened = null;
  const open = () => (opened = opened || new Promise((resolve, reject) => {
    const request = factory.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE_NAME, { keyPath: "id" });
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => { db.close(); opened = null; };
      resolve(db);
    };
    request.onerror = () => { opened = null; reject(request.error); };
  }));
  const run = async (mode, operate) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE_NAME, mode);
      let result;
      operate(tx.objectStore(STORE_NAME), (value) => { result = value; });
      tx.oncomplete = () => resolve(result);
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  };
  const read = (request, set) => { request.onsuccess = () => set(request.result); };
  return {
    all: () => run("readonly", (store, set) => read(store.getAll(), set)),
    get: (id) => run("readonly", (store, set) => read(store.get(id), set)),
    put: (entry) => run("readwrite", (store) => { store.put(entry); }),
    add: (entry) => run("readwrite", (store, set) => {
      const existing = store.getKey(entry.id);
      existing.onsuccess = () => {
        set(existing.result === undefined);
        if (existing.result === undefined) store.put(entry);
      };
    }),
    delete: (id) => run("readwrite", (store) => { store.delete(id); }),
  };
}

/** The value of cookie `name` in a `document.cookie` string, or "". */
export function cookieValue(cookies, name) {
  for (const part of String(cookies || "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

/** A `send(record)` that POSTs to `url()` with fetch: resolves to {status, body (the JSON answer or
    null), retryAfter}; rejects when no answer came (no network). */
export function httpSender(fetchImpl, url, csrfToken) {
  return async (record) => {
    const response = await fetchImpl(url(), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(record),
    });
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      // not JSON (a proxy's error page): the status says enough
    }
    return { status: response.status, body, retryAfter: response.headers.get("Retry-After") };
  };
}

/** The queue over `store` (memoryStore() or idbStore()), `send` (see httpSender), `lock` (runs
    an async function alone: a Web Lock across tabs, or mutex()) and `now` (Unix ms). */
export function createQueue({ store, send, lock = mutex(), now = Date.now }) {
  let failures = 0;
  let waitingFlush = null;

  async function enqueue(record) {
    if (!record || typeof record.id !== "string" || record.id === "") {
      throw new TypeError("a record needs its own id (a non-empty string)");
    }
    return store.add({ id: record.id, record, state: WAITING, queuedAt: now(), attempts: 0, lastStatus: null });
  }

  async function round() {
    const result = { sent: [], refused: [], waiting: 0, retryInMs: null };
    const entries = (await store.all()).filter((e) => e.state === WAITING).sort((a, b) => a.queuedAt - b.queuedAt);
    for (let i = 0; i < entries.length; i += 1) {
      const entry = await store.get(entries[i].id);
      if (!entry || entry.state !== WAITING) continue; // discarded meanwhile
      let answer;
      try {
        answer = await send(entry.record);
      } catch (error) {
        answer = { status: 0, body: null, retryAfter: null };
      }
      if (answer.status === 200 || answer.status === 201) {
        await store.delete(entry.id);
        result.sent.push({ id: entry.id, url: answer.body?.url ?? null });
        failures = 0;
      } else if (REFUSAL_STATUSES.has(answer.status)) {
        const refused = {
          ...entry, state: REFUSED, lastStatus: answer.status, attempts: entry.attempts + 1, refusedAt: now(),
          error: answer.body?.error ?? `http_${answer.status}`, message: answer.body?.message ?? "",
        };
        await store.put(refused);
        result.refused.push({ id: entry.id, error: refused.error, message: refused.message });
      } else {
        await store.put({ ...entry, lastStatus: answer.status, attempts: entry.attempts + 1 });
        failures += 1;
        result.waiting = entries.length - i;
        result.retryInMs = retryDelay(answer.status, answer.retryAfter, failures, now());
        break;
      }
    }
    return result;
  }

  /** One round under the lock. A flush asked for while another waits for the lock shares it (it
      will read the list after everything queued so far); one asked for while a round runs gets a
      round of its own after it. */
  function flush() {
    if (!waitingFlush) {
      waitingFlush = lock(() => {
        waitingFlush = null;
        return round();
      });
    }
    return waitingFlush;
  }

  async function pending() {
    return (await store.all()).sort((a, b) => a.queuedAt - b.queuedAt);
  }

  async function discard(id) {
    const entry = await store.get(id);
    if (entry && entry.state === REFUSED) await store.delete(id);
  }

  return { enqueue, flush, pending, discard };
}

// --- The browser's queue: one per tab, shared by every copy of this module the tab loads. ---

/** `primary` (IndexedDB) when it opens, else `fallback` (memory: a browser that refuses
    IndexedDB, such as some private windows, keeps the tab's records as long as the tab). */
function firstWorking(primary, fallback) {
  let chosen = null;
  const choose = () => (chosen = chosen || (primary ? primary.all().then(() => primary, () => fallback) : Promise.resolve(fallback)));
  return Object.fromEntries(["all", "get", "put", "add", "delete"].map((method) => [
    method, async (...args) => (await choose())[method](...args),
  ]));
}

function shared() {
  if (globalThis[SHARED]) return globalThis[SHARED];
  const options = { uploadUrl: UPLOAD_URL };
  const locks = globalThis.navigator?.locks;
  const local = mutex();
  const queue = createQueue({
    store: firstWorking(globalThis.indexedDB ? idbStore() : null, memoryStore()),
    send: httpSender((...args) => globalThis.fetch(...args), () => options.uploadUrl,
      () => cookieValue(globalThis.document?.cookie, "csrftoken")),
    lock: locks ? (fn) => locks.request(LOCK_NAME, fn) : local,
  });
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(LOCK_NAME) : null;
  const state = { options, queue, channel, started: false, timer: null };
  const announce = (detail, fromOtherTab = false) => {
    if (typeof globalThis.dispatchEvent === "function" && typeof CustomEvent === "function") {
      globalThis.dispatchEvent(new CustomEvent(EVENT_NAME, { detail }));
    }
    if (channel && !fromOtherTab) channel.postMessage(detail);
  };
  if (channel) channel.onmessage = (event) => announce(event.data, true);
  state.announce = announce;
  globalThis[SHARED] = state;
  return state;
}

export function configure(options) {
  Object.assign(shared().options, options);
}

export async function enqueue(record) {
  const state = shared();
  const added = await state.queue.enqueue(record);
  state.announce({ type: "enqueued", id: record.id });
  flush().catch(() => {});
  return added;
}

export async function flush() {
  const state = shared();
  if (globalThis.navigator?.onLine === false) {
    // No network at all: nothing is tried; the `online` event starts the next round.
    const waiting = (await state.queue.pending()).filter((e) => e.state === WAITING).length;
    return { sent: [], refused: [], waiting, retryInMs: null };
  }
  const result = await state.queue.flush();
  if (result.sent.length || result.refused.length) state.announce({ type: "flushed", ...result });
  if (state.started && result.retryInMs != null && !state.timer) {
    state.timer = setTimeout(() => {
      state.timer = null;
      flush().catch(() => {});
    }, result.retryInMs);
  }
  return result;
}

export function pending() {
  return shared().queue.pending();
}

export async function discard(id) {
  const state = shared();
  await state.queue.discard(id);
  state.announce({ type: "discarded", id });
}

/** Send what waits now, whenever the network comes back, and after a retry delay (once per tab). */
export function start() {
  const state = shared();
  if (state.started) return;
  state.started = true;
  globalThis.addEventListener?.("online", () => flush().catch(() => {}));
  flush().catch(() => {});
}
