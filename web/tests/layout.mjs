// The browser app's layout (issue 21, item 9), measured in headless Chromium
// against a real `boneyard serve`: boxes, not pixels. The lobby's seat cards,
// labels, presets and drop zone; tile sizes on a phone; prompt and hand on a
// landscape phone; the line laid as a snake at every width. It also saves the
// screenshots of every family in en, es and ja at 1280x800, 768x1024, 390x844
// and 844x390 (SCREENSHOT_DIR/sizes/) for a person to look at.
//   node tests/layout.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) when Chromium is missing.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chooseGame, createTable, openContext, setUp } from "./harness.mjs";

const H = await setUp({ name: "layout", serveArgs: ["--strong-ms", "30"] });
const { shots, base, browser, check } = H;
const only = process.env.LAYOUT_ONLY || ""; // a regex over the parts' names (development)
mkdirSync(join(shots, "sizes"), { recursive: true });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SIZES = [
  ["desktop", { width: 1280, height: 800 }],
  ["tablet", { width: 768, height: 1024 }],
  ["phone", { width: 390, height: 844 }],
  ["landscape", { width: 844, height: 390 }],
];
const VP = Object.fromEntries(SIZES);
const LANGS = ["en", "es", "ja"];
const FAMILIES = [
  ["line", "latin"],
  ["mexican-train", "mexican-train"],
  ["texas-42", "texas-42"],
  ["dice-and-dominoes", "dice-and-dominoes"],
];

async function newPage(ctx, viewport, lang = "en") {
  const page = await ctx.newPage();
  await page.setViewport(viewport);
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  await page.evaluateOnNewDocument((l) => localStorage.setItem("boneyard.lang", l), lang);
  return page;
}
async function setLang(page, lang) {
  await page.select("select.lang", lang);
  // Spanish and Japanese are fetched the first time they are chosen.
  await page.waitForFunction((l) => document.documentElement.lang === l, {}, lang);
  await sleep(60);
}
async function resize(page, vp) {
  await page.setViewport(vp);
  // The table and the replay redraw 80 ms after a resize (debounced): wait
  // until each view says it is drawn for this size (data-drawn-for), not a
  // guessed delay, which a loaded machine outran.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("[data-drawn-for]")].every(
        (e) => e.dataset.drawnFor === `${innerWidth}x${innerHeight}`,
      ),
    { timeout: 5000 },
  );
  await page
    .waitForFunction(() => !document.getAnimations().some((a) => a.playState === "running"), { timeout: 3000 })
    .catch(() => {});
}
const api = async (path, body) => {
  const r = await fetch(
    base + path,
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
// A whole game among bots, for its replay: the steps, the table's id.
async function botGame(game, options) {
  const t = await api("/api/tables", {
    game,
    options,
    seats: ["bot:casual", "bot:casual", "bot:casual", "bot:casual"],
    bot_delay_ms: 0,
  });
  for (let i = 0; i < 600; i++) {
    const s = await api(`/api/tables/${t.id}?token=${t.spectate}`);
    if (s.status === "over") break;
    await sleep(100);
  }
  const first = await api(`/api/tables/${t.id}/replay?from=0`);
  while (first.next != null) {
    const p = await api(`/api/tables/${t.id}/replay?from=${first.next}`);
    first.steps.push(...p.steps);
    first.next = p.next;
  }
  return { id: t.id, steps: first.steps };
}

// ------------------------------------------------------------------ measures
// Each runs in the page and returns a list of what is wrong (empty: fine).

// Every seat's drop-down inside its card; every seat label on one line.
const lobbySlips = () => {
  const out = [];
  // Lines of text: the text's boxes that lie below one another (a smaller font on the same line overlaps).
  const lines = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    const boxes = [...r.getClientRects()].filter((x) => x.width > 0).sort((a, b) => a.top - b.top);
    let n = 0,
      bottom = -Infinity;
    for (const b of boxes) {
      if (b.top >= bottom - 2) n++;
      bottom = Math.max(bottom, b.bottom);
    }
    return n;
  };
  for (const row of document.querySelectorAll(".seat-row")) {
    const rb = row.getBoundingClientRect(),
      sel = row.querySelector("select").getBoundingClientRect();
    if (sel.right > rb.right + 0.5 || sel.left < rb.left - 0.5)
      out.push(
        `seat drop-down ${Math.round(sel.left)}..${Math.round(sel.right)} outside its card ${Math.round(rb.left)}..${Math.round(rb.right)}`,
      );
    const label = row.querySelector(".seat-label");
    if (lines(label) > 1) out.push(`seat label "${label.textContent}" on ${lines(label)} lines`);
  }
  // The presets: every card whole, no scroll box inside the page.
  const box = document.querySelector(".presets");
  if (box && box.scrollHeight > box.clientHeight + 1)
    out.push(`the preset list scrolls inside a ${box.clientHeight} px box (${box.scrollHeight} px of cards)`);
  // The drop zone: one box around its text (an inline box's border runs through wrapped lines).
  const drop = document.querySelector(".drop");
  if (drop && drop.getClientRects().length !== 1) out.push(`the drop zone is ${drop.getClientRects().length} boxes`);
  if (drop) {
    const d = drop.getBoundingClientRect(),
      r = document.createRange();
    r.selectNodeContents(drop);
    const t = r.getBoundingClientRect();
    if (t.top < d.top || t.bottom > d.bottom) out.push("the drop zone's text crosses its border");
  }
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push(`the lobby is ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
  return out;
};

// A table: nothing wider than the screen, seat names whole, tiles big enough,
// prompt and hand (and their buttons) on screen.
const tableSlips = (minTile) => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push(`the table is ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
  for (const n of document.querySelectorAll(".opp-name"))
    if (n.scrollWidth > n.clientWidth + 1) out.push(`seat name "${n.textContent}" cut`);
  for (const [sel, min] of Object.entries(minTile)) {
    const small = [...document.querySelectorAll(sel)]
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && Math.min(r.width, r.height) < min - 0.5);
    if (small.length)
      out.push(
        `${small.length} tiles ${sel} under ${min} px (${Math.round(Math.min(small[0].width, small[0].height))} px)`,
      );
  }
  for (const sel of [".turnbar", ".hand-area .actions button", ".hand .htile"]) {
    for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (r.width && (r.bottom > innerHeight + 0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.left < -0.5)) {
        out.push(
          `${sel} off screen (${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)})`,
        );
        break;
      }
    }
  }
  return out;
};

// The line: a snake. Consecutive tiles touch, no two overlap, every tile
// inside the board, rows run the board's width and turn at its edges, and the
// opening tile lies near the middle.
const snakeSlips = () => {
  const out = [];
  const line = document.querySelector(".line");
  const tiles = [...document.querySelectorAll(".line .lt")];
  if (!line || tiles.length < 2) return out;
  const lb = line.getBoundingClientRect();
  const rs = tiles.map((t) => t.querySelector("svg").getBoundingClientRect());
  const s = Math.min(...rs.map((r) => Math.min(r.width, r.height)));
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push(`the page is ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
  rs.forEach((r, i) => {
    if (r.left < lb.left - 0.5 || r.right > lb.right + 0.5 || r.right > innerWidth + 0.5)
      out.push(`tile ${i} outside the line's box`);
    for (let j = i + 1; j < rs.length; j++) {
      const q = rs[j],
        w = Math.min(r.right, q.right) - Math.max(r.left, q.left),
        h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 1 && h > 1) out.push(`tiles ${i} and ${j} overlap`);
    }
    if (i) {
      const p = rs[i - 1];
      const gx = Math.max(0, Math.max(p.left, r.left) - Math.min(p.right, r.right)),
        gy = Math.max(0, Math.max(p.top, r.top) - Math.min(p.bottom, r.bottom));
      if (gx > s * 0.5 || gy > s * 0.5)
        out.push(`tiles ${i - 1} and ${i} do not touch (${Math.round(gx)}, ${Math.round(gy)} px apart)`);
    }
  });
  // Rows: the tiles' vertical centres, banded.
  const rows = new Map();
  rs.forEach((r) => {
    const k = Math.round((r.top + r.height / 2) / s);
    rows.set(k, (rows.get(k) || []).concat([r]));
  });
  // The turns: at the board's edges (within two tiles' widths), and there when a row cannot hold the line.
  const turns = tiles.map((t, i) => [t, rs[i]]).filter(([t]) => t.classList.contains("turn"));
  for (const [, r] of turns) {
    const edge = Math.min(r.left - lb.left, lb.right - r.right);
    if (edge > 2 * s + 2) out.push(`a turn ${Math.round(edge)} px from the board's edge`);
  }
  const fits = Math.floor(lb.width / (2 * s)); // plain tiles a row holds
  if (tiles.length > fits + 1 && !turns.length) out.push(`${tiles.length} tiles and no turn on a board for ${fits}`);
  const perRow = Math.max(...[...rows.values()].map((r) => r.length));
  if (perRow < Math.min(tiles.length, 4)) out.push(`at most ${perRow} tiles a row: a tower`);
  // Doubles crosswise: taller than wide in a row, the others wider (but the turns).
  const turned = tiles.filter(
    (t, i) => t.classList.contains("double") !== rs[i].height > rs[i].width && !t.classList.contains("turn"),
  ).length;
  if (turned) out.push(`${turned} tiles neither along the line nor doubles crosswise`);
  const o = tiles.findIndex((t) => t.classList.contains("opening"));
  if (o < 0) out.push("no opening tile marked");
  else {
    const c = (rs[o].left + rs[o].right) / 2;
    if (Math.abs(c - (lb.left + lb.right) / 2) > lb.width / 4)
      out.push(`the opening tile at ${Math.round(c - lb.left)} px of ${Math.round(lb.width)}`);
  }
  return out;
};

const run = (name) => !only || new RegExp(only).test(name);

try {
  const ctx = await openContext(browser);

  // ---------------------------------------------------------------- lobby
  if (run("lobby")) {
    const slips = [];
    for (const lang of LANGS) {
      const page = await newPage(ctx, VP.desktop, lang);
      await page.goto(base + "/");
      await page.waitForSelector(".seat-row");
      for (const [name, vp] of SIZES) {
        await page.setViewport(vp);
        for (const [family] of FAMILIES) {
          await chooseGame(page, family);
          for (const x of await page.evaluate(lobbySlips)) slips.push(`${lang} ${name} ${family}: ${x}`);
        }
        await chooseGame(page, "texas-42");
        await page.screenshot({ path: join(shots, "sizes", `lobby-${lang}-${name}.png`), fullPage: true });
        if (lang === "en") {
          await chooseGame(page, "line");
          await page.screenshot({ path: join(shots, "sizes", `lobby-presets-${name}.png`), fullPage: true });
        }
      }
      await page.close();
    }
    check(
      slips.length === 0,
      `the lobby: seat drop-downs in their cards, seat labels on one line, whole preset cards, one drop zone box, at 4 sizes in 3 languages (${slips.join("\n     ")})`,
    );
  }

  // A choice too long for its closed menu is written out beneath it (a phone
  // cut "Draw a tile before the deal; highest leads" short); a short one is not.
  if (run("lobby")) {
    const page = await newPage(ctx, VP.phone, "en");
    await page.goto(base + "/");
    await page.waitForSelector(".seat-row");
    await chooseGame(page, "line");
    await page.$$eval("details", (ds) => ds.forEach((d) => (d.open = true)));
    const line = (name) =>
      page.$eval(`select[name="${name}"]`, (s) => {
        const p = s.closest(".opt").querySelector(".opt-chosen");
        const r = p && !p.hidden ? p.getBoundingClientRect() : null;
        return { text: r && r.height > 0 ? p.textContent : "", chosen: s.selectedOptions[0].text };
      });
    await sleep(200); // the menus' sizes observed
    const long = await line("first_leader"),
      short = await line("players");
    check(
      long.text === "Draw a tile before the deal; highest leads" && long.chosen === long.text && short.text === "",
      `a phone writes out a long choice beneath its menu, not a short one (${JSON.stringify([long, short])})`,
    );
    await page.select('select[name="first_leader"]', "highest_double");
    await sleep(200);
    const changed = await line("first_leader");
    check(changed.text === "", `a choice that fits has no line beneath (${JSON.stringify(changed)})`);
    await page.close();
  }

  // ------------------------------------------------- the line as a snake
  if (run("snake")) {
    // havana: double-nine, ten tiles each: lines of thirty tiles and more.
    const game = await botGame("havana", { single_hand: "true" });
    let at = 0;
    game.steps.forEach((s, i) => {
      if ((s.view.line?.length ?? 0) > (game.steps[at].view.line?.length ?? 0)) at = i;
    });
    const longest = game.steps[at].view.line.length;
    const page = await newPage(ctx, VP.desktop);
    await page.goto(`${base}/?replay=${game.id}&step=${at}`);
    await page.waitForSelector(".line .lt");
    const slips = [];
    for (const [name, vp] of [
      ...SIZES,
      ["wide", { width: 1920, height: 1080 }],
      ["narrow", { width: 320, height: 640 }],
      ["mid", { width: 1024, height: 768 }],
    ]) {
      await resize(page, vp);
      for (const x of await page.evaluate(snakeSlips)) slips.push(`${name}: ${x}`);
      // The board in view beside the replay's controls (on a landscape phone they covered it).
      const seen = await page.evaluate(() => {
        const b = document.querySelector(".line").getBoundingClientRect(),
          head = document.querySelector(".replay-head").getBoundingClientRect();
        const bottom = Math.min(innerHeight, head.top > b.top ? head.top : innerHeight);
        return Math.max(0, Math.min(b.bottom, bottom) - Math.max(b.top, 0));
      });
      // At least about three rows of tiles, a row about 30 px at 320 wide (at
      // 320x640 the controls take the rest; a 100 px bound failed once at 99).
      if (seen < Math.min(90, vp.height / 4)) slips.push(`${name}: ${Math.round(seen)} px of the line in view`);
      if (SIZES.some(([n]) => n === name))
        await page.screenshot({ path: join(shots, "sizes", `line-snake-${name}.png`) });
    }
    check(
      longest >= 20 && slips.length === 0,
      `a line of ${longest} tiles lies as a snake at 7 widths (${slips.join("\n     ")})`,
    );
    // Seats are numbered from 1 everywhere: the hand's result under the
    // replay too (it showed the record's text: "seat 0: 2-1 (3 pips)").
    {
      const end = game.steps.findIndex((s) => s.hand);
      await page.goto(`${base}/?replay=${game.id}&step=${end}`);
      await page.waitForSelector(".replay-what");
      const text = await page.$eval(".replay-what", (e) => e.innerText);
      const cards = await page.$$eval(".opp .opp-name", (r) => r.map((e) => e.textContent.trim()));
      check(
        end > 0 &&
          !/\bseats? 0\b/i.test(text) &&
          /Seat 1\b/.test(text) &&
          /Seat 4\b/.test(text) &&
          cards.join() === "Seat 1,Seat 2,Seat 3,Seat 4",
        `the replay's hand result numbers seats as the seat cards do (${cards}; "${text.replace(/\s+/g, " ").slice(0, 160)}")`,
      );
    }
    // Stepping on patches the line: the tiles laid stay the same nodes, in place.
    await resize(page, VP.tablet);
    let back = at;
    while (back > 0 && game.steps[back].view.line.length > longest - 6) back--;
    await page.goto(`${base}/?replay=${game.id}&step=${back}`);
    await page.waitForSelector(".line .lt");
    await page.evaluate(() => {
      for (const t of document.querySelectorAll(".line .lt")) t.__mark = 1;
    });
    for (let i = back; i < at; i++) await page.click("#replay-next");
    await sleep(100);
    const kept = await page.evaluate(() => {
      const all = [...document.querySelectorAll(".line .lt")];
      return { marked: all.filter((t) => t.__mark === 1).length, all: all.length };
    });
    const before = game.steps[back].view.line.length;
    check(
      kept.marked === before && kept.all === longest,
      `stepping from ${before} to ${longest} tiles keeps the ${before} tiles' nodes (${kept.marked} kept)`,
    );
    await page.close();
  }

  // ---------------------------------------- tables: every family, 4 sizes
  if (run("tables")) {
    const slips = [];
    let n = 0;
    for (const [family, preset] of FAMILIES) {
      const page = await newPage(ctx, VP.desktop);
      await page.goto(`${base}/?botdelay=20`);
      await chooseGame(page, family, preset);
      await createTable(page);
      // My turn: the state holds still (bots wait for me) while it is measured.
      await page.waitForFunction(
        () =>
          document.querySelector(".table")?.dataset.toAct === "1" &&
          document.querySelector(".hand .htile, .actions .action[data-move]"),
        { timeout: 30000 },
      );
      for (const lang of LANGS) {
        await setLang(page, lang);
        for (const [name, vp] of SIZES) {
          await resize(page, vp);
          await page.screenshot({ path: join(shots, "sizes", `${family}-${lang}-${name}.png`) });
          n++;
          const min =
            name === "phone" || name === "landscape"
              ? { ".hand svg.tile": 26, ".train-tiles svg.tile": 22, ".station svg.tile": 22 }
              : { ".hand svg.tile": 30, ".train-tiles svg.tile": 24 };
          for (const x of await page.evaluate(tableSlips, min)) slips.push(`${family} ${lang} ${name}: ${x}`);
          // On a phone too, a bot's seat says it is a bot (a person and a bot must not look alike).
          if (name === "phone") {
            const bots = await page.$$eval(".opp .opp-kind.bot", (r) =>
              r.map((e) => getComputedStyle(e).display !== "none" && e.getBoundingClientRect().height > 0),
            );
            if (!bots.length || bots.includes(false))
              slips.push(`${family} ${lang} phone: the bots' seats are not marked as bots (${bots})`);
          }
        }
      }
      // The hint's tiles, readable too (they were 14 px).
      if (family === "line") {
        await resize(page, VP.phone);
        // A turn with a choice (the hint is offered for two moves or more).
        for (let i = 0; i < 12 && !(await page.$("#hint")); i++) {
          const v = await page.$eval(".table", (e) => Number(e.dataset.version));
          const b = await page.$(".hand .htile.legal, .actions .action[data-move]");
          if (b) await b.click().catch(() => {});
          if (await page.$(".chooser")) await page.click(".chooser .choices button").catch(() => {});
          await page
            .waitForFunction(
              (v0) => {
                const t = document.querySelector(".table");
                return Number(t.dataset.version) > v0 && t.dataset.toAct === "1";
              },
              { timeout: 20000 },
              v,
            )
            .catch(() => {});
        }
        await page.click("#hint");
        await page.waitForSelector(".hints .hint svg.tile", { timeout: 30000 }).catch(() => {});
        const sizes = await page.$$eval(".hints svg.tile", (r) =>
          r.map((e) => {
            const b = e.getBoundingClientRect();
            return Math.min(b.width, b.height);
          }),
        );
        if (!sizes.length || Math.min(...sizes) < 18) slips.push(`line: hint tiles ${sizes.map(Math.round)}`);
      }
      await page.close();
    }
    check(n === 48, `${n} screenshots: 4 families x 3 languages x 4 sizes`);
    check(
      slips.length === 0,
      `every family at 4 sizes in 3 languages: nothing wider than the screen, seat names whole, tiles readable, prompt and hand on screen (${slips.join("\n     ")})`,
    );
  }

  // ------------------------ Mexican Train: trains of double-twelve tiles
  if (run("trains")) {
    const game = await botGame("mexican-train", { single_hand: "on" });
    let at = 0;
    const laid = (s) => (s.view.trains || []).reduce((a, t) => a + t.tiles.length, 0);
    game.steps.forEach((s, i) => {
      if (!s.hand && laid(s) > laid(game.steps[at])) at = i;
    });
    const page = await newPage(ctx, VP.phone);
    await page.goto(`${base}/?replay=${game.id}&step=${at}`);
    await page.waitForSelector(".train-tiles svg.tile");
    const slips = [];
    for (const [name, vp] of SIZES) {
      await resize(page, vp);
      const min = name === "phone" || name === "landscape" ? 22 : 24;
      const r = await page.evaluate((min) => {
        const out = [];
        const tiles = [...document.querySelectorAll(".train-tiles svg.tile")].map((e) => e.getBoundingClientRect());
        const small = tiles.filter((b) => Math.min(b.width, b.height) < min - 0.5);
        if (small.length) out.push(`${small.length} train tiles under ${min} px`);
        for (const row of document.querySelectorAll(".train-tiles")) {
          const rb = row.getBoundingClientRect();
          const ts = [...row.querySelectorAll("svg.tile")].map((e) => e.getBoundingClientRect());
          if (ts.some((b) => b.right > rb.right + 0.5)) out.push("a train runs out of its row");
          if (ts.some((a) => ts.some((b) => b.top >= a.bottom - 1))) out.push("a train wraps to a second line");
        }
        return out;
      }, min);
      for (const x of r) slips.push(`${name}: ${x}`);
      await page.screenshot({ path: join(shots, "sizes", `mexican-train-trains-${name}.png`) });
    }
    check(
      laid(game.steps[at]) >= 10 && slips.length === 0,
      `mexican train: ${laid(game.steps[at])} tiles on the trains, at least 22 px on a phone, each train on its line (${slips.join("; ")})`,
    );
    await page.close();
  }

  // -------------------------- Texas 42: bids and the last trick, readable
  if (run("texas")) {
    const game = await botGame("texas-42", { single_hand: "true" });
    const at = game.steps.findIndex((s) => s.view.tricks?.length > 0 && s.view.trick?.length === 0);
    const page = await newPage(ctx, VP.phone);
    await page.goto(`${base}/?replay=${game.id}&step=${at}`);
    await page.waitForSelector(".last-trick svg.tile");
    // The replay's bar on an upright phone as the table's: the links, then
    // the game's name on a row of its own (it came after the language menu).
    const bar = await page.evaluate(() => {
      const r = (q) => document.querySelector(`.replay-board .topbar ${q}`).getBoundingClientRect();
      return { title: r(".title").top, lang: r(".lang").bottom, left: r(".title").left - r(".back").left };
    });
    check(
      bar.title >= bar.lang - 1 && Math.abs(bar.left) < 4,
      `an upright phone's replay names the game on a row below the links (${JSON.stringify(bar)})`,
    );
    const slips = [];
    for (const [name, vp] of SIZES) {
      await resize(page, vp);
      const sizes = await page.$$eval(".last-trick svg.tile", (r) =>
        r.map((e) => {
          const b = e.getBoundingClientRect();
          return Math.min(b.width, b.height);
        }),
      );
      if (sizes.length !== 4 || Math.min(...sizes) < 20)
        slips.push(`${name}: last trick tiles ${sizes.map(Math.round)}`);
      await page.screenshot({ path: join(shots, "sizes", `texas-42-last-trick-${name}.png`) });
    }
    check(
      at > 0 && slips.length === 0,
      `texas 42: the last trick's 4 tiles at least 20 px at 4 sizes (${slips.join("; ")})`,
    );
    // The bid buttons on a landscape phone (a person bids: a live table).
    const live = await newPage(ctx, VP.landscape);
    await live.goto(`${base}/?botdelay=20`);
    await chooseGame(live, "texas-42");
    await createTable(live);
    await live.waitForSelector('.actions .action[data-move^="bid"]', { timeout: 30000 });
    await resize(live, VP.landscape);
    const off = await live.$$eval(".actions .action", (r) =>
      r
        .filter((e) => {
          const b = e.getBoundingClientRect();
          return b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5 || b.top < 0;
        })
        .map((e) => e.textContent),
    );
    const count = (await live.$$(".actions .action")).length;
    await live.screenshot({ path: join(shots, "sizes", "texas-42-bids-landscape.png") });
    check(
      count > 2 && off.length === 0,
      `texas 42: all ${count} bid buttons on a landscape phone's screen (off: ${off.join(", ")})`,
    );
    // On a phone the "online" sign gives its room to the scores, but
    // "reconnecting…" shows: a dropped table must not look live.
    await resize(live, VP.phone);
    const signs = await live.$eval(".topbar .conn", (e) => {
      const was = e.className;
      const shown = (c) => {
        e.className = c;
        return getComputedStyle(e).display !== "none";
      };
      const r = { on: shown("conn on"), off: shown("conn off") };
      e.className = was;
      return r;
    });
    check(!signs.on && signs.off, `a phone shows "reconnecting…" but not "online" (${JSON.stringify(signs)})`);
    await live.close();
    await page.close();
  }
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} failure(s)` : "layout tests passed");
process.exit(H.failures ? 1 : 0);
