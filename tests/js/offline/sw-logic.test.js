// The service worker's pure parts (static/js/offline/sw-logic.js): cache names and versions, which
// requests it answers and how, and the network-first race.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const source = readFileSync(new URL("../../../static/js/offline/sw-logic.js", import.meta.url), "utf8");

function load(timers = { setTimeout, clearTimeout }) {
  const context = { URL, Promise, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout };
  context.self = context;
  vm.createContext(context);
  vm.runInContext(source, context);
  return context.CaroSW;
}

const SW = load();
// Objects made in the vm context have that context's prototypes: compare their JSON.
const plain = (value) => JSON.parse(JSON.stringify(value));
const ORIGIN = "https://caro.example";
const CONFIG = {
  version: "v2",
  static: { url: "/static/", files: { "js/room.js": "js/room.0123456789ab.js", "css/site.css": "css/site.aaaaaaaaaaaa.css" } },
  pages: [
    { url: "/", visitor: true, anyQuery: false },
    { url: "/choi-may/", visitor: true, anyQuery: true },
    { url: "/ngoai-tuyen/", visitor: true, anyQuery: false },
    { url: "/huong-dan/", visitor: false, anyQuery: false },
  ],
  offline: "/ngoai-tuyen/",
  languages: ["vi", "en"],
};
const ROUTES = SW.buildRoutes(CONFIG);
const get = (path, mode = "no-cors") => ({ method: "GET", mode, url: ORIGIN + path });

test("only our caches of other versions are stale; the state cache and other caches stay", () => {
  const names = ["caro-static-v1", "caro-pages-v1", "caro-pages-en-v1", "caro-static-v2", "caro-pages-vi-v2",
    "caro-state", "someone-else"];
  assert.deepEqual(plain(SW.staleCaches(names, "v2")), ["caro-static-v1", "caro-pages-v1", "caro-pages-en-v1"]);
  assert.deepEqual(plain(SW.cacheNames("v2")), { static: "caro-static-v2", pages: "caro-pages-v2" });
  assert.equal(SW.languageCache("v2", "en"), "caro-pages-en-v2");
});

test("Content-Language gives a site language or nothing", () => {
  assert.equal(SW.primaryLanguage("vi", CONFIG.languages), "vi");
  assert.equal(SW.primaryLanguage("en-US", CONFIG.languages), "en");
  assert.equal(SW.primaryLanguage("fr", CONFIG.languages), null);
  assert.equal(SW.primaryLanguage(null, CONFIG.languages), null);
  assert.deepEqual(plain(SW.languageOrder("en", CONFIG.languages)), ["en", "vi"]);
  assert.deepEqual(plain(SW.languageOrder("xx", CONFIG.languages)), ["vi", "en"]);
});

test("hashed static names lose their hash; other names stay", () => {
  assert.equal(SW.unhashed("/static/js/room.0123456789ab.js"), "/static/js/room.js");
  assert.equal(SW.unhashed("/static/js/engine/caro.js"), "/static/js/engine/caro.js");
  assert.equal(SW.unhashed("/static/a.b/c.0123456789ab"), "/static/a.b/c");
});

test("a static file is looked up under its hashed name, asked by either name", () => {
  assert.deepEqual(plain(SW.classify(ROUTES, get("/static/js/room.0123456789ab.js"), ORIGIN)),
    { kind: "static", key: "/static/js/room.0123456789ab.js", fallback: null });
  // ES module imports and workers ask for the original name
  assert.equal(SW.classify(ROUTES, get("/static/js/room.js?x=1"), ORIGIN).key, "/static/js/room.0123456789ab.js");
  // a page of an older deploy asks for an older hash: this version's copy is the fallback
  assert.deepEqual(plain(SW.classify(ROUTES, get("/static/js/room.ffffffffffff.js"), ORIGIN)),
    { kind: "static", key: null, fallback: "/static/js/room.0123456789ab.js" });
  assert.deepEqual(plain(SW.classify(ROUTES, get("/static/admin/css/base.css"), ORIGIN)),
    { kind: "static", key: null, fallback: null });
});

test("kept pages are network first for any query string; other pages only as navigations", () => {
  assert.equal(SW.classify(ROUTES, get("/choi-may/?preset=caro-vn&level=hard", "navigate"), ORIGIN).page.url, "/choi-may/");
  assert.equal(SW.classify(ROUTES, get("/", "navigate"), ORIGIN).kind, "page");
  assert.equal(SW.classify(ROUTES, get("/huong-dan/", "navigate"), ORIGIN).kind, "page");
  assert.equal(SW.classify(ROUTES, get("/r/ABC123/", "navigate"), ORIGIN).kind, "navigate");
  assert.equal(SW.classify(ROUTES, get("/bang-xep-hang/", "navigate"), ORIGIN).kind, "navigate");
  assert.equal(SW.classify(ROUTES, get("/api/local-games/"), ORIGIN).kind, "none");
  assert.equal(SW.classify(ROUTES, { method: "POST", mode: "navigate", url: ORIGIN + "/rooms/new" }, ORIGIN).kind, "navigate");
  assert.equal(SW.classify(ROUTES, { method: "POST", mode: "cors", url: ORIGIN + "/api/local-games/" }, ORIGIN).kind, "none");
  assert.equal(SW.classify(ROUTES, get("/", "navigate"), "https://other.example").kind, "none");
  assert.equal(ROUTES.offline.url, "/ngoai-tuyen/");
  assert.deepEqual(plain(ROUTES.visitorPages.map((p) => p.url)), ["/", "/choi-may/", "/ngoai-tuyen/"]);
  assert.deepEqual(plain(ROUTES.staticUrls), ["/static/js/room.0123456789ab.js", "/static/css/site.aaaaaaaaaaaa.css"]);
});

test("a page's copy is replaced only from its plain address, except for the play pages", () => {
  const home = ROUTES.pages.get("/");
  const play = ROUTES.pages.get("/choi-may/");
  assert.equal(SW.storable(home, new URL(ORIGIN + "/")), true);
  assert.equal(SW.storable(home, new URL(ORIGIN + "/?left=ABC123")), false);
  assert.equal(SW.storable(play, new URL(ORIGIN + "/choi-may/?level=easy")), true);
});

const answer = (status) => ({ status });
const never = () => new Promise(() => {});

test("network first: the network's answer when it comes in time", async () => {
  const kept = { status: 200, kept: true };
  assert.equal((await SW.networkFirst(Promise.resolve(answer(404)), async () => kept, 1000)).status, 404);
});

test("network first: the kept copy when the network fails or says the server is away", async () => {
  const kept = { status: 200, kept: true };
  assert.equal(await SW.networkFirst(Promise.reject(new TypeError("offline")), async () => kept, 1000), kept);
  assert.equal(await SW.networkFirst(Promise.resolve(answer(503)), async () => kept, 1000), kept);
  assert.equal((await SW.networkFirst(Promise.resolve(answer(502)), async () => undefined, 1000)).status, 502);
  await assert.rejects(SW.networkFirst(Promise.reject(new TypeError("offline")), async () => undefined, 1000), TypeError);
});

test("network first: the kept copy after the deadline, else the network whenever it answers", async () => {
  const kept = { status: 200, kept: true };
  assert.equal(await SW.networkFirst(never(), async () => kept, 5), kept);
  let settle;
  const slow = new Promise((resolve) => { settle = resolve; });
  const race = SW.networkFirst(slow, async () => undefined, 5);
  setTimeout(() => settle(answer(200)), 30);
  assert.equal((await race).status, 200);
});
