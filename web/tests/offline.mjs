// The installed app with the network off (issue 35; docs/wasm.md): web/dist
// served by a static host (a small server here, with boneyard serve's
// Content-Security-Policy), opened once so that its service worker keeps the
// app and the engine; then the host stops and the browser goes offline, the
// page is reloaded, and a whole game of each family is played against the
// computer's levels, by clicking, to its end: a hint is shown, a review is
// graded, the record is downloaded (and `boneyard replay` reads it), and a
// game goes on after its tab is closed. With BONEYARD_EXE, boneyard serve
// serves the same app: the manifest and the service worker with their types.
// Prints figures: the first legal move after a cold load and after install.
//   node tests/offline.mjs [BONEYARD_EXE] [SCREENSHOT_DIR]
// Skipped (exit 77) without Chromium, except under CI.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { chromiumPath, webDir } from "./harness.mjs";

const chromium = chromiumPath();
const exe = process.argv[2] && existsSync(process.argv[2]) ? resolve(process.argv[2]) : null;
const shots = resolve(process.argv[3] || join(webDir, "..", "build", "screenshots"));
mkdirSync(shots, { recursive: true });
const dist = realpathSync(join(webDir, "dist"));
for (const f of ["index.html", "sw.js", "manifest.webmanifest", "engine/engine.wasm", "engine/worker.js"])
  if (!existsSync(join(dist, f))) {
    console.error(`web/dist/${f} is not built (scripts/setup.sh builds it)`);
    process.exit(2);
  }
const csp =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain",
  ".webmanifest": "application/manifest+json",
};
// The static host: web/dist as it is, no API (its /api/ answers 404).
const sockets = new Set();
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
server.on("connection", (s) => {
  sockets.add(s);
  s.on("close", () => sockets.delete(s));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const stopHost = () => {
  server.close();
  for (const s of sockets) s.destroy();
};

const puppeteer = (await import("puppeteer-core")).default;
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--lang=en-US", "--disable-dev-shm-usage"],
});
const downloads = mkdtempSync(join(tmpdir(), "boneyard-offline-"));
let failures = 0;
const check = (cond, what) => {
  if (!cond) {
    console.error("FAIL " + what);
    failures++;
  } else console.log("ok   " + what);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

async function newPage(viewport = DESKTOP) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  // Every bot request the page sends its engine, kept for the levels' check.
  await page.evaluateOnNewDocument(() => {
    window.__botRequests = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      const req = msg && typeof msg.line === "string" ? JSON.parse(msg.line) : null;
      if (req && req.cmd === "bot") window.__botRequests.push(req);
      return post.call(this, msg, ...rest);
    };
  });
  page.on("pageerror", (e) => check(false, `no error on the page: ${e.message}`));
  page.on("console", (m) => {
    if (/Content.Security.Policy/i.test(m.text())) check(false, `no CSP violation: ${m.text()}`);
  });
  return page;
}

// One action as a person would (as tests/browser.mjs): a highlighted tile
// (and an end or train when asked), else a button; tiles to lay in Dice & Dominoes.
async function act(page, family) {
  if (await page.$(".chooser")) {
    await page.click(".chooser .choices button");
    return "chooser";
  }
  if (family === "dice-and-dominoes") {
    const lay = await page.$("#lay");
    if (lay) {
      const tiles = await page.$$(".hand .htile.legal");
      const picked = await page.$$(".hand .htile.picked");
      if (picked.length < Math.min(2, tiles.length)) {
        await tiles[picked.length].click();
        return "pick";
      }
      await lay.click();
      return "lay";
    }
  }
  const tile = await page.$(".hand .htile.legal:not([disabled])");
  if (tile && family !== "dice-and-dominoes") {
    await tile.click();
    return "tile";
  }
  const buttons = await page.$$(".actions .action[data-move]:not([disabled])");
  if (buttons.length) {
    const labels = await Promise.all(buttons.map((b) => b.evaluate((e) => e.dataset.move)));
    let i = labels.findIndex((m) => /^bid:\d+$/.test(m || ""));
    if (i < 0) i = labels.findIndex((m) => m !== "pass");
    if (i < 0) i = 0;
    await buttons[i].click();
    return "button";
  }
  return null;
}

const tableState = (page) =>
  page.evaluate(() => {
    const t = document.querySelector(".table");
    return t ? { v: Number(t.dataset.version), status: t.dataset.status, act: t.dataset.toAct === "1" } : null;
  });

// Plays until the game is over (hands' summaries continued), `stop(moves)`
// may end it earlier (true). Returns the moves made.
async function playOn(page, family, { stop = () => false, hint = false, secs = 60 } = {}) {
  let moves = 0;
  let hinted = !hint;
  const deadline = Date.now() + secs * 1000;
  while (Date.now() < deadline) {
    if (await page.$(".summary")) {
      const next = await page.$("#continue");
      if (!next) return moves; // the game's end
      await next.click();
      continue;
    }
    const s = await tableState(page);
    if (s && s.act) {
      if (!hinted && (await page.$("#hint"))) {
        hinted = true;
        await page.click("#hint");
        const ok = await page.waitForSelector(".hints, .hint-text", { timeout: 20000 }).then(
          () => true,
          () => false,
        );
        check(ok, `${family}: the hint shows the moves' values with no connection`);
      }
      const did = await act(page, family).catch(() => null);
      if (did && did !== "pick" && did !== "chooser") {
        moves++;
        await page
          .waitForFunction(
            (v) => {
              const t = document.querySelector(".table");
              return !t || Number(t.dataset.version) > v || document.querySelector(".summary, .chooser");
            },
            { timeout: 10000 },
            s.v,
          )
          .catch(() => {});
        if (await stop(moves)) return moves;
      }
    } else await sleep(30);
  }
  throw new Error(`${family}: the game did not end within ${secs} s`);
}

// A game from the offline lobby: preset, options, the others' levels.
async function start(page, game, options, levels) {
  await page.goto(base + "/");
  await page.waitForSelector("#local-game");
  await page.select("#local-game", game);
  // An option is a choice (a select), a box (a switch) or typed (an input):
  // set as a person would, then "change".
  for (const [k, v] of Object.entries(options))
    await page.$eval(
      `.options [name="${k}"]`,
      (e, v) => {
        if (e.type === "checkbox") e.checked = v === "on";
        else e.value = v;
        e.dispatchEvent(new Event("change"));
      },
      v,
    );
  for (const [k, v] of Object.entries(levels)) await page.select(`select[data-seat="${k}"]`, v);
  await Promise.all([page.waitForSelector(".table"), page.click("#local-start")]);
}

try {
  // A cold load from the static host: no server, so games against the computer only.
  const page = await newPage();
  await page.goto(base + "/");
  await page.evaluate(() => localStorage.setItem("boneyard.botdelay", "0"));
  await page.waitForSelector("#offline-note");
  const note = await page.$eval("#offline-note", (e) => e.textContent);
  check(
    /play the computer/.test(note) && /need a connection/.test(note),
    `the lobby says what needs a connection: "${note}"`,
  );
  await page.waitForSelector('[data-local="latin"]'); // once the engine has listed the games
  // Without a server the games on this device are the lobby's first choice: the filled buttons.
  const lone = await page.$eval('[data-local="latin"]', (b) => getComputedStyle(b).backgroundImage);
  check(/gradient/.test(lone), `offline, the games on this device are the filled buttons (${lone})`);
  await Promise.all([page.waitForSelector(".table"), page.click('[data-local="latin"]')]);
  await page.waitForSelector(".hand .htile.legal, .actions .action[data-move]", { timeout: 30000 });
  const coldMs = await page.evaluate(() => performance.now());
  console.log(`figure: first legal move ${coldMs.toFixed(0)} ms after a cold load (page load to a playable tile)`);
  // Installed: the service worker keeps every file, the engine's too.
  const kept = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 100; i++) {
      const names = await caches.keys();
      for (const n of names) {
        const c = await caches.open(n);
        if ((await c.match("/engine/engine.wasm")) && (await c.match("/index.html"))) return (await c.keys()).length;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return 0;
  });
  check(kept > 10, `the service worker keeps the app and the engine (${kept} files)`);
  const manifest = await page.$eval('link[rel="manifest"]', (l) => l.href);
  const m = JSON.parse(readFileSync(join(dist, "manifest.webmanifest"), "utf8"));
  check(
    manifest.endsWith("/manifest.webmanifest") &&
      m.display === "standalone" &&
      m.icons.some((i) => i.sizes === "512x512"),
    "the app has a manifest with its icons",
  );

  // The network off: the host stopped, the browser offline; the page again.
  stopHost();
  await page.setOfflineMode(true);
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#local-game", { timeout: 20000 });
  check(await page.evaluate(() => !!navigator.serviceWorker.controller), "offline, the kept app opens");
  // The server's API is never kept: offline it fails (the lobby then says what needs a connection).
  const apiAnswer = await page.evaluate(() =>
    fetch("/api/games").then(
      (r) => `HTTP ${r.status}`,
      () => "no answer",
    ),
  );
  check(apiAnswer === "no answer", `offline, the API is not answered from the cache (${apiAnswer})`);
  // A server table's link opened offline (a reload mid-game): the page says
  // the server is out of reach and it keeps trying; the link is not "damaged".
  await page.goto(`${base}/?t=${"a1".repeat(8)}&k=${"b2".repeat(16)}`, { waitUntil: "load" });
  const unreachable = await page
    .waitForFunction(() => /No connection to the server/.test(document.body.innerText), { timeout: 10000 })
    .then(
      () => true,
      () => false,
    );
  const offlineSaid = await page.evaluate(() => document.body.innerText.trim());
  check(
    unreachable && !/damaged/.test(offlineSaid),
    `offline, a table link says the server is out of reach, not that the link is damaged ("${offlineSaid.slice(0, 100)}")`,
  );
  // The games to watch live on a server: not offered, and their page says the server is out of reach
  // (it showed a JSON parse error).
  await page.goto(`${base}/?watch=1`, { waitUntil: "load" });
  const watchSaid = await page
    .waitForFunction(() => document.querySelector("main .error")?.textContent, { timeout: 10000 })
    .then((h) => h.jsonValue())
    .catch(() => "");
  check(
    /server cannot be reached/.test(watchSaid),
    `offline, the watch page says the server is out of reach ("${watchSaid}")`,
  );
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#local-game", { timeout: 20000 });
  check(!(await page.$("#watch-link")), "with no server the lobby offers no games to watch");
  await page.screenshot({ path: join(shots, "offline-lobby-desktop.png"), fullPage: true });
  // Spanish, never chosen online, is fetched on demand: the kept copy answers.
  await page.select("select.lang", "es");
  const esOffline = await page
    .waitForFunction(() => document.documentElement.lang === "es" && /Jugar/.test(document.body.innerText), {
      timeout: 10000,
    })
    .then(
      () => true,
      () => false,
    );
  await page.select("select.lang", "en");
  await page.waitForFunction(() => document.documentElement.lang === "en");
  check(esOffline, "offline, the lobby switches to Spanish from the kept catalogue");
  await page.goto(base + "/", { waitUntil: "load" });
  await page.waitForSelector("#local-game", { timeout: 20000 });
  // The kept game: the one started before the network went.
  check(!!(await page.$("#local-resume")), "the lobby offers the game kept in this browser");
  await Promise.all([
    page.waitForSelector(".hand .htile.legal, .actions .action[data-move]"),
    page.click("#local-resume"),
  ]);
  const warmMs = await page.evaluate(() => performance.now());
  console.log(`figure: first legal move ${warmMs.toFixed(0)} ms after install, offline (page load to a playable tile)`);
  // A few moves, then the page again: "Last moves" keeps them (it said
  // "Nothing played yet" after a reload).
  await playOn(page, "latin", { stop: (n) => n >= 2 });
  const logBefore = await page.$$eval(".log li", (l) => l.length);
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector(".hand .htile, .actions .action[data-move]", { timeout: 20000 });
  const logAfter = await page.evaluate(() => ({
    lines: [...document.querySelectorAll(".log li")].map((e) => e.textContent),
    empty: !!document.querySelector(".log .muted"),
  }));
  check(
    logBefore >= 2 &&
      logAfter.lines.length >= 2 &&
      !logAfter.empty &&
      logAfter.lines.some((x) => /^You (played|passed)/.test(x)),
    `a reloaded game on this device keeps its last moves (${logBefore} before, after: ${JSON.stringify(logAfter)})`,
  );

  // A game in progress is not replaced unsaid, nor by a mistyped option: the
  // setup says starting ends it, and the engine's refusal is shown at the
  // form while the kept game stays (it said "This table link does not work"
  // and the kept game was gone).
  const keptBefore = await page.evaluate(() => localStorage.getItem("boneyard.local"));
  await page.goto(base + "/");
  await page.waitForSelector("#local-game");
  const replaces = await page.$eval(".create .local-replaces", (e) => e.textContent).catch(() => "");
  check(
    /ends your Latin dominoes game in progress/.test(replaces),
    `the setup says a new game ends the kept one ("${replaces}")`,
  );
  await page.$eval('.options [name="bonuses"]', (e) => {
    e.value = "banana";
    e.dispatchEvent(new Event("change"));
  });
  await page.click("#local-start");
  await page
    .waitForFunction(() => document.querySelector("#local-start-error")?.textContent, { timeout: 10000 })
    .catch(() => {});
  const refused = await page.$eval("#local-start-error", (e) => e.textContent);
  check(
    /unknown bonus 'banana'/.test(refused) &&
      !(await page.$(".table")) &&
      (await page.evaluate(() => localStorage.getItem("boneyard.local"))) === keptBefore,
    `a bad option is refused at the form and the kept game stays ("${refused.slice(0, 80)}")`,
  );

  // Latin, one hand, against beginner, casual and strong: a hint on the way;
  // the review graded; the record downloaded and read by boneyard replay.
  const t0 = Date.now();
  await start(page, "latin", { single_hand: "on" }, { 1: "beginner", 2: "casual", 3: "strong" });
  await page.screenshot({ path: join(shots, "offline-latin-desktop.png") });
  await playOn(page, "latin", { hint: true });
  check(!!(await page.$("#download")), "latin: the game's end offers the record");
  const cdp = await browser.target().createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  await page.click("#download");
  // The file can be seen before Chromium has finished writing it: wait
  // until it reads as whole JSON.
  let file = null;
  let rec = null;
  for (let i = 0; i < 200 && !rec; i++) {
    file = readdirSync(downloads).find((f) => f.endsWith(".json"));
    try {
      if (file) rec = JSON.parse(readFileSync(join(downloads, file), "utf8"));
    } catch {
      rec = null;
    }
    if (!rec) await sleep(50);
  }
  check(!!rec, "latin: the record is downloaded");
  if (rec) {
    check(
      rec.game === "latin" && Array.isArray(rec.players) && rec.players[0] === "human",
      "latin: the record names the game and seats",
    );
    if (exe) {
      const out = JSON.parse(execFileSync(exe, ["replay", "--json", join(downloads, file)], { encoding: "utf8" }));
      check(out && !out.error, `boneyard replay reads the record: ${JSON.stringify(out).slice(0, 120)}`);
    }
  }
  await page.click("#review-btn");
  // The graded moves (or "no choice to grade"), not "Analysing…" nor an error.
  const graded = await page
    .waitForFunction(() => document.querySelector("#review .review-moves [data-grade], #review .review-how"), {
      timeout: 30000,
    })
    .then(
      () => true,
      () => false,
    );
  check(graded, "latin: the hand's review is graded on this device");
  await page.screenshot({ path: join(shots, "offline-latin-review.png") });
  // "Play again": a new deal with the same seats, kept in place of the old game.
  const seedBefore = await page.evaluate(() => JSON.parse(localStorage.getItem("boneyard.local")).seed);
  await page.click("#rematch");
  const dealt = await page
    .waitForFunction(
      (seed) => {
        const t = document.querySelector(".table");
        const g = JSON.parse(localStorage.getItem("boneyard.local") || "null");
        return t && t.dataset.status === "playing" && !document.querySelector(".summary") && g && g.seed !== seed;
      },
      { timeout: 20000 },
      seedBefore,
    )
    .then(
      () => true,
      () => false,
    );
  check(dealt, "latin: play again deals a new game against the same levels");
  // Each game its own "hands seen" (so a new game's first hand shows its summary); the old one's is dropped.
  const seen = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("boneyard.seen.local")));
  check(
    !seen.includes(`boneyard.seen.local${seedBefore.toString(16)}.local`),
    `latin: the old game's hands-seen mark goes with it (${seen.join(", ")})`,
  );
  console.log(`latin: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // Texas 42, one hand, against strong, beginner and casual.
  let t = Date.now();
  await start(page, "texas-42", { single_hand: "on" }, { 1: "strong", 2: "beginner", 3: "casual" });
  await playOn(page, "texas-42");
  check(!!(await page.$(".summary")), "texas-42: a whole game played offline");
  // The levels are asked for by name, so the engine plays the server's level
  // (its fixed count), never a time on this device's clock.
  const asked = await page.evaluate(() => window.__botRequests);
  const levelsAsked = [...new Set(asked.map((r) => r.bot))].sort().join(",");
  check(
    levelsAsked === "beginner,casual,strong" &&
      asked.every((r) => !("think_ms" in r) && !("iterations" in r) && !("threads" in r)),
    `texas-42: the bots are asked for by level, with no budget of the app's own (${levelsAsked}; ${asked.length} requests)`,
  );
  await page.screenshot({ path: join(shots, "offline-texas-42-desktop.png") });
  console.log(`texas-42: ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // Mexican Train, one round, on a phone; its tab closed midway and opened again.
  t = Date.now();
  const phone = await newPage(PHONE);
  await phone.setOfflineMode(true);
  await phone.goto(base + "/");
  await phone.waitForSelector("#local-game");
  await phone.screenshot({ path: join(shots, "offline-lobby-phone.png"), fullPage: true });
  await start(phone, "mexican-train", { single_hand: "on", players: "2" }, { 1: "casual" });
  await playOn(phone, "mexican-train", { stop: (n) => n >= 3 });
  await phone.screenshot({ path: join(shots, "offline-mexican-train-phone.png") });
  const before = await phone.evaluate(() => ({
    v: Number(document.querySelector(".table").dataset.version),
    hand: [...document.querySelectorAll(".hand .htile")].map((e) => e.getAttribute("aria-label")).join(","),
  }));
  await phone.close();
  const again = await newPage(PHONE);
  await again.setOfflineMode(true);
  await again.goto(base + "/");
  await Promise.all([again.waitForSelector(".table"), again.waitForSelector("#local-resume").then((b) => b.click())]);
  await again.waitForFunction(() => document.querySelectorAll(".hand .htile").length > 0);
  const after = await again.evaluate(() => ({
    v: Number(document.querySelector(".table").dataset.version),
    hand: [...document.querySelectorAll(".hand .htile")].map((e) => e.getAttribute("aria-label")).join(","),
  }));
  check(
    after.v >= before.v && after.hand.length > 0,
    `mexican-train: the game goes on after its tab was closed (${before.v} -> ${after.v} moves)`,
  );
  await playOn(again, "mexican-train");
  check(!!(await again.$(".summary")), "mexican-train: a whole game played offline");
  await again.screenshot({ path: join(shots, "offline-mexican-train-end-phone.png") });
  await again.close();
  console.log(`mexican-train: ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // Dice & Dominoes, one hand, against beginner, casual and strong.
  t = Date.now();
  await start(page, "dice-and-dominoes", { single_hand: "on" }, { 1: "beginner", 2: "casual", 3: "strong" });
  // Reloaded mid-hand, "Last moves" says tiles were laid, never which: the
  // bots' tiles lie face down (and so do mine, as the server's log says).
  await playOn(page, "dice-and-dominoes", { stop: (n) => n >= 2 });
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector(".table", { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll(".log li").length > 0, { timeout: 20000 }).catch(() => {});
  const ddLog = await page.$$eval(".log li", (l) => l.map((e) => e.textContent));
  check(
    ddLog.some((x) => /laid tiles face down/.test(x)) && !ddLog.some((x) => /\d\|\d/.test(x) && !/rolled/.test(x)),
    `dice-and-dominoes: a reloaded game's log names no face-down tile (${JSON.stringify(ddLog.slice(0, 8))})`,
  );
  await playOn(page, "dice-and-dominoes");
  check(!!(await page.$(".summary")), "dice-and-dominoes: a whole game played offline");
  // The dice are said as they are rolled: the engine on this device settles
  // them unseen by the log, so the board's roll is said.
  const ddLive = await page.$$eval(".log li", (l) => l.map((e) => e.textContent));
  check(
    ddLive.some((x) => /^Dice: \d and \d$/.test(x)),
    `dice-and-dominoes: the log says the dice (${JSON.stringify(ddLive.slice(0, 8))})`,
  );
  await page.screenshot({ path: join(shots, "offline-dice-and-dominoes-desktop.png") });
  console.log(`dice-and-dominoes: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  // Texas 42's bids read in bidding order, from the dealer's left round to
  // the dealer (they read in seat order, "You" first, whoever dealt). Seed 4
  // deals with seat 1 dealing: seats 2 and 3 bid before me.
  await page.evaluate(() =>
    localStorage.setItem(
      "boneyard.local",
      JSON.stringify({
        game: "texas-42",
        family: "texas-42",
        options: {},
        seed: 4,
        seats: ["you", "casual", "casual", "casual"],
        moves: [],
        created: Date.now(),
      }),
    ),
  );
  await page.goto(base + "/?local=1");
  await page.waitForSelector('.bids .bid.turn[data-seat="0"]', { timeout: 20000 });
  const bidRow = await page.$$eval(".bids .bid", (b) => b.map((x) => Number(x.dataset.seat)));
  check(JSON.stringify(bidRow) === "[2,3,0,1]", `texas-42: the bids read from the dealer's left (seats ${bidRow})`);
  // A kept game this engine cannot play again: said plainly, and forgotten.
  await page.evaluate(() =>
    localStorage.setItem(
      "boneyard.local",
      JSON.stringify({
        game: "latin",
        family: "line",
        options: {},
        seed: 1,
        seats: ["you", "casual", "casual", "casual"],
        moves: [[0, "9-9"]],
        created: 0,
      }),
    ),
  );
  await page.goto(base + "/?local=1");
  await page.waitForSelector(".bad-link", { timeout: 20000 });
  check(
    /could not be opened again/.test(await page.$eval(".bad-link", (e) => e.textContent)) &&
      (await page.evaluate(() => localStorage.getItem("boneyard.local"))) === null,
    "a kept game that cannot be replayed is said so, and forgotten",
  );
} catch (e) {
  console.error("FAIL " + (e.stack || e));
  failures++;
} finally {
  stopHost();
  rmSync(downloads, { recursive: true, force: true });
}

// boneyard serve serves the same app: the manifest and the service worker
// with their types, under the policy that lets the engine compile.
if (exe) {
  const tmp = mkdtempSync(join(tmpdir(), "boneyard-offline-serve-"));
  const srv = spawn(exe, ["serve", "--port", "0", "--db", join(tmp, "t.db"), "--static", dist], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    const port = await new Promise((res, rej) => {
      let out = "";
      srv.stdout.on("data", (d) => {
        out += d;
        const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
        if (m) res(Number(m[1]));
      });
      srv.on("exit", (c) => rej(new Error("server exited " + c)));
      setTimeout(() => rej(new Error("server did not start")), 15000);
    });
    const get = (p) => fetch(`http://127.0.0.1:${port}${p}`);
    const mf = await get("/manifest.webmanifest");
    check(
      mf.ok && mf.headers.get("content-type") === "application/manifest+json",
      "boneyard serve: the manifest's type",
    );
    const sw = await get("/sw.js");
    check(sw.ok && /javascript/.test(sw.headers.get("content-type")), "boneyard serve: the service worker's type");
    check(
      /'wasm-unsafe-eval'/.test(sw.headers.get("content-security-policy") || ""),
      "boneyard serve: the engine may compile",
    );
    const icon = await get("/icons/icon-512.png");
    check(icon.ok && icon.headers.get("content-type") === "image/png", "boneyard serve: the icons");
    // With a server, the online lobby as before, and the games on this device beside it.
    const page = await newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForSelector("[data-quick]");
    check(
      !!(await page.$("#local-card [data-local]")) && !(await page.$("#offline-note")),
      "boneyard serve: the online lobby, with the games against the computer on this device",
    );
    // Beside the online games they look secondary: not a second row of the same filled buttons.
    const looks = await page.evaluate(() =>
      ["[data-quick]", "#local-card [data-local]"].map((q) => {
        const s = getComputedStyle(document.querySelector(q));
        return `${s.backgroundImage} ${s.backgroundColor} ${s.color}`;
      }),
    );
    check(
      looks[0] !== looks[1] && /gradient/.test(looks[0]) && !/gradient/.test(looks[1]),
      `boneyard serve: the games on this device do not look like "Play now" (${looks.join(" | ")})`,
    );
    await Promise.all([page.waitForSelector("#local-game"), page.click("#local-setup")]);
    check(
      !(await page.$("#offline-note")) && (await page.$$("#local-game option")).length > 10,
      "boneyard serve: every preset against the computer, from the online lobby",
    );
    await page.screenshot({ path: join(shots, "online-computer-setup-desktop.png") });
    await page.close();
  } catch (e) {
    console.error("FAIL " + (e.stack || e));
    failures++;
  } finally {
    srv.kill("SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
  }
}
await browser.close().catch(() => {});
process.exit(failures ? 1 : 0);
