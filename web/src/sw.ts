// The app's service worker (docs/wasm.md, "Installing"): after one visit
// the app and its engine are kept in the browser's cache, so the app opens
// and plays the computer with the network off. build.mjs bundles it into
// dist/sw.js with the list of files and a version (a hash of their bytes):
// a new build is a new worker, which fills a new cache and drops the old.
// The server's API and its WebSocket are never cached: they are live.
declare const PRECACHE: string[];
declare const VERSION: string;

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface SwScope {
  addEventListener(type: "install" | "activate", f: (e: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", f: (e: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}
const sw = self as unknown as SwScope;
const CACHE = "boneyard-" + VERSION;

sw.addEventListener("install", (e) => {
  // Every file or none: a half-filled cache would open an app without its engine.
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(PRECACHE.map((p) => new Request(p, { cache: "reload" }))))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener("activate", (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("boneyard-") && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws") return;
  if (req.mode === "navigate") {
    // A page: the network's when it answers (a server's newest app), else
    // the kept app (every page is the same index.html; the query picks the view).
    e.respondWith(
      fetch(req)
        .then((r) => (r.ok ? r : cached("/index.html", r)))
        .catch(() => cached("/index.html")),
    );
    return;
  }
  // The app's files: the kept copy of this version, else the network.
  e.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((r) => r || fetch(req)));
});

async function cached(path: string, fallback?: Response): Promise<Response> {
  const r = await caches.match(path, { cacheName: CACHE });
  if (r) return r;
  if (fallback) return fallback;
  return new Response("Boneyard is not installed in this browser yet: open it once with a connection.", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
