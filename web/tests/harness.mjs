// What every browser test (lobby, rules, layout, browser) sets up the same
// way: its arguments (BONEYARD_EXE SCREENSHOT_DIR), a skip (exit 77, ctest's
// "skipped") without Chromium, a `boneyard serve` of web/dist on a free port
// with a database of its own, headless Chromium, check() counting the
// failures, and the tidy end.
//   const H = await setUp({ name: "lobby", serveArgs: ["--quickmatch-wait", "3"] });
//   try { ... H.check(ok, "what") ... } catch (e) { H.fail(e); } finally { await H.close(); }
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Debian's Chromium, or the test stops: skipped (77) where it is missing,
// except in CI, which never skips the browser (there it is a failure).
export function chromiumPath() {
  const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    const why = `no Chromium at ${chromium} (apt-get install chromium; scripts/setup.sh does)`;
    if (process.env.CI) {
      console.error(`FAIL: ${why}`);
      process.exit(1);
    }
    console.log(`SKIP: ${why}`);
    process.exit(77);
  }
  return chromium;
}

// A fresh browser context (its own storage). Chromium can refuse the first
// one while it is still attaching its start page under load (CI once saw
// "Protocol error (Target.createBrowserContext): Session with given id not
// found" on a 2-core machine), so a refusal is tried again, three times,
// while the browser is still connected; a browser that is gone is an error.
export async function openContext(browser) {
  for (let tries = 1; ; tries++) {
    try {
      return await browser.createBrowserContext();
    } catch (e) {
      if (tries >= 3 || !browser.connected) throw e;
      console.log(`note: a browser context was refused (${e.message}); trying again`);
      await new Promise((r) => setTimeout(r, 500 * tries));
    }
  }
}

// name: the temporary folder's tag; serveArgs: more `boneyard serve`
// options; needs: a file of web/dist the test reads (the app is built);
// launch: more of puppeteer's launch options (a default viewport).
export async function setUp({ name, serveArgs = [], needs = "index.html", launch = {} }) {
  const exe = process.argv[2];
  const shots = resolve(process.argv[3] || join(webDir, "..", "build", "screenshots"));
  const chromium = chromiumPath();
  if (!exe || !existsSync(exe)) {
    console.error(`no boneyard executable: ${exe}`);
    process.exit(2);
  }
  if (!existsSync(join(webDir, "dist", needs))) {
    console.error("web/dist is not built: cd web && npm run build");
    process.exit(2);
  }
  const puppeteer = (await import("puppeteer-core")).default;
  mkdirSync(shots, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), `boneyard-${name}-`));
  const server = spawn(
    exe,
    ["serve", "--port", "0", "--db", join(tmp, "t.db"), "--static", join(webDir, "dist"), ...serveArgs],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const port = await new Promise((res, rej) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) res(Number(m[1]));
    });
    server.stderr.on("data", (d) => process.stderr.write(d));
    server.on("exit", (c) => rej(new Error("server exited " + c)));
    setTimeout(() => rej(new Error("server did not start")), 15000);
  });
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--lang=en-US", "--disable-dev-shm-usage"],
      ...launch,
    });
  } catch (e) {
    server.kill("SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const H = {
    exe,
    shots,
    tmp,
    server,
    browser,
    port,
    base: `http://127.0.0.1:${port}`,
    failures: 0,
    check: (cond, what) => {
      if (!cond) {
        console.error("FAIL " + what);
        H.failures++;
      } else console.log("ok   " + what);
    },
    // An exception that ended the test's body.
    fail: (e) => {
      console.error("FAIL " + (e.stack || e));
      H.failures++;
    },
    close: async () => {
      await browser.close().catch(() => {});
      server.kill("SIGTERM");
      rmSync(tmp, { recursive: true, force: true });
    },
  };
  return H;
}

// The tables' tests' helpers (defects, polish): a page of its own (a fresh
// browser context, its language chosen, a page error counted as a failure),
// the HTTP API, a table of bots without delay, and waits.
export function tableHelpers(H) {
  const { base, browser } = H;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  async function newPage(viewport = { width: 1280, height: 800 }, lang = "en") {
    const page = await (await openContext(browser)).newPage();
    await page.setViewport(viewport);
    await page.evaluateOnNewDocument((l) => localStorage.setItem("boneyard.lang", l), lang);
    page.on("pageerror", (e) => {
      console.error("page error: " + e.message);
      H.failures++;
    });
    return page;
  }
  const api = async (method, path, body) => {
    const r = await fetch(base + path, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const j = await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(j)}`);
    return j;
  };
  const table = (game, options, seats, extra = {}) =>
    api("POST", "/api/tables", { game, options, seats, bot_delay_ms: 0, ...extra });
  async function untilOver(t, secs = 60) {
    for (let i = 0; i < secs * 10; i++) {
      if ((await api("GET", `/api/tables/${t.id}?token=${t.spectate}`)).status === "over") return true;
      await sleep(100);
    }
    return false;
  }
  const until = (page, f, arg, secs = 15) =>
    page.waitForFunction(f, { timeout: secs * 1000 }, arg).then(
      () => true,
      () => false,
    );
  return { sleep, newPage, api, table, untilOver, until };
}

// The lobby's family tab, then (if given) one of its games: by the elements
// themselves, not by where they are. What the server answered late once
// moved the form (the leaderboard above it, the banner of a game in play in
// the flow), so a click at the tab's old place could miss it (CI once found
// no Texas 42 game to pick: the click had not reached the Texas 42 tab).
export async function chooseGame(page, family, preset) {
  const tab = `[data-family="${family}"]`;
  await page.waitForSelector(tab);
  await page.$eval(tab, (e) => e.click());
  await page.waitForSelector(`${tab}[aria-selected="true"]`);
  if (!preset) return;
  const game = `input[name=preset][value="${preset}"]`;
  await page.waitForSelector(game);
  await page.$eval(game, (e) => e.click());
  await page.waitForFunction((s) => document.querySelector(s)?.checked, {}, game);
}

// The lobby's "Create the table", then the table: by the button itself, for
// the same reason.
export async function createTable(page, timeout = 30000) {
  await Promise.all([page.waitForSelector(".table", { timeout }), page.$eval("#create", (e) => e.click())]);
}
