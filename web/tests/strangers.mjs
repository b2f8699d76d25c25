// Strangers meeting in the app (issue 34, defects 1, 3, 4, 7) in headless
// Chromium against a real `boneyard serve` (its turn clock's second 40 ms;
// two browsers from two addresses, through a trusted proxy's header):
// - 3: the lobby offers Rated and Casual quick match and sends `rated`; the
//   waiting card, the table header say rated and the clock; ratings stand
//   beside names ("1500?" provisional, said in words); a guest at a rated
//   table is said to make it unrated; the game-over dialog shows each
//   rating's change (+N / −N).
// - 1: the quick-match table has a clock, shown before the game starts; a
//   stranger who never moves can be aborted by the other once their clock
//   ran out, and both pages say the game was aborted.
// - 7: my own clock stands beside my own name; a bot's move for a person
//   who ran out of time is logged as the bot's.
// - 4: "Play again" offers a rematch: the other, reading the dialog, is not
//   pulled away, and sees the offer; on Accept both move to the new table,
//   which keeps the terms.
// Screenshots (to be looked at): SHOTS/strangers-*.png at 1280x800, 390x844
// and 844x390.
//   node tests/strangers.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) with a message when Chromium is missing.

import { join } from "node:path";
import { openContext, setUp } from "./harness.mjs";

const H = await setUp({
  name: "strangers",
  serveArgs: [
    "--quickmatch-wait",
    "5",
    "--clock-second-ms",
    "40",
    "--rematch-wait",
    "30",
    "--trusted-proxy",
    "127.0.0.1",
  ],
});
const { shots, base, browser, check } = H;
const SIZES = [
  [1280, 800],
  [390, 844],
  [844, 390],
];

async function newPage(addr, viewport = { width: 1280, height: 800 }) {
  const page = await (await openContext(browser)).newPage();
  await page.setViewport(viewport);
  // Two people on two networks (a rated quick match never pairs one address).
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": addr });
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  return page;
}
const api = async (method, path, body, addr = "10.9.9.9") => {
  const r = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", "x-forwarded-for": addr },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, j: await r.json().catch(() => null) };
};
const text = (p, sel) => p.$eval(sel, (e) => e.textContent).catch(() => "");
const waitText = (p, sel, re, timeout = 10000) =>
  p
    .waitForFunction(
      (s, r) => new RegExp(r).test(document.querySelector(s)?.textContent || ""),
      { timeout },
      sel,
      re.source,
    )
    .then(
      () => true,
      () => false,
    );
const shoot = async (p, name) => {
  const v = p.viewport();
  for (const [w, hh] of SIZES) {
    await p.setViewport({ width: w, height: hh });
    await new Promise((r) => setTimeout(r, 250));
    await p.screenshot({ path: join(shots, `strangers-${name}-${w}x${hh}.png`) });
  }
  await p.setViewport(v);
};

try {
  // ---------------------------------------------------------------- defect 3 and 1: rated quick match
  const pa = await newPage("10.0.0.1"),
    pb = await newPage("10.0.0.2", { width: 390, height: 844 });
  const asked = [];
  for (const p of [pa, pb])
    p.on("request", (r) => {
      if (r.url().endsWith("/api/quickmatch") && r.method() === "POST") asked.push(JSON.parse(r.postData() || "{}"));
    });
  // Both reach the name prompt first and then ask one right after the other:
  // the first to ask waits only --quickmatch-wait seconds before bots fill
  // the table, and a loaded machine may take longer than that to load a page.
  for (const [p, name] of [
    [pa, "Ana"],
    [pb, "Bea"],
  ]) {
    await p.goto(base + "/");
    await p.waitForSelector('button[data-qm="latin"]');
    check(!!(await p.$("#qm-rated")) && !!(await p.$("#qm-casual")), "the lobby offers Rated and Casual quick match");
    await p.click("#qm-rated");
    await p.click('button[data-qm="latin"]');
    await p.waitForSelector("#qm-name");
    await p.type("#qm-name", name);
  }
  await pa.click("#qm-name-save");
  await pb.click("#qm-name-save");
  check(await waitText(pa, "#qm-terms", /Rated/), "the waiting card says the table will be rated");
  const terms = await text(pa, "#qm-terms");
  check(/30 s a move \+ 30 s extra/.test(terms), `the waiting card shows the clock before the game (${terms})`);
  const at = async (p) => {
    await p.waitForFunction(() => /[?&]t=/.test(location.search), { timeout: 20000 });
    return new URL(p.url());
  };
  const ua = await at(pa),
    ub = await at(pb);
  check(ua.searchParams.get("t") === ub.searchParams.get("t"), "two strangers of two networks meet at one rated table");
  check(
    asked.length >= 2 && asked.every((b) => b.rated === true),
    `the lobby sends "rated" (${JSON.stringify(asked)})`,
  );
  const id = ua.searchParams.get("t");
  const tokA = ua.searchParams.get("k") || ua.hash.replace(/^#k=/, ""),
    tokB = ub.searchParams.get("k") || ub.hash.replace(/^#k=/, "");
  await pa.waitForSelector("#table-terms", { timeout: 10000 });
  const head = await text(pa, "#table-terms");
  check(/Rated/.test(head) && /30 s a move/.test(head), `the table's header says rated and the clock (${head})`);
  const rated = await pa
    .waitForSelector(".opp-name .rating.provisional", { timeout: 10000 })
    .then((e) => e.evaluate((x) => ({ t: x.textContent, title: x.title })))
    .catch(() => null);
  check(
    rated && /^1500\?$/.test(rated.t) && /provisional/i.test(rated.title),
    `a stranger's rating stands beside the name, provisional said in words (${JSON.stringify(rated)})`,
  );
  // The state, for the tokens and the seats (the page's own link holds them).
  const state = async (tok) => (await api("GET", `/api/tables/${id}?token=${tok}`)).j;
  const sa = await state(tokA);
  check(sa && sa.rated === true && sa.clock && sa.clock.move_s === 30, "the quick-match table is rated and timed");
  await shoot(pa, "rated-table");
  // Two of one network asking for a rated game: never one table, so the
  // second's wait counts only herself and says why ("2 of 4 here" promised
  // a table the two never shared).
  {
    const [ph, pi] = [await newPage("10.3.0.1"), await newPage("10.3.0.1")];
    for (const [p, name] of [
      [ph, "Hal"],
      [pi, "Ida"],
    ]) {
      await p.goto(base + "/");
      await p.waitForSelector('button[data-qm="texas-42"]');
      await p.click("#qm-rated");
      await p.click('button[data-qm="texas-42"]');
      await p.waitForSelector("#qm-name");
      await p.type("#qm-name", name);
      await p.click("#qm-name-save");
      await p.waitForSelector(".qm-wait");
    }
    await pi.waitForSelector("#qm-same-network", { timeout: 5000 }).catch(() => {});
    const said = (await text(pi, ".qm-wait")) + " / " + (await text(pi, "#qm-same-network"));
    check(
      /1 of 4 here/.test(said) && /never seats two players of one network/.test(said),
      `a rated wait counts only who could share the table, and says why (${said})`,
    );
    for (const p of [ph, pi]) await p.close();
  }

  // ---------------------------------------------------------------- defect 7: my clock by my name
  const mine = await pa
    .waitForSelector(".turnbar .my-seat", { timeout: 10000 })
    .then((e) => e.evaluate((x) => x.textContent))
    .catch(() => "");
  check(/^You: /.test(mine) && /extra time|\d+ s/.test(mine), `my own time stands beside my own name (${mine})`);

  // ---------------------------------------------------------------- defect 1: abort
  // Bea never moves; Ana plays her own turns (by the API: the clock is fast).
  // Ana's own clock may run out too while the page is looked at (a move is
  // 1.2 s here): the game is abortable for Bea's idleness only once Ana
  // moved, so the idle seat named must be Bea's, read after Ana's move.
  const seatB = (await state(tokB))?.seat;
  const deadline = Date.now() + 40000;
  let abortable = false;
  while (Date.now() < deadline && !abortable) {
    let s = await state(tokA);
    if (s && s.to_act) {
      await api("POST", `/api/tables/${id}/moves`, { token: tokA, move: s.legal[0] });
      s = await state(tokA);
    }
    // Abortable once Bea's clock ran out; the bot's move for Bea follows.
    // (A loaded machine may run Ana's clock out too: the bot's move for Bea is waited for by its seat.)
    abortable = !!(
      s &&
      s.abortable &&
      s.abortable.idle_seat === seatB &&
      (s.bot_played || []).some((b) => b.seat === seatB)
    );
    await new Promise((r) => setTimeout(r, 60));
  }
  check(abortable, "the game of a stranger who never moved becomes abortable once their clock ran out");
  const btn = await pa.waitForSelector("#abort", { timeout: 8000 }).catch(() => null);
  check(!!btn, "the other player sees the Abort button");
  check(!(await pb.$("#abort")), "the idle one does not");
  const log = await pa.$eval(".log", (e) => e.textContent).catch(() => "");
  check(
    /A bot for Bea[^]*\(time ran out\)/.test(log),
    `the bot's move for Bea is logged as the bot's (${log.slice(-300)}; ${JSON.stringify((await state(tokA)).bot_played)})`,
  );
  if (btn) await btn.click();
  check(await waitText(pa, "#aborted", /aborted/), "the page says the game was aborted");
  check(await waitText(pb, "#aborted", /aborted/), "and so does the idle stranger's");

  // ---------------------------------------------------------------- defect 3 and 4: the end and the rematch
  const ann = (await api("POST", "/api/players", { name: "Ann" }, "10.1.0.1")).j,
    bob = (await api("POST", "/api/players", { name: "Bob" }, "10.1.0.2")).j;
  const made = (
    await api("POST", "/api/tables", {
      game: "two-draw",
      options: { target: "1" },
      seats: ["human", "human"],
      rated: true,
      clock_s: 60,
      bank_s: 30,
      key: ann.key,
    })
  ).j;
  const tid = made.id,
    t0 = made.tokens["0"],
    t1 = made.tokens["1"];
  // Each joins from their own network (two of one are not rated together).
  await api("POST", `/api/tables/${tid}/join`, { token: t0 }, "10.1.0.1");
  await api("POST", `/api/tables/${tid}/join`, { token: t1, key: bob.key }, "10.1.0.2");
  for (let guard = 0; guard < 2000; guard++) {
    const s0 = (await api("GET", `/api/tables/${tid}?token=${t0}`)).j;
    if (s0.status === "over") break;
    const s1 = (await api("GET", `/api/tables/${tid}?token=${t1}`)).j;
    if (s0.to_act) await api("POST", `/api/tables/${tid}/moves`, { token: t0, move: s0.legal[0] });
    else if (s1.to_act) await api("POST", `/api/tables/${tid}/moves`, { token: t1, move: s1.legal[0] });
  }
  const pc = await newPage("10.1.0.1"),
    pd = await newPage("10.1.0.2", { width: 390, height: 844 });
  for (const [p, who, tok] of [
    [pc, ann, t0],
    [pd, bob, t1],
  ]) {
    await p.goto(base + "/");
    await p.evaluate((x) => localStorage.setItem("boneyard.player", JSON.stringify(x)), who);
    await p.goto(`${base}/?t=${tid}&k=${tok}`);
  }
  const changes = await pc
    .waitForSelector("#rating-changes", { timeout: 10000 })
    .then((e) => e.evaluate((x) => x.textContent))
    .catch(() => "");
  check(
    /You|Ann/.test(changes) && /Bob/.test(changes) && /\+\d+/.test(changes) && /−\d+/.test(changes),
    `the game-over dialog shows each rating's change (${changes})`,
  );
  await shoot(pc, "game-over");
  // A guest at a rated table: said before the end.
  const g = (await api("POST", "/api/tables", { game: "two-draw", seats: ["human", "human"], rated: true })).j;
  await api("POST", `/api/tables/${g.id}/join`, { token: g.tokens["1"], name: "Gus" });
  const pg = await newPage("10.2.0.1");
  await pg.goto(base + "/");
  await pg.evaluate((x) => localStorage.setItem("boneyard.player", JSON.stringify(x)), ann);
  await pg.goto(`${base}/?t=${g.id}&k=${g.tokens["0"]}`);
  check(
    await waitText(pg, "#table-terms", /will not be rated: Gus plays as a guest/),
    "a guest at a rated table: the page says the game will not be rated, and why",
  );
  // ... and its chip says "Not rated", not "Rated" beside that reason.
  const chips = await pg.$$eval("#table-terms .term", (e) => e.map((x) => x.textContent));
  check(
    chips[0] === "Not rated" && !chips.includes("Rated"),
    `a rated table's game that will not count is not marked "Rated" (${chips.join(" | ")})`,
  );
  await pg.close();

  // Play again: an offer; Bob, reading the dialog, stays where he is.
  const bobUrl = pd.url();
  await pc.click("#rematch");
  check(await waitText(pc, "#rematch-waiting", /waiting for the others/), "Ann's dialog says the offer waits for Bob");
  check(await waitText(pd, "#rematch-offer", /Ann offers a rematch/), "Bob's dialog shows Ann's offer");
  await new Promise((r) => setTimeout(r, 800));
  check(pd.url() === bobUrl && !!(await pd.$("#rating-changes")), "Bob is not pulled away from the game he reads");
  await pd.click("#rematch"); // Accept
  await pc.waitForFunction((t) => !location.search.includes(t), { timeout: 10000 }, tid).catch(() => {});
  const na = new URL(pc.url());
  if (na.searchParams.get("t") === tid)
    console.error(
      "after Accept: " + JSON.stringify((await api("GET", `/api/tables/${tid}?token=${t1}`)).j).slice(0, 1500),
    );
  await pd.waitForFunction((u) => location.href !== u, { timeout: 10000 }, bobUrl).catch(() => {});
  check(!!na && na.searchParams.get("t") !== tid, "on Accept, Ann moves to the rematch");
  check(
    pd.url() !== bobUrl && new URL(pd.url()).searchParams.get("t") === na?.searchParams.get("t"),
    "and so does Bob",
  );
  check(await waitText(pc, "#table-terms", /Rated/), "the rematch keeps the terms: rated");
  const rt = await text(pc, "#table-terms");
  check(/60 s a move \+ 30 s extra/.test(rt), `and the clock (${rt})`);

  // ---------------------------------------------------------------- defect 3: the open-table row
  const pub = (
    await api("POST", "/api/tables", {
      game: "two-draw",
      options: { target: "50" },
      seats: ["human", "open"],
      public: true,
      rated: true,
      clock_s: 15,
      key: ann.key,
    })
  ).j;
  const pl = await newPage("10.3.0.1", { width: 390, height: 844 });
  await pl.goto(base + "/");
  const rowSel = `.open-tables li[data-table="${pub.id}"]`;
  await pl.waitForSelector(rowSel, { timeout: 10000 }).catch(() => {});
  const row = await text(pl, rowSel);
  check(
    /Rated/.test(row) && /15 s a move/.test(row) && /to 50/.test(row) && /Ann\s*\d+\?/.test(row),
    `the open-table row shows rated, the clock, a target not the game's own and the rating by the name (${row})`,
  );
  await pl.screenshot({ path: join(shots, "strangers-lobby-390x844.png") });
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all strangers checks passed");
process.exit(H.failures ? 1 : 0);
