// Attention (issue 34, 14): an unread-chat badge that leads to the chat;
// "Your turn" in the tab's title and a chime while the tab is in the
// background (no chime when muted); emotes, a fixed set the server checks
// and counts as chat lines; wins and losses on the player page.
//   node tests/attention.mjs BONEYARD_EXE SCREENSHOT_DIR
import { join } from "node:path";
import { openContext, setUp } from "./harness.mjs";

const H = await setUp({ name: "attention", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, browser, check } = H;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// hidden: the page starts as a tab in the background would be (its
// visibility is the test's to say: window.__hidden, then a visibilitychange).
async function newPage(viewport = { width: 1280, height: 800 }, { hidden = false, muted = false } = {}) {
  const page = await (await openContext(browser)).newPage();
  await page.setViewport(viewport);
  await page.evaluateOnNewDocument(
    (hid, mute) => {
      localStorage.setItem("boneyard.lang", "en");
      if (mute) localStorage.setItem("boneyard.mute", "1");
      window.__hidden = hid;
      Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
      Object.defineProperty(document, "hidden", { get: () => !!window.__hidden });
    },
    hidden,
    muted,
  );
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  return page;
}
const setHidden = (p, hid) =>
  p.evaluate((x) => {
    window.__hidden = x;
    document.dispatchEvent(new Event("visibilitychange"));
  }, hid);
const call = async (method, path, body) => {
  const r = await fetch(base + path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json(), retry: r.headers.get("retry-after") };
};
const api = async (method, path, body) => {
  const r = await call(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const until = (page, f, arg, secs = 15) =>
  page.waitForFunction(f, { timeout: secs * 1000 }, arg).then(
    () => true,
    () => false,
  );
// A two-player Latin table whose seats are taken by two named players.
async function twoPlayers(names, extra = {}) {
  const t = await api("POST", "/api/tables", {
    game: "latin",
    options: { players: "2" },
    seats: ["human", "human"],
    bot_delay_ms: 0,
    ...extra,
  });
  const who = [];
  for (const [k, name] of names.entries()) {
    who.push(await api("POST", "/api/players", { name }));
    await api("POST", `/api/tables/${t.id}/join`, { token: t.tokens[String(k)], key: who[k].key });
  }
  return { t, who };
}
const state = (t, k) => api("GET", `/api/tables/${t.id}?token=${t.tokens[String(k)]}`);

try {
  // The unread badge and the emotes, on a small phone: the chat is under the hand, out of sight.
  {
    const { t } = await twoPlayers(["Ana", "Bo"]);
    const p = await newPage({ width: 360, height: 480 });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector(".chat");
    await p.evaluate(() => scrollTo(0, 0));
    const outOfSight = await p.$eval("#chat", (e) => e.getBoundingClientRect().top >= innerHeight);
    await api("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["1"], text: "are you there?" });
    const one = await until(p, () => /^1 new message$/.test(document.querySelector("#chat-badge")?.textContent || ""));
    await api("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["1"], emote: "clap" });
    const two = await until(p, () => /^2 new messages$/.test(document.querySelector("#chat-badge")?.textContent || ""));
    // Drawn, not a font's glyph (a device without a colour-emoji font draws an empty box).
    const emote = await p
      .$eval(".chat-lines li.emote .chat-emote", (e) => ({
        text: e.textContent,
        drawing: e.querySelector("svg.emote-icon")?.getAttribute("data-emote"),
        parts: e.querySelectorAll("svg.emote-icon > *").length,
        label: e.getAttribute("aria-label"),
      }))
      .catch(() => null);
    const buttons = await p.$$eval(".chat-emotes button", (bs) =>
      bs.map((b) => ({
        id: b.getAttribute("data-emote"),
        drawing: b.querySelector("svg.emote-icon")?.getAttribute("data-emote"),
        parts: b.querySelectorAll("svg.emote-icon > *").length,
        text: b.textContent,
        label: b.getAttribute("aria-label"),
      })),
    );
    check(
      outOfSight && one && two,
      "lines from the other player while the chat is out of sight: a badge counts them (1, then 2)",
    );
    check(
      emote?.drawing === "clap" && emote.parts > 0 && emote.text === "" && emote.label === "Applause",
      `an emote is drawn (no font glyph), named for screen readers (${JSON.stringify(emote)})`,
    );
    check(
      buttons.length === 6 && buttons.every((b) => b.drawing === b.id && b.parts > 0 && b.text === "" && b.label),
      `each emote button is drawn and named (${JSON.stringify(buttons)})`,
    );
    await p.screenshot({ path: join(shots, "attention-badge.png") });
    await p.click("#chat-badge");
    const gone = await until(p, () => !document.querySelector("#chat-badge"));
    const inSight = await p.$eval("#chat", (e) => e.getBoundingClientRect().top < innerHeight);
    check(gone && inSight, "the badge leads to the chat and goes once it is read");
    await p.screenshot({ path: join(shots, "attention-chat.png") });
    // A line that comes while the chat is in sight is read at once: no badge.
    await api("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["1"], text: "in sight" });
    const shown = await until(p, () =>
      [...document.querySelectorAll(".chat-lines li")].some((e) => /in sight/.test(e.textContent)),
    );
    await sleep(300);
    check(shown && !(await p.$("#chat-badge")), "a line that comes while the chat is in sight makes no badge");
    // My own emote, one tap: the other seat sees it as an emote.
    await p.click('.chat-emotes button[data-emote="thumbs_up"]');
    let seen = false;
    for (let i = 0; i < 50 && !seen; i++) {
      seen = ((await state(t, 1)).chat || []).some((l) => l.emote === "thumbs_up" && l.seat === 0);
      if (!seen) await sleep(100);
    }
    check(seen && !(await p.$("#chat-badge")), "an emote is one tap, and my own line is no news to me");
    await p.close();
  }

  // The server takes only its emotes, one kind of line at a time, and counts them as chat lines.
  {
    const { t } = await twoPlayers(["Cy", "Di"]);
    const bad = await call("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["0"], emote: "<img src=x>" });
    const both = await call("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["0"], emote: "clap", text: "hi" });
    check(
      bad.status === 400 && /'emote' must be one of thumbs_up, clap/.test(bad.body.error) && both.status === 400,
      `an unknown emote, or an emote with text, is refused (${bad.body.error}; ${both.body.error})`,
    );
    const codes = [];
    let retry = null;
    for (let i = 0; i < 8; i++) {
      const r = await call("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["0"], emote: "wow" });
      codes.push(r.status);
      if (r.status === 429) retry = r.retry;
    }
    check(
      codes.slice(0, 3).every((c) => c === 200) && codes.includes(429) && Number(retry) > 0,
      `emotes are rate-limited as chat lines are (${codes.join(",")}; Retry-After ${retry})`,
    );
  }

  // "Your turn" while the tab is in the background: the title and a chime;
  // the page's own title once it is seen; no chime when muted.
  for (const muted of [false, true]) {
    const { t } = await twoPlayers(muted ? ["Ed", "Flo"] : ["Gus", "Hal"]);
    const p = await newPage({ width: 1280, height: 800 }, { muted });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector(".table[data-status='playing']", { timeout: 15000 });
    const own = await p.title();
    // Until it is the other seat's turn (moves by the API, the first legal one).
    for (let i = 0; i < 10; i++) {
      const s = await state(t, 0);
      if (!s.to_act) break;
      await api("POST", `/api/tables/${t.id}/moves`, { token: t.tokens["0"], move: s.legal[0] });
    }
    await until(p, () => document.querySelector(".table")?.dataset.toAct === "0");
    await setHidden(p, true);
    let mine = false;
    for (let i = 0; i < 10 && !mine; i++) {
      const s = await state(t, 1);
      if (s.to_act) await api("POST", `/api/tables/${t.id}/moves`, { token: t.tokens["1"], move: s.legal[0] });
      mine = (await state(t, 0)).to_act;
    }
    const titled = await until(p, (x) => document.title === `Your turn · ${x}`, own);
    const chimes = await p.evaluate(() => window.__sounds?.turn || 0);
    await setHidden(p, false);
    const back = await until(p, (x) => document.title === x, own);
    check(
      mine && titled && back && chimes === (muted ? 0 : 1),
      `my turn while the tab is in the background${muted ? ", muted" : ""}: "Your turn" in the title, ${muted ? "no chime" : "a chime"}, the title back once seen (turn ${mine}, title ${titled}, chimes ${chimes}, back ${back})`,
    );
    await p.close();
  }

  // Wins and losses on the player page: a game to its end (both seats left
  // to the bots that take over), then each player's page.
  {
    const { t, who } = await twoPlayers(["Ivy", "Jo"], {
      options: { players: "2", single_hand: "true" },
      drop_delay_ms: 20,
    });
    let over = false;
    for (let i = 0; i < 600 && !over; i++) {
      over = (await api("GET", `/api/tables/${t.id}?token=${t.spectate}`)).status === "over";
      if (!over) await sleep(100);
    }
    const pages = [];
    for (const w of who) {
      const p = await newPage({ width: 390, height: 844 });
      await p.goto(`${base}/?player=${w.id}`);
      // The stats come first; the game list after one more request (players.ts).
      await until(p, () => !!document.querySelector(".player-stats") && !!document.querySelector(".my-tables"));
      pages.push(
        await p.evaluate(() => ({
          stats: document.querySelector(".player-stats")?.textContent || "",
          result: document.querySelector(".my-tables .result")?.textContent.trim() || "",
        })),
      );
      if (pages.length === 1) await p.screenshot({ path: join(shots, "attention-player-stats.png") });
      await p.close();
    }
    const [a, b] = pages;
    const won = (x) => /1 finished game: 1 won, 0 lost, 0 drawn \(100% won\)/.test(x.stats) && x.result === "won";
    const lost = (x) => /1 finished game: 0 won, 1 lost, 0 drawn \(0% won\)/.test(x.stats) && x.result === "lost";
    const drawn = (x) => /0 won, 0 lost, 1 drawn/.test(x.stats) && x.result === "drawn";
    check(
      over && ((won(a) && lost(b)) || (lost(a) && won(b)) || (drawn(a) && drawn(b))),
      `each player's page counts the game won or lost, and the game list says which (${JSON.stringify(pages)})`,
    );
  }
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all attention checks passed");
process.exit(H.failures ? 1 : 0);
