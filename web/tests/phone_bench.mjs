// Figures for docs/wasm.md (not a test): a bot's move at each level in the
// browser's engine on a phone-sized Chromium whose CPU is slowed 4x, and
// random Latin hands per second there and unslowed. DevTools' throttling
// slows a page's thread only ("only supported for pages, not workers"), so
// the same engine (engine.js + engine.wasm) runs here on the page's thread;
// the app runs it in a worker, where a phone's CPU is as slow. A fixed
// amount of search (ismcts, 2000 iterations) shows the slowing took.
//   node tests/phone_bench.mjs
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, sep } from "node:path";
import { webDir } from "./harness.mjs";

const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const dist = realpathSync(join(webDir, "dist"));
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  const file = join(dist, path === "/" ? "index.html" : path);
  if (!file.startsWith(dist + sep) || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { "Content-Type": types[extname(file)] || "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const puppeteer = (await import("puppeteer-core")).default;
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  for (const rate of [1, 4]) {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    await page.emulateCPUThrottling(rate);
    await page.goto(base + "/", { waitUntil: "load" });
    await page.addScriptTag({ url: "/engine/engine.js" });
    const out = await page.evaluate(async (rate) => {
      const lines = [];
      const t0 = performance.now();
      const m = await createBoneyardEngine();
      const handle = m.cwrap("boneyard_handle", "string", ["string"]);
      const bench = m.cwrap("boneyard_bench", "string", ["string", "number"]);
      const ask = (req) => JSON.parse(handle(JSON.stringify(req)));
      ask({ cmd: "new", game: "latin", seed: 7 });
      ask({ cmd: "legal" });
      lines.push(
        `CPU ${rate}x: engine compiled and started, first legal move ${(performance.now() - t0).toFixed(0)} ms`,
      );
      ask({ cmd: "new", game: "latin", seed: 3 });
      let t = performance.now();
      ask({ cmd: "bot", bot: "ismcts", iterations: 2000, apply: false });
      lines.push(`CPU ${rate}x: latin ismcts 2000 iterations ${(performance.now() - t).toFixed(0)} ms`);
      const b = JSON.parse(bench("latin", 1));
      lines.push(`CPU ${rate}x: ${b.hands_per_second.toFixed(0)} random latin hands/s`);
      const games = ask({ cmd: "games", detail: true }).games;
      for (const game of ["latin", "mexican-train", "texas-42", "dice-and-dominoes"]) {
        const strongest = games.find((g) => g.name === game).strongest;
        // The levels as the app asks for them (the server's fixed counts).
        const levels = ["beginner", "casual", "strong", "expert"].map((l) => [l, { bot: l }]);
        const times = [];
        for (const [level, bot] of levels) {
          ask({ cmd: "new", game, seed: 3 });
          const s = ask({ cmd: "legal" });
          const seat = s.legal ? s.seat : Number(Object.keys(s.legal_by_seat)[0]);
          t = performance.now();
          const a = ask({ cmd: "bot", ...bot, seat });
          if (!a.ok) throw new Error(`${game} ${level}: ${a.error}`);
          times.push(`${level} ${(performance.now() - t).toFixed(0)} ms`);
        }
        lines.push(`CPU ${rate}x: ${game} (${strongest}) first move: ${times.join(", ")}`);
      }
      return lines;
    }, rate);
    for (const l of out) console.log(l);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
