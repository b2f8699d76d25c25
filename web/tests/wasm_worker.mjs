// The engine's Web Worker in headless Chromium (docs/wasm.md): the client
// (dist/engine/client.js, from src/engine/engine.ts) starts the worker,
// which loads the WebAssembly engine; a game starts, its legal moves come
// back, a search bot thinks while the page's own timers keep running (the
// page never freezes), a bad move gets the engine's error, and stopping the
// worker fails what is still pending. Prints figures (not checks): the time
// to the first legal move after a cold load, random Latin hands per second,
// and a bot move at each of the server's levels.
//   node tests/wasm_worker.mjs
// web/dist is served as a static host would (a small server here, with
// boneyard serve's Content-Security-Policy plus the 'wasm-unsafe-eval' that
// compiling WebAssembly needs: boneyard serve's policy lacks it today, so
// there the worker cannot start the engine; docs/wasm.md). Skipped (exit
// 77) without Chromium, except under CI.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, sep } from "node:path";
import { chromiumPath, webDir } from "./harness.mjs";

const chromium = chromiumPath();
const dist = realpathSync(join(webDir, "dist"));
for (const f of ["index.html", "engine/engine.js", "engine/engine.wasm", "engine/worker.js", "engine/client.js"])
  if (!existsSync(join(dist, f))) {
    console.error(`web/dist/${f} is not built (scripts/setup.sh builds it)`);
    process.exit(2);
  }
export const csp =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  const file = join(dist, path === "/" ? "index.html" : path);
  if (!file.startsWith(dist + sep) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    "Content-Type": types[extname(file)] || "application/octet-stream",
    "Content-Security-Policy": csp,
  });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const puppeteer = (await import("puppeteer-core")).default;
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--lang=en-US", "--disable-dev-shm-usage"],
});
let failures = 0;
const H = {
  check: (cond, what) => {
    if (!cond) {
      console.error("FAIL " + what);
      failures++;
    } else console.log("ok   " + what);
  },
  fail: (e) => {
    console.error("FAIL " + (e.stack || e));
    failures++;
  },
};
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => H.check(false, `no error on the page: ${e.message}`));
  page.on("console", (m) => {
    if (/Content.Security.Policy/i.test(m.text())) H.check(false, `no CSP violation: ${m.text()}`);
  });
  await page.goto(base + "/", { waitUntil: "load" });
  const r = await page.evaluate(async () => {
    const t0 = performance.now();
    const { Engine } = await import("/engine/client.js");
    const engine = new Engine();
    const start = await engine.request({ cmd: "new", game: "latin", seed: 7 });
    const legal = await engine.request({ cmd: "legal" });
    const firstLegalMs = performance.now() - t0;
    // A bot that thinks 1,200 ms: the page's timer fires all the while.
    const tickAt = [];
    const t1 = performance.now();
    const timer = setInterval(() => tickAt.push(performance.now() - t1), 20);
    const bot = await engine.request({ cmd: "bot", bot: "ismcts", think_ms: 1200 });
    const botMs = performance.now() - t1;
    clearInterval(timer);
    const ticks = tickAt.length,
      firstTickMs = tickAt.length ? tickAt[0] : Infinity;
    const bad = await engine.request({ cmd: "apply", move: "9-9" });
    const raw = await engine.line("{not json");
    const pending = engine.request({ cmd: "bot", bot: "ismcts", think_ms: 2000 });
    engine.terminate();
    const stopped = await pending.then(
      () => "answered",
      (e) => String(e.message),
    );
    return { start, legal, firstLegalMs, ticks, firstTickMs, botMs, bot, bad, raw, stopped };
  });
  H.check(r.start.ok && r.start.game === "latin" && r.start.seats === 4, "the worker's engine starts a latin game");
  H.check(r.legal.ok && Array.isArray(r.legal.legal) && r.legal.legal.length > 0, "legal moves come back");
  H.check(r.bot.ok && typeof r.bot.move === "string" && r.bot.budget.think_ms === 1200, "a search bot moves");
  // 1,200 ms of thinking, a timer every 20 ms. A frozen page would fire its
  // first tick only once the answer is in (a blocked interval's ticks do not
  // queue up); a page that runs fires within the first half of the thought.
  // The count of ticks is no proof: a loaded 2-core machine fired as few as
  // 4 in 400 ms (CI, 2026-12-02), then 1 (a fresh clone, 2026-12-07).
  H.check(
    r.firstTickMs < 600,
    `the page runs while the bot thinks (first timer tick at ${r.firstTickMs.toFixed(0)} ms; ${r.ticks} in ${r.botMs.toFixed(0)} ms)`,
  );
  H.check(!r.bad.ok && /illegal move '9-9'/.test(r.bad.error), "a bad move gets the engine's error");
  H.check(JSON.parse(r.raw).ok === false, "a line that is not JSON gets an error answer");
  H.check(/stopped/.test(r.stopped), "stopping the worker fails the pending request");
  console.log(`figure: first legal move ${r.firstLegalMs.toFixed(0)} ms after a cold load (headless Chromium)`);

  // Figures: speed, and a bot move at each level (the server's levels,
  // named as the app names them: the engine plays each at its fixed count).
  const figures = async (label) =>
    page.evaluate(async (label) => {
      const { Engine } = await import("/engine/client.js");
      const engine = new Engine();
      const out = [];
      const bench = await engine.bench("latin", 1);
      out.push(`${label}: ${bench.hands_per_second.toFixed(0)} random latin hands/s`);
      for (const game of ["latin", "mexican-train", "texas-42", "dice-and-dominoes"]) {
        const levels = ["beginner", "casual", "strong", "expert"].map((l) => [l, { bot: l }]);
        const times = [];
        for (const [level, b] of levels) {
          await engine.request({ cmd: "new", game, seed: 3 });
          const s = await engine.request({ cmd: "legal" });
          const seat = s.legal ? s.seat : Number(Object.keys(s.legal_by_seat)[0]);
          const t = performance.now();
          const a = await engine.request({ cmd: "bot", ...b, seat });
          if (!a.ok) throw new Error(`${game} ${level}: ${a.error}`);
          times.push(`${level} ${(performance.now() - t).toFixed(0)} ms`);
        }
        out.push(`${label}: ${game} first move: ${times.join(", ")}`);
      }
      engine.terminate();
      return out;
    }, label);
  // (Not with DevTools' CPU throttling: it slows the page's thread, not a
  // dedicated worker's, so it says nothing of the engine.)
  for (const l of await figures("figure (Chromium)")) console.log(l);
} catch (e) {
  H.fail(e);
} finally {
  await browser.close().catch(() => {});
  server.close();
}
process.exit(failures ? 1 : 0);
