// The browser app in headless Chromium against a real `boneyard serve`:
// every family from the lobby to a hand summary, two people at one table,
// a reload mid-game, a spectator, chat both ways, the turn clock,
// screenshots and timings. The turn clock runs at --clock-second-ms 100
// (a 15 s move lasts 1.5 s): the same rules, faster.
//   node tests/browser.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) with a message when Chromium is missing.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chooseGame, createTable, openContext, setUp, webDir } from "./harness.mjs";

const t0 = Date.now();
const H = await setUp({ name: "web", serveArgs: ["--strong-ms", "30", "--clock-second-ms", "100"] });
const { shots, base, browser, check, tmp } = H;

const figures = {};
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

async function newPage(ctx, viewport = DESKTOP) {
  const page = await ctx.newPage();
  await page.setViewport(viewport);
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  // The server's Content-Security-Policy must not block anything the app does.
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) {
      console.error("CSP violation: " + m.text());
      H.failures++;
    }
  });
  // Item 16: every bubble shown on a seat (a pass, a draw), in window.__bubbles.
  await page.evaluateOnNewDocument(() => {
    window.__bubbles = [];
    new MutationObserver((ms) => {
      for (const m of ms)
        for (const n of m.addedNodes)
          if (n.nodeType === 1)
            for (const b of [n, ...n.querySelectorAll(".bubble")])
              if (b.classList?.contains("bubble")) window.__bubbles.push(b.textContent);
    }).observe(document, { childList: true, subtree: true });
  });
  // Counts the moves the page sends (window.__movesSent).
  await page.evaluateOnNewDocument(() => {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) {
      if (/"type":"move"/.test(String(d))) window.__movesSent = (window.__movesSent || 0) + 1;
      return send.call(this, d);
    };
  });
  await page.evaluateOnNewDocument(() => {
    if (!localStorage.getItem("boneyard.lang")) localStorage.setItem("boneyard.lang", "en");
  });
  return page;
}
const state = (page) =>
  page.evaluate(() => {
    const t = document.querySelector(".table");
    return t ? { v: Number(t.dataset.version), status: t.dataset.status, act: t.dataset.toAct === "1" } : null;
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One action as a person would: a highlighted tile (and an end or train when
// asked), else a button (bid, trump, pass, draw); two tiles in Dice & Dominoes.
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
    // Texas 42 bidding: bid the lowest number rather than pass, so hands are played.
    const labels = await Promise.all(buttons.map((b) => b.evaluate((e) => e.dataset.move)));
    let i = labels.findIndex((m) => /^bid:\d+$/.test(m || ""));
    if (i < 0) i = labels.findIndex((m) => m !== "pass");
    if (i < 0) i = 0;
    await buttons[i].click();
    return "button " + labels[i];
  }
  return null;
}

let hintChecked = false;
const wordSlips = new Set(); // item 11: "1 tiles", "You laid their last tile"... seen while playing
async function playHand(page, family, { shotAt = 2, name } = {}) {
  let moves = 0;
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline) {
    const bad = await page.evaluate(
      () =>
        (/\b1 (tiles|tricks|passes|wins)\b|\bYou laid their\b|\bbid Pass\b|\bas you like\b/.exec(
          document.body.innerText,
        ) || [""])[0],
    );
    if (bad) wordSlips.add(bad);
    if (await page.$(".summary")) return moves;
    const s = await state(page);
    if (s && s.act) {
      const before = s.v;
      if (family === "line" && !hintChecked && (await page.$("#hint"))) {
        hintChecked = true;
        const t = performance.now();
        await page.click("#hint");
        const ok = await page.waitForSelector(".hints .hint, .hint-text", { timeout: 8000 }).then(
          () => true,
          () => false,
        );
        figures.hint_ms = Math.round(performance.now() - t);
        check(ok, "line: the hint button shows the legal moves' values");
      }
      const did = await act(page, family).catch(() => null); // a tile redrawn under the click: try again
      if (did && !["pick", "chooser"].includes(did) && !did.startsWith("tile")) {
        await page
          .waitForFunction(
            (v) => {
              const t = document.querySelector(".table");
              return (
                !t || Number(t.dataset.version) > v || t.dataset.toAct !== "1" || document.querySelector(".summary")
              );
            },
            { timeout: 10000 },
            before,
          )
          .catch(() => {});
      }
      if (did === "tile" && !(await page.$(".chooser")))
        await page
          .waitForFunction(
            (v) => {
              const t = document.querySelector(".table");
              return !t || Number(t.dataset.version) > v || document.querySelector(".summary");
            },
            { timeout: 10000 },
            before,
          )
          .catch(() => {});
      if (did && did !== "pick" && did !== "chooser") moves++;
      if (name && moves === shotAt) await page.screenshot({ path: join(shots, `${name}-desktop.png`) });
    } else await sleep(40);
  }
  throw new Error(`${family}: no hand summary within 90 s`);
}

async function createFromLobby(page, family, preset, seats = {}, query = "") {
  await page.goto(`${base}/?botdelay=20${query}`);
  await chooseGame(page, family, preset);
  for (const [k, v] of Object.entries(seats)) await page.select(`select[data-seat="${k}"]`, v);
  await createTable(page);
  return page.url();
}

try {
  const ctx = await openContext(browser);
  // Lobby at both sizes.
  const lobby = await newPage(ctx);
  await lobby.goto(base + "/");
  await lobby.waitForSelector(".quick-btn");
  check((await lobby.$$(".preset")).length > 5, "lobby lists the line presets");
  await lobby.screenshot({ path: join(shots, "lobby-desktop.png") });
  // Item 8: presets and options in players' words: no source codes, no
  // internal values, no "false, off, on" together, family-specific help.
  {
    const slips = [];
    for (const f of ["line", "mexican-train", "texas-42", "dice-and-dominoes"]) {
      await chooseGame(lobby, f);
      const words = await lobby.evaluate(() => {
        const opts = [...document.querySelectorAll(".options select")].map((s) =>
          [...s.options].map((o) => o.textContent),
        );
        return {
          text: document.querySelector(".create").innerText,
          opts,
          help: [...document.querySelectorAll(".opt")].map((o) => o.innerText),
        };
      });
      if (/Source:|seed \d{3}/.test(words.text)) slips.push(`${f}: a source code`);
      for (const o of words.opts) {
        if (o.some((x) => /_/.test(x))) slips.push(`${f}: ${o.join("/")}`);
        if (o.includes("false") && (o.includes("off") || o.includes("Off"))) slips.push(`${f}: false and off`);
      }
      if (words.help.some((x) => /single_hand/.test(x))) slips.push(`${f}: single_hand`);
      if (f === "mexican-train" && words.help.some((x) => /^Set[\s\S]*double-six \(28/.test(x)))
        slips.push("mexican-train: the set's help speaks of double-six");
      if (f !== "line" && words.help.some((x) => /partnership|teams/.test(x) && !/Scoring/.test(x)) && f !== "texas-42")
        slips.push(`${f}: help about teams`);
      if (f === "texas-42" && words.help.some((x) => /^Scoring[\s\S]*pips/.test(x)))
        slips.push("texas-42: scoring speaks of pips");
    }
    await chooseGame(lobby, "line");
    check(slips.length === 0, `the lobby's presets and options are in players' words (${slips.join("; ")})`);
  }
  const lobbyPhone = await newPage(ctx, PHONE);
  await lobbyPhone.goto(base + "/");
  await lobbyPhone.waitForSelector(".quick-btn");
  await lobbyPhone.screenshot({ path: join(shots, "lobby-phone.png"), fullPage: false });
  // Spanish lobby: the picker changes every string.
  await lobbyPhone.select("select.lang", "es");
  await lobbyPhone.waitForFunction(() => document.body.innerText.includes("Jugar ya"));
  check(true, "language picker switches the lobby to Spanish");
  await lobbyPhone.screenshot({ path: join(shots, "lobby-phone-es.png"), fullPage: false });
  await lobbyPhone.select("select.lang", "ja");
  await lobbyPhone.waitForFunction(() => document.body.innerText.includes("すぐに遊ぶ"));
  check(true, "language picker switches the lobby to Japanese");
  await lobbyPhone.screenshot({ path: join(shots, "lobby-phone-ja.png"), fullPage: false });
  await lobbyPhone.select("select.lang", "en");
  await lobbyPhone.close();

  // Updates patch the page (items 2, 17): the nodes persist, so a click, the
  // focus and the scroll survive the bots' moves.
  {
    const page = await newPage(ctx);
    await createFromLobby(page, "line", "latin");
    await page.waitForSelector(".board");
    await page.evaluate(() => {
      for (const s of [".topbar", ".hand", ".log", ".board"]) document.querySelector(s).__mark = 1;
      document.querySelector(".log").focus();
    });
    const v0 = (await state(page)).v;
    for (let i = 0; i < 40 && (await state(page)).v < v0 + 3; i++) {
      const s = await state(page);
      // Played by keys, so the focus stays where it was put.
      if (s.act) {
        for (const k of ["Enter", "l", "p", "d"])
          if ((await state(page)).act && (await state(page)).v === s.v) await page.keyboard.press(k);
      }
      await page
        .waitForFunction((v) => Number(document.querySelector(".table").dataset.version) > v, { timeout: 5000 }, s.v)
        .catch(() => {});
    }
    const kept = await page.evaluate(() =>
      [".topbar", ".hand", ".log", ".board"].filter((s) => document.querySelector(s)?.__mark === 1),
    );
    const focus = await page.evaluate(() => document.activeElement?.classList.contains("log"));
    // Item 16: a sound for each move (made here, counted in window.__sounds),
    // the last tile played marked, a mute toggle remembered.
    {
      const u = new URL(page.url());
      await page
        .waitForFunction(() => Object.values(window.__sounds || {}).reduce((a, b) => a + b, 0) > 0, { timeout: 5000 })
        .catch(() => {});
      const sounds = await page.evaluate(() => JSON.stringify(window.__sounds || {}));
      // The page and the server compared at one version (the bots go on).
      let lastTile, marked;
      for (let i = 0; i < 20; i++) {
        const msg = await (
          await fetch(`${base}/api/tables/${u.searchParams.get("t")}?token=${u.searchParams.get("k")}`)
        ).json();
        const [v, m] = await page.evaluate(() => [
          Number(document.querySelector(".table").dataset.version),
          [...document.querySelectorAll(".line .lt.last")].map((x) => x.dataset.tile),
        ]);
        lastTile = [...msg.log]
          .reverse()
          .find((e) => e.kind === "move" && /^\d+-\d+/.test(e.move))
          ?.move.split(":")[0];
        marked = m;
        if (v === msg.version) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.click("#mute");
      const mutedNow = await page.evaluate(
        () =>
          localStorage.getItem("boneyard.mute") === "1" &&
          document.querySelector("#mute").getAttribute("aria-pressed") === "true",
      );
      await page.click("#mute");
      const flip = lastTile ? lastTile.split("-").reverse().join("-") : "";
      check(
        /play|pass|draw/.test(sounds) &&
          marked.length === 1 &&
          (marked[0] === lastTile || marked[0] === flip) &&
          mutedNow,
        `sounds for moves (${sounds}), the last tile played marked (${marked} = ${lastTile}), a remembered mute toggle`,
      );
    }
    check(
      (await state(page)).v >= v0 + 3 && kept.length === 4 && focus,
      `updates keep the table's nodes (${kept.join(" ")}) and the focus (${focus}) across ${(await state(page)).v - v0} versions`,
    );
    await page.close();
  }

  // Item 4: a bad or expired link says what is wrong and offers the lobby.
  {
    const page = await newPage(ctx);
    const good = new URL(await createFromLobby(page, "line", "latin"));
    const cases = [
      ["/?t=nope&k=bad", /damaged/],
      ["/?t=abcdef12&k=00ff", /no such table/],
      [`/?t=${good.searchParams.get("t")}&k=00ff00ff`, /key opens no seat/],
    ];
    for (const [path, re] of cases) {
      await page.goto(base + path);
      const shown = await page.waitForSelector(".bad-link", { timeout: 5000 }).then(
        () => true,
        () => false,
      );
      const text = shown
        ? await page.$eval(".bad-link", (e) => e.innerText)
        : await page.evaluate(() => document.body.innerText);
      check(
        shown && re.test(text) && !!(await page.$("#to-lobby")),
        `a bad link ${path} says what is wrong ("${text.replace(/\s+/g, " ").slice(0, 80)}")`,
      );
    }
    await page.click("#to-lobby");
    check(
      await page.waitForSelector(".quick-btn", { timeout: 5000 }).then(
        () => true,
        () => false,
      ),
      "the bad link's button leads to the lobby",
    );
    await page.close();
  }

  // Item 12: leaving a bot game says a bot will play and how to come back;
  // "Your tables" says where each table stands.
  {
    const page = await newPage(ctx);
    await createFromLobby(page, "line", "latin");
    await page.waitForSelector(".board");
    await page.click(".back");
    const asked = await page.waitForSelector(".leave", { timeout: 3000 }).then(
      () => true,
      () => false,
    );
    const text = asked ? await page.$eval(".leave", (e) => e.innerText) : "";
    await page.click("#leave-stay");
    const stayed = !(await page.$(".leave")) && !!(await page.$(".board"));
    await page.click(".back");
    await page.click("#leave-go");
    await page
      .waitForSelector(".my-tables .status.playing, .my-tables .status.over", { timeout: 5000 })
      .catch(() => {});
    const status = await page.$eval(".my-tables li .status", (e) => e.textContent).catch(() => "");
    check(
      asked && /bot/.test(text) && /Your tables/.test(text) && stayed,
      "leaving a game in play says a bot plays the seat and how to come back",
    );
    check(/In play|bot is playing|Over/.test(status), `"Your tables" shows where the table stands ("${status}")`);
    await page.close();
  }

  // Item 1: Dice & Dominoes takes a pair tapped in either order, and the
  // hint shows both tiles of each pair.
  {
    // The deal is random: a roll can leave no pair of two different tiles
    // to lay (CI once drew one), so deal again until one is there.
    let page = null;
    let pair = null;
    for (let deal = 0; deal < 12 && !pair; deal++) {
      if (page) await page.close();
      page = await newPage(ctx);
      const url = new URL(await createFromLobby(page, "dice-and-dominoes", "dice-and-dominoes"));
      await page.waitForSelector("#lay", { timeout: 15000 });
      const st = await (
        await fetch(`${base}/api/tables/${url.searchParams.get("t")}?token=${url.searchParams.get("k")}`)
      ).json();
      const tiles = st.view.players[st.seat].tiles;
      for (const a of tiles)
        for (const b of tiles)
          if (!pair && a !== b && !st.legal.includes(`${a},${b}`) && st.legal.includes(`${b},${a}`)) pair = [a, b];
    }
    check(!!pair, `dice & dominoes: a deal with a pair of two different tiles to lay (${pair})`);
    await page.click("#hint");
    await page.waitForSelector(".hints .hint", { timeout: 30000 }); // a loaded CI machine
    const perHint = await page.$$eval(".hints .hint", (r) => r.map((x) => x.querySelectorAll("svg.tile").length));
    check(
      perHint.length > 0 && perHint.every((n) => n === 2),
      `dice & dominoes: each hint shows both tiles of its pair (${perHint.join(" ")})`,
    );
    if (pair) {
      await page.click(`.hand .htile[data-tile="${pair[0]}"]`);
      const help = await page.$eval("#lay-help", (e) => e.textContent);
      await page.click(`.hand .htile[data-tile="${pair[1]}"]`);
      const enabled = await page.$eval("#lay", (e) => !e.disabled);
      const sent0 = await page.evaluate(() => window.__movesSent || 0);
      const v0 = (await state(page)).v;
      if (enabled) await page.click("#lay");
      // Accepted: the state moves on and no error comes back.
      const laid =
        (await page
          .waitForFunction((v) => Number(document.querySelector(".table").dataset.version) > v, { timeout: 5000 }, v0)
          .then(
            () => true,
            () => false,
          )) && !(await page.$(".flash"));
      check(
        !!pair &&
          enabled &&
          laid &&
          (await page.evaluate(() => window.__movesSent)) === sent0 + 1 &&
          /second/.test(help),
        `dice & dominoes: the pair ${pair} tapped lower first is laid ("${help}"; enabled ${enabled}, laid ${laid}, sent ${(await page.evaluate(() => window.__movesSent)) - sent0})`,
      );
    }
    await page.close();
  }

  // Each family: a whole hand from the lobby, as a person.
  const families = [
    ["line", "latin"],
    ["mexican-train", "mexican-train"],
    ["texas-42", "texas-42"],
    ["dice-and-dominoes", "dice-and-dominoes"],
  ];
  for (const [family, preset] of families) {
    const page = await newPage(ctx);
    const url = await createFromLobby(page, family, preset);
    await page.waitForSelector(".board");
    const start = Date.now();
    const moves = await playHand(page, family, { name: family });
    // The summary's tables come with the state that ends the hand: wait for them.
    if (family === "line") await page.waitForSelector(".summary table.pips", { timeout: 5000 }).catch(() => {});
    const summary = await page.$eval(".summary", (e) => e.innerText);
    check(
      moves > 0 && summary.length > 20,
      `${family}: played a hand (${moves} moves, ${((Date.now() - start) / 1000).toFixed(1)} s) and saw the summary`,
    );
    await page.screenshot({ path: join(shots, `${family}-summary-desktop.png`) });
    // The regional word the hand's end uses is said in players' words, with its rules.
    if (family === "line") {
      const g = await page.evaluate(() => ({
        how: document.querySelector(".summary .how")?.textContent || "",
        words: document.querySelector("#glossary")?.textContent || "",
        href: document.querySelector("#glossary a")?.getAttribute("href") || "",
        out: [...document.querySelectorAll(".summary table.pips td")].filter((e) => /went out/.test(e.textContent))
          .length,
      }));
      const want = /^Tranque/.test(g.how)
        ? ["A tranque is a blocked game", "/?rules=line#end"]
        : /capicúa/.test(g.how)
          ? ["A capicúa is going out", "/?rules=line#bonuses"]
          : ["", ""];
      check(
        g.words.startsWith(want[0]) &&
          g.href === want[1] &&
          (want[0] !== "") === !!g.words &&
          g.out === (/dominoed/.test(g.how) ? 1 : 0),
        `line: the hand's end explains the regional word it uses and who went out ("${g.how}": "${g.words}" ${g.href}; ${g.out} went out)`,
      );
    }
    // Item 10: a Texas 42 hand that stops early says so.
    if (family === "texas-42") {
      const u = new URL(page.url());
      const view = (
        await (await fetch(`${base}/api/tables/${u.searchParams.get("t")}?token=${u.searchParams.get("k")}`)).json()
      ).view;
      const lh = view.last_hand;
      const says = /stopped after \d+ trick/.test(summary);
      check(
        lh && says === !!lh.stopped_early,
        `texas-42: the summary says whether the hand stopped early (stopped_early ${lh?.stopped_early}, said ${says})`,
      );
      // "Marks", the game's own word, said where they are counted, with the game's target.
      const mark = await page.evaluate(() => ({
        words: document.querySelector("#glossary")?.textContent || "",
        href: document.querySelector("#glossary a")?.getAttribute("href") || "",
      }));
      check(
        view.scoring === "marks" &&
          mark.words.startsWith("A mark is a hand's prize") &&
          mark.words.includes(`The first side to ${view.target} marks wins`) &&
          mark.href === "/?rules=texas-42#t42-scoring",
        `texas-42: the summary says what a mark is ("${mark.words}" ${mark.href})`,
      );
    }
    // Item 11: suits by name in every language (Japanese said "1で30をビッド").
    if (family === "texas-42") {
      await page.select("select.lang", "ja");
      await page.waitForFunction(() => /ロビー/.test(document.body.innerText));
      const how = await page.$eval(".summary .how", (e) => e.textContent);
      await page.select("select.lang", "en");
      await page.waitForFunction(() => /Lobby/.test(document.body.innerText));
      check(
        !/\dで/.test(how) && !/\d+で\d+/.test(how),
        `texas-42: the summary names the trumps in Japanese ("${how}")`,
      );
    }
    // Item 7: "Last moves" is the server's public log: every tile of the hand
    // that ended (the fourth of each trick, the last one), in order; after a
    // reload, the hand in play (the server sends only that: an earlier tile
    // may lie in a hidden hand now).
    if (family === "texas-42" || family === "line") {
      const u = new URL(page.url());
      const rec = async () =>
        (await (await fetch(`${base}/api/tables/${u.searchParams.get("t")}?token=${u.searchParams.get("k")}`)).json())
          .log || [];
      const tilesOf = (log, hand) =>
        log
          .filter((e) => e.kind === "move" && e.hand === hand && /^\d+-\d+/.test(e.move))
          .map((e) => /^(\d+)-(\d+)/.exec(e.move).slice(1).join("|"));
      const missing = async (tiles) => {
        const text = await page.$eval(".log", (e) => e.innerText);
        return tiles.filter((x) => !text.includes(x));
      };
      const order = await page.$$eval(".log li", (r) => r.map((x) => x.textContent));
      const played = order.filter((x) => /played \d+\|\d+/.test(x)).length;
      const iOver = order.findIndex((x) => /hand is over/.test(x)),
        iDealt = order.findIndex((x) => /Hand 2 dealt/.test(x));
      // Item 16: a pass is shown on the seat that passed.
      if (family === "line") {
        const others = order.filter((x) => /^(Seat \d|Partner).* passed/.test(x)).length;
        const bubbles = await page.evaluate(() => window.__bubbles || []);
        check(
          others === 0 || bubbles.some((b) => /^Pass$/.test(b)),
          `line: a pass is shown on the seat (${others} passes in the log; bubbles seen: ${[...new Set(bubbles)].join(", ")})`,
        );
      }
      // Every tile of the Texas 42 hand that ended (4 a trick), its last
      // too: the move that ends a hand comes in one message with the next
      // deal, and the log holds it beside that deal (docs/server.md, "log").
      const ended = (
        await (await fetch(`${base}/api/tables/${u.searchParams.get("t")}?token=${u.searchParams.get("k")}`)).json()
      ).view.last_hand;
      const handTiles = family === "texas-42" ? 4 * (ended?.tricks_played ?? 1) : 0;
      // ... and who took each trick, the last one too, just before "The hand is over".
      if (family === "texas-42") {
        const won = order.filter((x) => /won the trick/.test(x)).length;
        check(
          /won the trick/.test(order[iOver + 1] || "") && (won >= ended?.tricks_played || order.length >= 40),
          `texas-42: "Last moves" says who took each of the hand's ${ended?.tricks_played} tricks (${won} said), the last just before "The hand is over" (there: "${order[iOver + 1]}")`,
        );
      }
      await page.reload();
      await page.waitForSelector(".log li");
      const log = await rec();
      const now = tilesOf(log, Math.max(...log.map((e) => e.hand)));
      const after = await missing(now);
      // (The panel keeps the last 40 entries: the bots' next hand, played
      // behind the summary, may have pushed the first tricks out.)
      check(
        played > 0 &&
          (handTiles === 0 || played >= handTiles || order.length >= 40) &&
          iOver > iDealt &&
          iDealt >= 0 &&
          !after.length,
        `${family}: "Last moves" lists the hand's ${played} tiles (of ${handTiles || "its"}), then "The hand is over" before "Hand 2 dealt"; after a reload the hand in play (missing ${after})`,
      );
    }
    // Item 3: the bots start the next hand behind the summary; once it is my
    // turn there, keys go to the dialog, never to the hand behind it.
    if (family === "line") {
      const myTurn = await page
        .waitForFunction(
          () => document.querySelector(".table")?.dataset.toAct === "1" && document.querySelector(".summary"),
          { timeout: 15000 },
        )
        .then(
          () => true,
          () => false,
        );
      const sent0 = await page.evaluate(() => {
        document.activeElement?.blur();
        return window.__movesSent || 0;
      });
      for (const k of ["ArrowRight", "Enter", "l", "r", "p", "d", "1"]) await page.keyboard.press(k);
      const sent1 = await page.evaluate(() => window.__movesSent || 0);
      check(
        myTurn && sent1 === sent0 && !!(await page.$(".summary")),
        "keys pressed while the summary is open play nothing behind it",
      );
      // Item 12: the next hand's opening, shown in the summary as it happens.
      const meanwhile = await page.$$eval(".summary .meanwhile li", (r) => r.map((x) => x.textContent));
      const u = new URL(page.url());
      const log =
        (await (await fetch(`${base}/api/tables/${u.searchParams.get("t")}?token=${u.searchParams.get("k")}`)).json())
          .log || [];
      const opening = log.filter((e) => e.hand === 2 && e.kind === "move").length; // nothing when I lead
      check(
        meanwhile.length === (opening > 6 ? 7 : opening), // the last 6, after "…and N earlier moves"
        `the summary shows the next hand's opening, ${opening} moves (${meanwhile.slice(0, 3).join("; ")})`,
      );
    }
    if (family === "line")
      check(
        /pips/i.test(summary), // the table's heading reads "PIPS LEFT" (upper case by style) after a tie
        `line: the summary shows every side's pips (${summary.slice(0, 300).replace(/\n/g, " / ")})`,
      );
    // Item 5: the hand's points and the running game score, each labelled.
    if (family === "line") {
      const heads = await page.$$eval(".summary table.points th", (r) => r.map((x) => x.textContent));
      const game = await page.$$eval(".summary .game-score", (r) => r.map((x) => x.textContent));
      const top = await page.$$eval(".topbar .score:not(.target) b", (r) => r.map((x) => x.textContent));
      check(
        heads.includes("This hand") && heads.includes("Game score") && game.join() === top.join(),
        `line: the summary labels this hand's points and the game score (${heads.join("/")}; ${game} = ${top})`,
      );
    }
    // Review my moves: every move of this seat graded, from the server.
    {
      const t = performance.now();
      await page.$eval("#review-btn", (e) => e.click()); // the summary may be redrawn under a mouse click
      const ok = await page
        .waitForSelector('.review[data-state="done"], .review[data-state="error"]', { timeout: 30000 })
        .then(
          () => true,
          () => false,
        );
      const review = await page.$eval(".review", (e) => e.innerText).catch(() => "");
      const rows = await page.$$eval(".review-moves tr[data-grade]", (r) => r.map((x) => x.dataset.grade));
      figures[`review_${family}_ms`] = Math.round(performance.now() - t);
      // Every family is graded by what the seat could see (issue 23), never with hands known.
      const good =
        ok &&
        !(await page.$(".review .error")) &&
        (rows.length > 0 || /no choice/.test(review)) &&
        rows.every((g) => ["best", "good", "inaccuracy", "mistake", "blunder"].includes(g)) &&
        /what you could see/.test(review) &&
        !/hands known/.test(review);
      check(
        good,
        `${family}: "Grade my moves" grades ${rows.length} moves (${rows.join(" ")})` +
          (good ? "" : ": " + review.replace(/\s+/g, " ")),
      );
      if (family === "line" || family === "texas-42") {
        await page.$eval(".review", (e) => e.scrollIntoView());
        await page.screenshot({ path: join(shots, `review-${family}-desktop.png`) });
      }
    }
    // The same seat on a phone.
    const phone = await newPage(ctx, PHONE);
    await phone.goto(url);
    await phone.waitForSelector(".board");
    if (await phone.$("#review-btn")) {
      await phone.$eval("#review-btn", (e) => e.click());
      await phone.waitForSelector('.review[data-state="done"]', { timeout: 30000 }).catch(() => {});
      await phone.$eval(".review", (e) => e.scrollIntoView());
      await phone.screenshot({ path: join(shots, `review-${family}-phone.png`) });
      // Every column of the graded moves within the dialog ("Seat 3's train"
      // wraps rather than running off a phone's edge).
      const cut = await phone.$eval(".review", (r) => {
        const edge = r.getBoundingClientRect().right + 1;
        return [...r.querySelectorAll(".review-moves td, .review-moves th")]
          .filter((x) => x.getBoundingClientRect().right > edge)
          .map((x) => x.textContent);
      });
      check(cut.length === 0, `${family}: the review's moves fit a phone's width (cut: ${JSON.stringify(cut)})`);
    }
    if (await phone.$("#continue")) await phone.click("#continue");
    await sleep(150);
    await phone.screenshot({ path: join(shots, `${family}-phone.png`) });
    if (family === "line") {
      await phone.select("select.lang", "es");
      await phone.waitForFunction(() => /Salón/.test(document.body.innerText));
      await phone.screenshot({ path: join(shots, "line-phone-es.png") });
      check(true, "the table switches to Spanish");
      await phone.select("select.lang", "ja");
      await phone.waitForFunction(() => /ロビー/.test(document.body.innerText));
      await phone.screenshot({ path: join(shots, "line-phone-ja.png") });
      check(true, "the table switches to Japanese");
      await phone.select("select.lang", "en");
    }
    await phone.close();
    await page.click("#continue").catch(() => {});
    await page.close();
  }

  // A whole (one-hand) game: the final summary and the fairness check.
  {
    const page = await newPage(ctx);
    await page.goto(`${base}/?botdelay=20`);
    await chooseGame(page, "dice-and-dominoes");
    await page.waitForSelector("input[name=hands]");
    await page.$eval("input[name=hands]", (e) => {
      e.value = "2";
      e.dispatchEvent(new Event("change"));
    });
    await createTable(page);
    await playHand(page, "dice-and-dominoes");
    await page.click("#continue");
    await page.waitForFunction(() => !document.querySelector(".summary") || document.querySelector("#verify"));
    await playHand(page, "dice-and-dominoes");
    await page.waitForSelector("#verify", { timeout: 10000 });
    // Item 12: every hand can be reviewed after the game; the dialog closes
    // to show the final board and opens again.
    {
      const hands = await page.$$eval("#review-hand option", (r) => r.map((x) => x.value));
      await page.select("#review-hand", "1");
      await page.$eval("#review-btn", (e) => e.click());
      const ok = await page.waitForSelector('.review[data-state="done"]', { timeout: 30000 }).then(
        () => true,
        () => false,
      );
      const title = ok ? await page.$eval(".review h4", (e) => e.textContent) : "";
      check(
        hands.join() === "1,2" && /hand 1/.test(title),
        `after the game every hand can be reviewed (${hands}; "${title}")`,
      );
      await page.click("#see-board");
      const board = !(await page.$(".summary")) && !!(await page.$(".board")) && !!(await page.$("#show-result"));
      await page.click("#show-result");
      check(
        board && !!(await page.$(".summary #verify")),
        "the game-over dialog closes to show the final board and opens again",
      );
    }
    const title = await page.$eval(".summary h2", (e) => e.textContent);
    await page.click("#verify");
    await page.waitForSelector(".fairness dd");
    // It opens below the dialog's fold: the press brings its answer into sight.
    const fairSeen = await page.$eval(".summary", (d) => {
      const box = d.getBoundingClientRect(),
        f = d.querySelector(".fairness").getBoundingClientRect();
      return f.top >= box.top && f.top < box.bottom - 40;
    });
    check(fairSeen, "the fairness check, asked for, is brought into sight in the dialog");
    const secret = await page.$eval(".fairness", (e) => e.textContent);
    // In a player's words; the numbers folded away under their own heading.
    const plain = await page.$eval(".fairness", (e) => e.innerText);
    check(
      /Was the deal fair\?/.test(plain) &&
        /Checked: the deal was fixed/.test(plain) &&
        !/[0-9a-f]{64}|SHA-256|entropy/.test(plain),
      `the fairness check speaks a player's words, the numbers folded away (${JSON.stringify(plain.slice(0, 160))})`,
    );
    check(
      /Game over/.test(title) && /[0-9a-f]{64}/.test(secret),
      "a finished game shows the winner and the fairness check (secret and commitment)",
    );
    check(
      await page.$eval("#verdict", (e) => e.classList.contains("good")),
      "the browser checks SHA-256(secret) = commitment",
    );
    // Item 6: the seed exactly as the server has it (a 64-bit number: read
    // from the raw text, as JSON.parse would round it).
    {
      const raw = await (
        await fetch(`${base}/api/tables/${new URL(page.url()).searchParams.get("t")}/fairness`)
      ).text();
      const seed = /"seed":(\d+)/.exec(raw)?.[1];
      const shown = await page.$eval("#seed", (e) => e.textContent);
      check(!!seed && shown === seed, `"Was the deal fair?" shows the exact seed (${shown} = ${seed})`);
    }
    await page.screenshot({ path: join(shots, "game-over-desktop.png") });
    // With the review and the fairness check open the dialog scrolls; what
    // next stays in sight, and the ways to look back are apart from it.
    const inSight = await page.$eval(".summary", (d) => {
      const box = d.getBoundingClientRect(),
        b = d.querySelector("#rematch").getBoundingClientRect();
      return d.scrollHeight > d.clientHeight && b.top >= box.top && b.bottom <= box.bottom;
    });
    const groups = await page.$$eval(".summary .game-over-actions .choices", (g) =>
      g.map((x) => [...x.querySelectorAll("button")].map((b) => b.id || b.textContent).join("|")),
    );
    check(
      inSight && groups.length === 2 && groups[0].startsWith("rematch|") && groups[1] === "replay|verify|see-board",
      `the game-over dialog keeps "Play again" in sight and groups the ways to look back (${inSight}; ${groups.join(" / ")})`,
    );
    await page.close();
  }

  // Replay: a whole one-hand latin game, then its replay from the table, step
  // by step (buttons and arrow keys), its shareable link on a phone, and the
  // record file chosen in the lobby.
  {
    const page = await newPage(ctx);
    await page.goto(`${base}/?botdelay=20`);
    await chooseGame(page, "line", "latin");
    await page.waitForSelector("input[name=target]");
    await page.$eval("input[name=target]", (e) => {
      e.value = "1";
      e.dispatchEvent(new Event("change"));
    });
    await createTable(page);
    const id = new URL(page.url()).searchParams.get("t");
    for (let hand = 0; hand < 4 && !(await page.$("#verify")); hand++) {
      await playHand(page, "line");
      if (await page.$("#continue")) {
        await page.click("#continue");
        await sleep(100);
      }
    }
    check(!!(await page.$("#replay")), "a finished table offers its replay");
    // A spectator may review any seat once the game is over.
    {
      const spectate = await page.evaluate(
        (id) => JSON.parse(localStorage.getItem("boneyard.tables") || "[]").find((x) => x.id === id)?.spectate,
        id,
      );
      const sp = await newPage(ctx);
      await sp.goto(`${base}/?t=${id}&k=${spectate}`);
      await sp.waitForSelector("#review-seat-1");
      await sp.$eval("#review-seat-1", (e) => e.click());
      const done = await sp.waitForSelector('.review[data-state="done"]', { timeout: 30000 }).then(
        () => true,
        () => false,
      );
      check(
        done && /Seat 2/.test(await sp.$eval(".review h4", (e) => e.textContent)),
        "a spectator reviews any seat's moves once the game is over",
      );
      await sp.close();
    }
    await Promise.all([page.waitForSelector(".replay-controls"), page.$eval("#replay", (e) => e.click())]); // redrawn as the spectator came
    const pos = () => page.$eval("#replay-pos", (e) => Number(e.dataset.step));
    const last = await page.$eval("#replay-slider", (e) => Number(e.max));
    check(
      (await pos()) === 0 &&
        last > 10 &&
        new URL(page.url()).searchParams.get("replay") === id &&
        new URL(page.url()).searchParams.get("as") === "0",
      `the replay opens at step 0 of ${last}, at /?replay=${id}, as my seat`,
    );
    await page.click("#replay-next");
    await page.click("#replay-next");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    check((await pos()) === 2, "steps forwards and backwards with the buttons and the arrow keys");
    // From the table, it is my game: my tiles below, the others face up, and "Us".
    const mine = await page.evaluate(() => ({
      opp: document.querySelectorAll(".opp .backs.faceup").length,
      hand: document.querySelectorAll(".hand-area .hand .htile").length,
      first: document.querySelector(".topbar .scores .score")?.firstChild.textContent,
      bar: document.querySelector(".turnbar")?.textContent,
    }));
    check(
      mine.opp === 3 && mine.hand > 0 && mine.first === "Us" && !/^You to/.test(mine.bar),
      `every hand is shown face up in the replay, mine below as at the table (${JSON.stringify(mine)})`,
    );
    for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight");
    await page.screenshot({ path: join(shots, "replay-desktop.png") });
    await page.click("#replay-last");
    check(
      (await pos()) === last && /Hand \d+/.test(await page.$eval(".replay-what", (e) => e.innerText)),
      // A tied hand scores nothing, so a one-point game may end in hand 2 or later.
      "the last step shows the last hand's result",
    );
    await page.click("#replay-prev");
    check((await pos()) === last - 1, "a step back from the end");
    // The shareable link, for anyone, on a phone.
    const ctxShare = await openContext(browser);
    const phone = await newPage(ctxShare, PHONE);
    await phone.goto(`${base}/?replay=${id}&step=12`);
    await phone.waitForSelector(".replay-controls");
    check(
      (await phone.$eval("#replay-pos", (e) => Number(e.dataset.step))) === 12 &&
        (await phone.$$(".opp .backs.faceup")).length === 4,
      "the shareable replay link opens for someone else, every hand face up",
    );
    await phone.screenshot({ path: join(shots, "replay-phone.png") });
    // The record file, chosen in the lobby.
    const rec = await (await fetch(`${base}/api/tables/${id}/record`)).text();
    const recFile = join(tmp, "game.json");
    writeFileSync(recFile, rec);
    await phone.goto(base + "/");
    const input = await phone.waitForSelector("#replay-file");
    await input.uploadFile(recFile);
    await phone.waitForSelector(".replay-controls");
    check(
      (await phone.$eval("#replay-slider", (e) => Number(e.max))) === last,
      "a record file chosen in the lobby replays the same steps",
    );
    await phone.goto(base + "/");
    const bad = join(tmp, "bad.json");
    writeFileSync(bad, JSON.stringify({ format: "boneyard-record", game: "chess" }));
    await (await phone.waitForSelector("#replay-file")).uploadFile(bad);
    await phone.waitForSelector(".replay-error");
    check(
      /chess|record/.test(await phone.$eval(".replay-error", (e) => e.innerText)),
      "a bad record file gets the server's clear error",
    );
    // Item 11: the server's error in the user's language (its stable code).
    await phone.goto(base + "/");
    await phone.select("select.lang", "es");
    await phone.waitForFunction(() => document.documentElement.lang === "es");
    await (await phone.waitForSelector("#replay-file")).uploadFile(bad);
    await phone
      .waitForFunction(() => /no es válida/.test(document.querySelector(".replay-error")?.innerText || ""), {
        timeout: 5000,
      })
      .catch(() => {});
    const esErr = await phone.$eval(".replay-error", (e) => e.innerText);
    await phone.select("select.lang", "en");
    check(
      /no es válida/.test(esErr) && /chess|record/.test(esErr),
      `a server error is worded in Spanish, its detail kept ("${esErr}")`,
    );
    await ctxShare.close();
    await page.close();
  }

  // Two people at one table, a spectator, a reload.
  const alice = await newPage(ctx);
  await createFromLobby(alice, "line", "latin", { 1: "friend" }, "&dropdelay=1500");
  await alice.waitForSelector("#link-invite-1");
  const invite = await alice.$eval("#link-invite-1", (e) => e.value);
  const spectate = await alice.$eval("#link-spectate", (e) => e.value);
  await alice.screenshot({ path: join(shots, "waiting-desktop.png") });
  // Opening the link spends nothing: someone who looks at it and leaves at
  // the name asked leaves the seat to whoever sits down with it.
  {
    const ctxPeek = await openContext(browser);
    const peek = await newPage(ctxPeek);
    await peek.goto(invite);
    await peek.waitForSelector("#invite-name");
    await ctxPeek.close();
  }
  const ctx2 = await openContext(browser);
  const bob = await newPage(ctx2);
  await bob.goto(invite);
  // Without a saved name, the friend is asked for one before sitting down
  // (the game starts, clock and all, once the seat joins).
  await bob.waitForSelector("#invite-name");
  const boardEarly = !!(await bob.$(".board"));
  await bob.type("#invite-name", "Bob");
  await bob.click("#invite-sit");
  await bob.waitForSelector(".board");
  await alice.waitForSelector(".board");
  check(true, "a friend joins by the invitation link and the game starts for both");
  // The friend's card says they are here, beside "away" when they are not.
  const bobKind = await alice
    .waitForFunction(() => document.querySelector('.opp[data-seat="1"] .opp-kind')?.textContent === "here", {
      timeout: 5000,
    })
    .then(
      () => "here",
      () => alice.$eval('.opp[data-seat="1"] .opp-kind', (e) => e.textContent).catch(() => ""),
    );
  check(bobKind === "here", `the friend's card says they are here (${bobKind})`);
  const bobName = await bob
    .waitForFunction(() => /Playing as Bob/.test(document.getElementById("my-name")?.textContent || ""), {
      timeout: 5000,
    })
    .then(
      () => true,
      () => false,
    );
  check(!boardEarly && bobName, "the invited friend names themselves before the game starts, and plays by that name");
  // The invitation is claimed: the friend's page holds a token of its own,
  // and the link opens no seat for anyone else (its sender in another
  // browser, anyone it was passed on to), nor is it offered any more.
  const claimed = new URL(bob.url()).searchParams;
  check(
    new URL(invite).searchParams.has("i") &&
      claimed.has("k") &&
      claimed.get("k") !== new URL(invite).searchParams.get("i"),
    `the invitation is claimed: the friend's page has a token of its own (${invite} -> ${bob.url()})`,
  );
  {
    const ctxX = await openContext(browser);
    const other = await newPage(ctxX);
    await other.goto(invite);
    await other.waitForSelector(".bad-link");
    const said = await other.$eval(".bad-link", (e) => e.innerText);
    check(
      /was used already/.test(said) && (await other.$$(".hand .htile")).length === 0,
      `a used invitation opens no seat for anyone else (${said.replace(/\s+/g, " ")})`,
    );
    await ctxX.close();
    const shareSays = await alice.$eval(".share-btn", (e) => e.textContent);
    await alice.click(".share-btn");
    await alice.waitForSelector("#link-share-spectate");
    check(!(await alice.$("#link-share-invite-1")), "the sender's links no longer offer the invitation taken");
    const titled = await alice.$eval(".dialog h3", (e) => e.textContent);
    check(
      shareSays === "Share" && titled === "A link to watch this game",
      `with no seat to invite to, the button and its dialog say they share the watching link (${shareSays}: ${titled})`,
    );
    await alice.keyboard.press("Escape");
  }
  // Play until someone at the table (alice or bob) has moved and the other sees it.
  let seen = false;
  for (let i = 0; i < 200 && !seen; i++) {
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ]) {
      const s = await state(me);
      if (!s || !s.act) continue;
      const tile = await me.$(".hand .htile.legal");
      if (!tile) {
        const b = await me.$(".actions .action[data-move]");
        if (b) await b.click().catch(() => {});
        continue;
      }
      const tileText = await tile.evaluate((e) => e.dataset.tile).catch(() => null);
      if (!tileText) continue;
      const clicked = performance.now();
      try {
        await tile.click();
        if (await me.$(".chooser")) await me.click(".chooser .choices button");
      } catch {
        continue;
      }
      await other.waitForSelector(
        `.line [data-tile="${tileText}"], .line [data-tile="${tileText.split("-").reverse().join("-")}"]`,
        { timeout: 5000 },
      );
      figures.click_to_other_browser_ms = Math.round(performance.now() - clicked);
      figures.click_to_move_shown_ms = await me.evaluate(() => Math.round(window.__lastMoveMs || -1));
      seen = true;
      break;
    }
    if (!seen) await sleep(50);
  }
  check(seen, "a move by one person appears in the other's browser");
  // Reload mid-game: the same seat and state.
  const before = await state(bob);
  const handBefore = (await bob.$$(".hand .htile")).length;
  await bob.reload();
  await bob.waitForSelector(".board");
  const after = await state(bob);
  const handAfter = (await bob.$$(".hand .htile")).length;
  check(
    after.v >= before.v && handAfter > 0 && Math.abs(handAfter - handBefore) <= 1,
    `reload keeps the seat and the state (version ${before.v} -> ${after.v}, ${handBefore} -> ${handAfter} tiles)`,
  );
  // A spectator: no hand, only public information.
  const ctx3 = await openContext(browser);
  const spec = await newPage(ctx3);
  await spec.goto(spectate);
  await spec.waitForSelector(".board");
  check((await spec.$$(".hand .htile")).length === 0 && !!(await spec.$(".spectating")), "a spectator sees no hand");
  const teamTags = await spec.$$eval(".opp", (o) =>
    o.map((e) => e.dataset.seat + ":" + (e.querySelector(".team-tag")?.textContent || "")),
  );
  check(
    teamTags.sort().join(" ") === "0:Team A 1:Team B 2:Team A 3:Team B",
    `a spectator sees each seat's team, as the scores name them (${teamTags.join(" ")})`,
  );
  const specUrl = new URL(spectate);
  const pub = await (
    await fetch(`${base}/api/tables/${specUrl.searchParams.get("t")}?token=${specUrl.searchParams.get("k")}`)
  ).json();
  check(
    pub.view.hands.every((x) => x.tiles === null),
    "the spectator's state holds no tiles of any hand",
  );
  await spec.screenshot({ path: join(shots, "spectator-desktop.png") });
  // A game in progress has no replay yet, and says so.
  await spec.goto(`${base}/?replay=${specUrl.searchParams.get("t")}`);
  await spec.waitForSelector(".replay-error");
  check(
    /in progress/.test(await spec.$eval(".replay-error", (e) => e.innerText)),
    "the replay of a game in progress is refused with a clear message",
  );
  await spec.goto(spectate);
  await spec.waitForSelector(".board");
  // Bob goes away: the others are told, a bot plays for him after the drop
  // delay (1.5 s here), and he takes his seat back with his link.
  await bob.close();
  const logHas = (page, re) =>
    page
      .waitForFunction(
        (src) => new RegExp(src).test(document.querySelector(".log")?.textContent || ""),
        { timeout: 8000 },
        re.source,
      )
      .then(
        () => true,
        () => false,
      );
  check(await logHas(alice, /lost the connection/), "the other player sees the disconnect notice");
  check(await logHas(alice, /is away: a bot plays/), "a bot plays for the absent player, with a notice");
  const bob2 = await newPage(ctx2);
  await bob2.goto(invite);
  await bob2.waitForSelector(".board");
  check(await logHas(alice, /is back/), "the player comes back with the same link and the others are told");
  // The lobby, opened in Bob's browser mid-game: his game in play in sight
  // without scrolling (on a phone "Your tables" lay a screen or two below),
  // one tap back. It fills in when the server answers, so it must not push
  // the lobby under the finger: the family tabs stand where they stand in a
  // lobby without it (in the flow it moved them by 63 px).
  {
    const lobbyTab = await newPage(ctx2, PHONE);
    await lobbyTab.goto(base + "/");
    const shown = await lobbyTab.waitForSelector("#in-play-open", { timeout: 8000 }).then(
      () => true,
      () => false,
    );
    await lobbyTab.waitForSelector("[data-family]");
    const banner = await lobbyTab
      .$eval("#in-play", (e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent, top: r.top, bottom: r.bottom, screen: innerHeight };
      })
      .catch(() => ({}));
    // The tabs' place with the banner shown, and with it taken away.
    const tops = await lobbyTab.$eval("#in-play", (e) => {
      const top = () => document.querySelector("[data-family]").getBoundingClientRect().top;
      const shown = top();
      e.classList.remove("shown");
      const without = top();
      e.classList.add("shown");
      return { shown, without };
    });
    check(
      shown && tops.shown === tops.without,
      `the game in play does not push the lobby down (family tabs at ${tops.shown} px, ${tops.without} px without it)`,
    );
    await lobbyTab.screenshot({ path: join(shots, "lobby-in-play-phone.png") });
    if (shown) await lobbyTab.click("#in-play-open");
    const back =
      shown &&
      (await lobbyTab.waitForSelector(".board", { timeout: 8000 }).then(
        () => true,
        () => false,
      ));
    check(
      shown &&
        /Latin dominoes is in play/.test(banner.text) &&
        banner.top >= 0 &&
        banner.bottom <= banner.screen &&
        back &&
        new URL(lobbyTab.url()).searchParams.get("t") === new URL(bob2.url()).searchParams.get("t"),
      `the lobby shows my game in play without scrolling, one tap back to it (${JSON.stringify(banner)})`,
    );
    await lobbyTab.close();
    // It floats over the lobby's foot: "Not now" puts it away.
    const again = await newPage(ctx2, PHONE);
    await again.goto(base + "/");
    const hid = await again.waitForSelector("#in-play-hide", { timeout: 8000 }).then(
      () => again.$eval("#in-play-hide", (e) => e.click()).then(() => true),
      () => false,
    );
    check(
      hid && (await again.$eval("#in-play", (e) => getComputedStyle(e).display === "none")),
      '"Not now" puts the game in play away',
    );
    await again.close();
  }
  await alice.screenshot({ path: join(shots, "notices-desktop.png") });
  // The screenshots of every family in every language at four sizes, and
  // the layout's measures, are tests/layout.mjs (ctest web_layout).
  // Chat: both ways between the seats, the spectators apart, a quick phrase
  // worded in each viewer's language, HTML shown as text, a remembered mute.
  {
    let alerted = false;
    for (const p of [alice, bob2, spec])
      p.on("dialog", async (d) => {
        alerted = true;
        await d.dismiss();
      });
    const chatHas = (page, text, secs = 8) =>
      page
        .waitForFunction(
          (x) => [...document.querySelectorAll(".chat .chat-text")].some((e) => e.textContent === x),
          { timeout: secs * 1000 },
          text,
        )
        .then(
          () => true,
          () => false,
        );
    const say = async (page, text) => {
      await page.click("#chat-input", { clickCount: 3 });
      await page.type("#chat-input", text);
      await page.click("#chat-send");
    };
    await say(alice, "Hola Bob");
    check(await chatHas(bob2, "Hola Bob"), "chat: a seat's line reaches the other seat");
    // A line sent with Enter leaves the field (issue 34, 2): the next line is not glued to it.
    await bob2.focus("#chat-input");
    await bob2.keyboard.type("hello there");
    await bob2.keyboard.press("Enter");
    const sentFirst = await chatHas(alice, "hello there");
    const left = await bob2.$eval("#chat-input", (e) => e.value);
    await bob2.keyboard.type("second");
    await bob2.keyboard.press("Enter");
    const sentSecond = await chatHas(alice, "second");
    check(
      sentFirst && left === "" && sentSecond && !(await chatHas(alice, "hello theresecond", 1)),
      `chat: a line sent with Enter leaves the field, and the next is sent alone (left "${left}")`,
    );
    await bob2.select("select.lang", "es");
    await bob2.waitForFunction(() => document.documentElement.lang === "es");
    await bob2.click('.chat [data-phrase="good_game"]');
    check(
      (await chatHas(alice, "Good game")) && (await chatHas(bob2, "Buena partida")),
      "chat: a quick phrase reaches the other seat, in each viewer's language",
    );
    await bob2.select("select.lang", "en");
    const xss = "<img src=x onerror=alert(1)>";
    await say(alice, xss);
    check(
      (await chatHas(bob2, xss)) && !(await bob2.$(".chat img")) && !(await alice.$(".chat img")),
      "chat: HTML is shown literally, never as markup",
    );
    await say(spec, "from the stands");
    check(await chatHas(spec, "from the stands"), "chat: a spectator's line reaches the spectators");
    check(
      !(await chatHas(alice, "from the stands", 1)) && !(await chatHas(spec, "Hola Bob", 1)),
      "chat: seats and spectators never see each other's lines",
    );
    // Alice mutes seat 2 (Bob): his next line is hidden for her, also after a reload.
    await alice.click('.chat [data-mute="1"]');
    await bob2.click('.chat [data-phrase="thanks"]');
    check(await chatHas(bob2, "Thanks"), "chat: the muted player still sees his own line");
    await sleep(500);
    const hidden = !(await chatHas(alice, "Thanks", 1));
    await alice.reload();
    await alice.waitForSelector(".chat");
    const stillHidden = !(await chatHas(alice, "Thanks", 1)) && (await chatHas(alice, "Hola Bob"));
    const pressed = await alice.$eval('.chat [data-mute="1"]', (e) => e.getAttribute("aria-pressed"));
    check(
      hidden && stillHidden && pressed === "true",
      "chat: a mute hides that seat's lines for this viewer and is remembered",
    );
    check(!alerted, "chat: no script ran from a chat line");
    await alice.screenshot({ path: join(shots, "chat-desktop.png") });
  }
  // The turn clock plays for an idle player: 15 s a move (1.5 s here) and a
  // bank of 30 s (3 s); nobody moves for seat 1; the bot does, and the seat
  // is marked.
  {
    const page = await newPage(ctx);
    await page.goto(`${base}/?botdelay=20`);
    await chooseGame(page, "line", "latin");
    await page.select("#clock", "15");
    await createTable(page);
    // Each read is taken in the poll that finds the clock: the 1.5 s a move may
    // be over by a second round trip on a loaded machine.
    const clockText = (selector, timeout) =>
      page
        .waitForFunction((sel) => document.querySelector(sel)?.textContent, { timeout, polling: 50 }, selector)
        .then(
          (h) => h.jsonValue(),
          () => "",
        );
    const shown = await clockText(".turnbar .clock.running:not(.bank)", 15000);
    check(/^\d+ s$/.test(shown || ""), `the clock counts down on the seat to act (${shown})`);
    const bankText = await clockText(".turnbar .clock.running.bank", 8000); // the bank lasts 3 s
    check(
      /^extra time \d+ s$/.test(bankText || ""),
      `then the bank counts down, called extra time (no internal word "bank" on screen) (${bankText})`,
    );
    // The mark comes with the timeout, the bot's move a moment later.
    const v0 = (await state(page)).v;
    const marked = await page
      .waitForFunction(
        (v) =>
          document.querySelector(".turnbar .timeouts[data-timeouts]") &&
          Number(document.querySelector(".table")?.dataset.version) > v,
        { timeout: 15000 },
        v0,
      )
      .then(
        () => true,
        () => false,
      );
    const url = new URL(page.url());
    const st = await (
      await fetch(`${base}/api/tables/${url.searchParams.get("t")}?token=${url.searchParams.get("k")}`)
    ).json();
    check(
      marked &&
        st.clock.seats[0].timeouts >= 1 &&
        st.version > v0 &&
        (st.log || []).some((e) => e.kind === "move" && e.seat === 0),
      "the clock plays for an idle player (the bot moved for seat 1) and the seat is marked",
    );
    await page.screenshot({ path: join(shots, "clock-desktop.png") });
    await page.close();
  }

  // Players (issues 21, 13-14 and 25, 1, 6, 9): each person types a name
  // when sitting down; it is shown at the table, in the log and in the
  // summary as text (a name that is markup runs nothing); at the end "Play
  // again" takes both people to the new table, each to their own seat.
  {
    const evil = "<img src=x onerror=alert(1)>";
    const made = await (
      await fetch(`${base}/api/tables`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          game: "latin",
          options: { target: "1" },
          seats: ["human", "human", "bot:casual", "bot:casual"],
          bot_delay_ms: 20,
        }),
      })
    ).json();
    const pa = await newPage(await openContext(browser)),
      pb = await newPage(await openContext(browser));
    let alerts = 0;
    for (const p of [pa, pb])
      p.on("dialog", async (d) => {
        alerts++;
        await d.dismiss().catch(() => {});
      });
    await pa.goto(`${base}/?t=${made.id}&k=${made.tokens["0"]}`);
    await pb.goto(`${base}/?t=${made.id}&k=${made.tokens["1"]}`);
    for (const [p, name] of [
      [pa, evil],
      [pb, "Bea"],
    ]) {
      await p.waitForSelector("#name-input");
      await p.type("#name-input", name);
      await p.click("#name-save");
      await p.waitForSelector("#my-name", { timeout: 8000 });
    }
    check(
      (await pa.$eval("#my-name", (e) => e.textContent)).includes(evil),
      "a typed name is shown at one's own seat, as text",
    );
    check(
      await pa.evaluate(() => !!JSON.parse(localStorage.getItem("boneyard.player") || "null")?.key),
      "the player (name and key) is remembered in the browser",
    );
    const shown = await pb
      .waitForFunction(
        (n) => [...document.querySelectorAll(".opp-name")].some((e) => e.textContent.includes(n)),
        { timeout: 8000 },
        evil,
      )
      .then(
        () => true,
        () => false,
      );
    check(shown, "the other person sees the name at the table");
    const seesBea = await pa
      .waitForFunction(() => [...document.querySelectorAll(".opp-name")].some((e) => e.textContent.includes("Bea")), {
        timeout: 8000,
      })
      .then(
        () => true,
        () => false,
      );
    check(seesBea, "and the other way round");
    let logSeen = false,
      summarySeen = false;
    const deadline = Date.now() + 150000;
    while (Date.now() < deadline) {
      const [sa, sb] = [await state(pa), await state(pb)];
      if (sa?.status === "over" && sb?.status === "over") break;
      for (const p of [pa, pb]) {
        if (await p.$("#continue")) {
          if (p === pb && !summarySeen)
            summarySeen = await pb.$eval(".summary", (e, n) => e.textContent.includes(n), evil).catch(() => false);
          await p.click("#continue").catch(() => {});
          continue;
        }
        const s = await state(p);
        if (s?.act) await act(p, "line").catch(() => null);
      }
      if (!logSeen)
        logSeen = await pb.evaluate((n) => (document.querySelector(".log")?.textContent || "").includes(n), evil);
      await sleep(30);
    }
    check((await state(pa))?.status === "over", "the two people play the game to its end");
    await pb.waitForSelector(".summary #rematch", { timeout: 8000 });
    if (!summarySeen)
      summarySeen = await pb.$eval(".summary", (e, n) => e.textContent.includes(n), evil).catch(() => false);
    check(logSeen, "the name is shown in the other person's log");
    check(summarySeen, "the name is shown in the summary");
    const injected = async (p) => p.evaluate(() => document.querySelectorAll('img[src="x"], [onerror]').length);
    check(
      alerts === 0 && (await injected(pa)) === 0 && (await injected(pb)) === 0,
      "a name that is markup is shown literally and runs no script",
    );
    await pb.screenshot({ path: join(shots, "players-summary-desktop.png") });
    // The finished game's replay names the seats too.
    const rp = await newPage(await openContext(browser));
    await rp.goto(`${base}/?replay=${made.id}`);
    const replayNamed = await rp
      .waitForFunction(
        (n) => [...document.querySelectorAll(".opp-name")].some((e) => e.textContent.includes(n)),
        { timeout: 10000 },
        "Bea",
      )
      .then(
        () => true,
        () => false,
      );
    check(replayNamed && (await injected(rp)) === 0, "the replay shows the names, as text");
    await rp.close();
    // Play again: an offer; once the other accepts, both go to the new table.
    await pa.click("#rematch");
    await pb.waitForSelector("#rematch-offer", { timeout: 10000 });
    await pb.click("#rematch");
    const moved = (p) =>
      p
        .waitForFunction(
          (old) => new URLSearchParams(location.search).get("t") !== old && !!document.querySelector(".table"),
          { timeout: 10000 },
          made.id,
        )
        .then(
          () => true,
          () => false,
        );
    const [ma, mb] = await Promise.all([moved(pa), moved(pb)]);
    check(ma && mb, '"Play again", accepted, takes both people\'s pages to the new table');
    const where = (p) =>
      p.evaluate(() => {
        const q = new URLSearchParams(location.search);
        return { t: q.get("t"), k: q.get("k") };
      });
    const [wa, wb] = [await where(pa), await where(pb)];
    const [na, nb] = [
      await (await fetch(`${base}/api/tables/${wa.t}?token=${wa.k}`)).json(),
      await (await fetch(`${base}/api/tables/${wb.t}?token=${wb.k}`)).json(),
    ];
    check(
      wa.t === wb.t &&
        na.seat === 3 &&
        nb.seat === 0 &&
        na.seats[3].name === evil &&
        nb.seats[0].name === "Bea" &&
        na.seats[1].player === "bot:casual" &&
        na.seats[2].player === "bot:casual",
      `the rematch seats the same people (turned by one seat: the lead passes on) and the same bots (seats ${na.seat}, ${nb.seat})`,
    );
    const named = await pa.waitForSelector("#my-name", { timeout: 8000 }).then(
      () => true,
      () => false,
    );
    check(named, "the name follows the person to the rematch");
    // Seat 4 is the other side: "Us" still comes first in the top bar.
    const chips = await pa
      .waitForFunction(
        () => {
          const s = [...document.querySelectorAll(".topbar .scores .score:not(.target)")];
          return s.length === 2 && s.map((e) => (e.classList.contains("mine") ? "*" : "") + e.firstChild.textContent);
        },
        { timeout: 8000 },
      )
      .then(
        (h) => h.jsonValue(),
        () => [],
      );
    check(chips.join() === "*Us,Them", `after the rematch my side is still shown first (${chips})`);
    check(!!(await pa.$(".topbar .share-btn")), "the rematch's table offers its link to share, as the first did");
    await pa.close();
    await pb.close();
  }

  // First meaningful paint of a table (loopback).
  const fresh = await newPage(ctx);
  await fresh.goto(alice.url(), { waitUntil: "domcontentloaded" });
  await fresh.waitForSelector(".board .tile, .board .muted");
  figures.first_table_paint_ms = await fresh.evaluate(() => Math.round(window.__firstTablePaint || performance.now()));
  check(
    wordSlips.size === 0,
    `no "1 tiles", "You laid their", "bid Pass", "as you like" (the opening turn goes on while a tile fits) while playing (${[...wordSlips].join(", ")})`,
  );
  const sizes = JSON.parse(readFileSync(join(webDir, "dist", "sizes.json"), "utf8"));
  figures.bundle_js_gzip_bytes = sizes.js_gzip;
  figures.bundle_css_gzip_bytes = sizes.css_gzip;
  check(sizes.js_gzip < 300 * 1024, `bundle ${sizes.js_gzip} B gzip < 300 KB`);
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
figures.total_s = Math.round((Date.now() - t0) / 1000);
writeFileSync(join(shots, "figures.json"), JSON.stringify(figures, null, 2));
console.log("figures: " + JSON.stringify(figures));
console.log(H.failures ? `${H.failures} failure(s)` : "browser tests passed");
process.exit(H.failures ? 1 : 0);
