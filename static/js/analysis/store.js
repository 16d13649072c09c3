// Analysis results kept in the browser, so that a second visit of a record shows them at once:
// IndexedDB (database "caro-analysis", store "results"), keyed by game id, analysis version and
// the moves (a record still being played, or one whose analysis changed, gets a new key). The
// newest KEEP results are kept; older ones are deleted when a new one is saved. Where IndexedDB
// is missing or refused (some private windows), localStorage holds them instead, and where that
// fails too nothing is kept (the analysis still works, it just runs again next time).

export const DB_NAME = "caro-analysis";
export const STORE = "results";
export const KEEP = 50;
const LOCAL_PREFIX = "caro-analysis:";

/** A short hash (FNV-1a, 32 bits, hex) of a string. */
export function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** The key of a game's analysis: "<game id>:v<version>:<hash of the moves>". */
export function analysisKey(gameId, version, moves) {
  return `${gameId}:v${version}:${hash(moves.join(","))}`;
}

let opening = null;

function openDb() {
  if (!globalThis.indexedDB) return Promise.reject(new Error("no IndexedDB"));
  opening ||= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "key" });
      store.createIndex("saved", "saved");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("blocked"));
  }).catch((e) => {
    opening = null;
    throw e;
  });
  return opening;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The stored result of `key`, or null. Never throws. */
export async function load(key) {
  try {
    const db = await openDb();
    const row = await done(db.transaction(STORE).objectStore(STORE).get(key));
    return row ? row.result : null;
  } catch {
    try {
      const text = globalThis.localStorage?.getItem(LOCAL_PREFIX + key);
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }
}

/** Keep `result` under `key` (and forget the oldest beyond KEEP). Never throws; resolves to
 * whether it was kept. */
export async function save(key, result) {
  try {
    const db = await openDb();
    const tx = db.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    store.put({ key, saved: Date.now(), result });
    const keys = await done(store.index("saved").getAllKeys());
    for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) store.delete(old);
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return true;
  } catch {
    try {
      const storage = globalThis.localStorage;
      if (!storage) return false;
      const mine = [];
      for (let i = 0; i < storage.length; i++) if (storage.key(i).startsWith(LOCAL_PREFIX)) mine.push(storage.key(i));
      if (mine.length >= KEEP) storage.removeItem(mine[0]);
      storage.setItem(LOCAL_PREFIX + key, JSON.stringify(result));
      return true;
    } catch {
      return false;
    }
  }
}
