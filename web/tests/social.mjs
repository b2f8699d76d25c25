// Watch, friends, challenges, block and report in the app (issue 34: 11,
// 12, 13) in headless Chromium against a real `boneyard serve`. The Watch
// page lists a game being played with its players and ratings and opens it
// as a spectator (no hand shown); a player's page links their game; from
// it Ann follows Bob (her lobby says he is playing, with a link to watch),
// blocks Cy (Cy's chat lines vanish at Ann's table), reports Cy, and
// challenges Bob, who accepts in his lobby and lands at the table, as
// does Ann. Screenshots build/screenshots/social-*.png (1280x800, 390x844).
//   node tests/social.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) with a message when Chromium is missing.

import { join } from "node:path";
import { openContext, setUp } from "./harness.mjs";

const H = await setUp({ name: "social", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, browser, check } = H;

async function api(method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${j.error}`);
  return j;
}
async function asPlayer(p, viewport = { width: 1280, height: 800 }) {
  const page = await (await openContext(browser)).newPage();
  await page.setViewport(viewport);
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  page.on("dialog", async (d) => {
    console.error("a script ran: " + d.message());
    H.failures++;
    await d.dismiss().catch(() => {});
  });
  if (p) {
    await page.goto(base + "/?rules=line");
    await page.evaluate((pl) => localStorage.setItem("boneyard.player", JSON.stringify(pl)), p);
  }
  return page;
}

try {
  const ann = await api("POST", "/api/players", { name: "Ann" });
  const bob = await api("POST", "/api/players", { name: "Bob" });
  const cy = await api("POST", "/api/players", { name: "Cy <b>x</b>" });
  // Bob and Cy play a listed game (a stranger's game, as quick match's are).
  const tb = await api("POST", "/api/tables", {
    game: "latin",
    seats: ["human", "human", "bot:casual", "bot:casual"],
    listed: true,
    key: bob.key,
  });
  await api("POST", `/api/tables/${tb.id}/join`, { token: tb.tokens["0"] });
  await api("POST", `/api/tables/${tb.id}/join`, { token: tb.tokens["1"], key: cy.key });

  // The Watch page, from the lobby's header.
  const pw = await asPlayer(null);
  await pw.goto(base + "/");
  await pw.waitForSelector("#watch-link");
  await pw.click("#watch-link");
  await pw.waitForSelector(`.watch-list li[data-table="${tb.id}"]`, { timeout: 10000 });
  const row = await pw.$eval(`.watch-list li[data-table="${tb.id}"]`, (e) => e.textContent);
  check(/Bob/.test(row) && /Cy <b>x<\/b>/.test(row), `the watch list names the players as text (${row})`);
  check((await pw.$$(".watch-list b")).length === 0, "a name that is markup stays text in the watch list");
  await pw.screenshot({ path: join(shots, "social-watch-1280.png") });
  const phone = await asPlayer(null, { width: 390, height: 844 });
  await phone.goto(base + "/?watch");
  // 30 s: a fresh clone's run starts this beside the cluster tests, and a new
  // phone context there once took over 10 s to list the game.
  await phone.waitForSelector(`.watch-list li[data-table="${tb.id}"]`, { timeout: 30000 });
  const fits = await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  check(fits, "the watch list fits a 390 px wide phone");
  await phone.screenshot({ path: join(shots, "social-watch-390.png") });
  // Watching: the spectator's table, without a hand.
  await pw.click(`.watch-list li[data-table="${tb.id}"] .watch-open`);
  await pw.waitForFunction((s) => location.search.includes("k=" + s), { timeout: 10000 }, tb.spectate);
  await pw.waitForSelector(".seat-name, .board, .table", { timeout: 15000 });
  const spectator = await pw.evaluate(
    async (url) => (await (await fetch(url)).json()).seat,
    `/api/tables/${tb.id}?token=${tb.spectate}`,
  );
  check(spectator === null, "the watch link opens the game as a spectator (no seat)");

  // Until what Ann already does about Bob has loaded, Follow and Block are
  // disabled (a click would act on a guess): hold that request, look, let it go.
  const early = await asPlayer(ann);
  await early.setRequestInterception(true);
  const held = [];
  let holding = true;
  early.on("request", (r) => {
    if (holding && r.url().includes("/api/social?")) held.push(r);
    else r.continue();
  });
  await early.goto(base + `/?player=${bob.id}`);
  await early.waitForSelector("#player-actions #follow");
  check(
    await early.$eval("#player-actions", (e) =>
      ["#follow", "#block"].every((b) => e.querySelector(b).disabled && !e.hasAttribute("data-known")),
    ),
    "Follow and Block are disabled while what I do about the player loads",
  );
  for (let i = 0; held.length === 0 && i < 100; ++i) await new Promise((r) => setTimeout(r, 50));
  check(held.length > 0, "the player's page asks what I do about them");
  holding = false;
  for (const r of held) r.continue();
  await early.waitForSelector('[data-known="true"] #follow', { timeout: 10000 });
  check(
    await early.$eval("#player-actions", (e) => ["#follow", "#block"].every((b) => !e.querySelector(b).disabled)),
    "Follow and Block are enabled once it has loaded",
  );
  await early.close();

  // Ann opens Bob's page: his game, to watch; she follows him.
  const pa = await asPlayer(ann);
  await pa.goto(base + `/?player=${bob.id}`);
  await pa.waitForSelector(".live-games .watch-open", { timeout: 10000 });
  check(
    (await pa.$eval(".live-games .watch-open", (e) => e.getAttribute("href"))) === `/?t=${tb.id}&k=${tb.spectate}`,
    "a player's page links their game being played, to watch",
  );
  await pa.waitForSelector('[data-known="true"] #follow');
  await pa.click("#follow");
  await pa.waitForFunction(() => document.querySelector("#follow")?.getAttribute("aria-pressed") === "true");
  check(true, "Follow on a player's page follows them");
  await pa.screenshot({ path: join(shots, "social-player-1280.png") });
  const pap = await asPlayer(ann, { width: 390, height: 844 });
  await pap.goto(base + `/?player=${bob.id}`);
  await pap.waitForSelector("#player-actions #follow", { timeout: 10000 });
  await pap.waitForFunction(() => document.querySelector("#follow")?.getAttribute("aria-pressed") === "true");
  check(
    await pap.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    "the player page fits a 390 px wide phone",
  );
  await pap.screenshot({ path: join(shots, "social-player-390.png"), fullPage: true });

  // Bob has his table open: Ann's lobby says he is playing, with a link to watch.
  const pb = await asPlayer(bob);
  await pb.goto(base + `/?t=${tb.id}&k=${tb.tokens["0"]}`);
  await pb.waitForSelector("#chat-input", { timeout: 15000 });
  await pa.goto(base + "/");
  await pa.waitForSelector(`#friends li[data-player="${bob.id}"]`, { timeout: 10000 });
  await pa.waitForFunction(
    (id) => !!document.querySelector(`#friends li[data-player="${id}"] .watch-friend`),
    { timeout: 20000 },
    bob.id,
  );
  check(
    await pa.$eval(`#friends li[data-player="${bob.id}"]`, (e) => e.classList.contains("online")),
    "the lobby shows a followed player who is playing as online, with a link to watch",
  );

  // Ann blocks Cy from Cy's page; at a table with Cy, Cy's lines are hidden for her.
  await pa.goto(base + `/?player=${cy.id}`);
  await pa.waitForSelector('[data-known="true"] #block');
  await pa.click("#block");
  await pa.waitForFunction(() => document.querySelector("#block")?.getAttribute("aria-pressed") === "true");
  const tc = await api("POST", "/api/tables", {
    game: "latin",
    seats: ["human", "human", "human", "bot:casual"],
    key: ann.key,
  });
  await api("POST", `/api/tables/${tc.id}/join`, { token: tc.tokens["1"], key: cy.key });
  await api("POST", `/api/tables/${tc.id}/join`, { token: tc.tokens["2"], key: bob.key });
  await api("POST", `/api/tables/${tc.id}/chat`, { token: tc.tokens["1"], text: "blocked words" });
  await api("POST", `/api/tables/${tc.id}/chat`, { token: tc.tokens["2"], text: "friendly words" });
  await pa.goto(base + `/?t=${tc.id}&k=${tc.tokens["0"]}`);
  await pa.waitForFunction(() => /friendly words/.test(document.querySelector(".chat-lines")?.textContent || ""), {
    timeout: 15000,
  });
  const lines = await pa.$eval(".chat-lines", (e) => e.textContent);
  check(!/blocked words/.test(lines), "a blocked player's chat line is hidden for the blocker");
  const cyView = await asPlayer(cy);
  await cyView.goto(base + `/?t=${tc.id}&k=${tc.tokens["1"]}`);
  await cyView.waitForFunction(() => /blocked words/.test(document.querySelector(".chat-lines")?.textContent || ""), {
    timeout: 15000,
  });
  check(true, "the blocked player's own line is still shown to them and the others");

  // Ann reports Cy for abuse, with the game attached.
  await pa.goto(base + `/?player=${cy.id}`);
  await pa.waitForSelector('[data-known="true"] details.report');
  await pa.click("details.report summary");
  await pa.select("#report-game", tc.id);
  await pa.type("#report-text", "rude in chat");
  await pa.click("#report-send");
  await pa.waitForFunction(() => /report was sent/.test(document.querySelector("#social-status")?.textContent || ""));
  check(true, "a report is sent from the player's page and thanked for");
  await pa.click("#report-send");
  await pa.waitForFunction(() => /already reported/.test(document.querySelector("#social-status")?.textContent || ""));
  check(true, "a second report of the same game is refused in words");

  // Ann challenges Bob to Jamaica; Bob accepts in his lobby; both land at the table.
  await pa.goto(base + `/?player=${bob.id}`);
  // The form is drawn again once the page knows what Ann does about Bob
  // (data-known): a click before that can land on a button just replaced.
  await pa.waitForSelector('[data-known="true"] #challenge-send');
  await pa.select("#challenge-game", "jamaica");
  await pa.click("#challenge-send");
  await pa.waitForFunction(() => /Challenge sent/.test(document.querySelector("#social-status")?.textContent || ""));
  await pb.goto(base + "/");
  await pb.waitForSelector("#friends .to-me li button.accept", { timeout: 10000 });
  check(
    /Ann/.test(await pb.$eval("#friends .to-me li", (e) => e.textContent)),
    "the challenged sees who challenges them",
  );
  await pb.click("#friends .to-me li button.accept");
  await pb.waitForFunction(() => /[?&]t=/.test(location.search), { timeout: 10000 });
  const bobTable = new URL(pb.url()).searchParams.get("t");
  await pa.goto(base + "/");
  await pa.waitForSelector("#friends .from-me a.go-table", { timeout: 20000 });
  await pa.click("#friends .from-me a.go-table");
  await pa.waitForFunction((id) => new URLSearchParams(location.search).get("t") === id, { timeout: 10000 }, bobTable);
  check(true, "an accepted challenge takes both players to one table");
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all social checks passed");
process.exit(H.failures ? 1 : 0);
