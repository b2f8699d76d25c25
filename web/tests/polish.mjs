// The app's smaller defects that fresh eyes found after issue 37's work, each
// a check that failed before its fix: the browser's Back at a game in play
// asks "Leave the table?" as the ‹ Lobby link does; the chat counts down to
// its limit and says when a paste was cut; Texas 42 keeps the last trick in
// sight and its taken points on one line on a phone; Mexican Train's hand on a
// phone is large enough to count the pips; the end-of-hand box says when my
// turn in the next hand has come and my clock runs.
//   node tests/polish.mjs BONEYARD_EXE SCREENSHOT_DIR
import { join } from "node:path";
import { setUp, tableHelpers } from "./harness.mjs";

const H = await setUp({ name: "polish", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, check } = H;
const { sleep, newPage, api, table, until } = tableHelpers(H);
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

try {
  // Back at a game in play: the question first, the table kept; "Stay" keeps
  // it, and leaving from the question reaches the lobby.
  {
    // As a player comes: the lobby, then its Create (the default seats: you and bots).
    const p = await newPage();
    await p.goto(`${base}/?botdelay=400`);
    await p.waitForSelector('[data-family="line"]');
    await Promise.all([p.waitForSelector(".table"), p.click("#create")]);
    await p.waitForSelector(".hand", { timeout: 15000 });
    await p.goBack({ timeout: 3000 }).catch(() => {}); // a same-document Back: no load to wait for
    const asked = await until(p, () => !!document.querySelector(".dialog.leave"), null, 5);
    const still = await p.evaluate(() => ({ url: location.search, hand: !!document.querySelector(".hand") }));
    check(
      asked && still.hand && still.url.startsWith("?t="),
      `Back at a game in play asks "Leave the table?" and keeps the table (${asked}, at ${still.url})`,
    );
    await p.screenshot({ path: join(shots, "polish-back-asks.png") });
    await p.click("#leave-stay");
    await sleep(200);
    const stayed = await p.evaluate(
      () => !document.querySelector(".dialog.leave") && !!document.querySelector(".hand"),
    );
    check(stayed, `"Stay" closes the question and the table stays`);
    await p.goBack({ timeout: 3000 }).catch(() => {});
    await until(p, () => !!document.querySelector(".dialog.leave"), null, 5);
    await p.click("#leave-go");
    const lobby = await until(p, () => location.search === "" && !!document.querySelector(".lobby"), null, 5);
    check(lobby, "leaving from the question reaches the lobby");
    await p.close();
  }

  // The chat near its limit: a count of what is left, and at the limit a
  // sentence saying the rest was left out (a long paste was cut silently).
  {
    const t = await table("latin", { players: "2" }, ["human", "bot:beginner"], { bot_delay_ms: 400 });
    const p = await newPage(PHONE);
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector("#chat-input", { timeout: 15000 });
    const left = () => p.$eval("#chat-left", (e) => (getComputedStyle(e).display === "none" ? "" : e.textContent));
    await p.type("#chat-input", "hello");
    const early = await left();
    await p.$eval("#chat-input", (e) => {
      e.value = "x".repeat(190);
      e.dispatchEvent(new Event("input"));
    });
    const near = await left();
    await p.click("#chat-input");
    await p.keyboard.press("End");
    await p.keyboard.type("y".repeat(30)); // 20 more than it holds
    const full = await left();
    const value = await p.$eval("#chat-input", (e) => e.value.length);
    check(early === "", `a short line shows no count ("${early}")`);
    check(near === "10 characters left", `ten characters from the limit it counts ("${near}")`);
    check(
      value === 200 && full === "A chat line holds at most 200 characters: anything past them was left out.",
      `at the limit it says so (${value} characters: "${full}")`,
    );
    await (await p.$(".chat")).screenshot({ path: join(shots, "polish-chat-limit-phone.png") });
    await p.close();
  }
  // Texas 42 on a narrow phone (360 px): the last trick stays in sight
  // while the next is played (it went as the next lead was laid, about 1.5 s
  // at a bot's pace), and each side's taken points and tricks keep one line.
  {
    const t = await table("texas-42", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage({ width: 360, height: 740, isMobile: true, hasTouch: true });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    let r = null;
    for (let i = 0; i < 400 && !r; i++) {
      await sleep(100);
      r = await p.evaluate(() => {
        const tb = document.querySelector(".table");
        document.getElementById("continue")?.click(); // a hand that ended early: on to the next
        if (!tb || tb.dataset.toAct !== "1" || document.querySelector(".overlay")) return null;
        const trick = document.querySelectorAll(".trick .tt").length;
        const taken = [...document.querySelectorAll(".taken .score b")].map((b) => b.textContent);
        const tricks = taken.reduce((a, x) => a + Number(/· (\d+) trick/.exec(x)?.[1] ?? 0), 0);
        if (trick > 0 && tricks > 0)
          return {
            last: document.querySelector(".last-trick")?.textContent ?? "",
            lastTiles: document.querySelectorAll(".last-trick svg.tile").length,
            // Its text's lines: a range has a box for each piece of each line.
            lines: [...document.querySelectorAll(".taken .score b")].map((b) => {
              const text = document.createRange();
              text.selectNodeContents(b);
              const tops = new Set([...text.getClientRects()].map((x) => Math.round(x.top)));
              return [b.textContent, tops.size, Math.round(b.getBoundingClientRect().right)];
            }),
          };
        const move =
          document.querySelector(".hand .htile.legal") ||
          document.querySelector('.hand-area [data-move="pass"]') ||
          document.querySelector(".hand-area [data-move]");
        move?.click();
        return null;
      });
    }
    check(!!r, "a Texas 42 hand reaches a trick in progress after one taken");
    if (r) {
      check(
        /^Last trick, won by /.test(r.last) && r.lastTiles === 4,
        `the last trick stays in sight during the next ("${r.last}", ${r.lastTiles} tiles)`,
      );
      check(
        r.lines.every(([, n, right]) => n === 1 && right <= 360),
        `each side's points and tricks keep one line at 360 px (${JSON.stringify(r.lines)})`,
      );
    }
    await p.screenshot({ path: join(shots, "polish-t42-phone.png") });
    await p.close();
  }
  // Mexican Train on an upright phone: a hand of fifteen double-twelve tiles
  // keeps them large enough to count twelve pips (they were 26 px wide),
  // wrapping to more rows inside the screen's width.
  {
    const t = await table("mexican-train", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage(PHONE);
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector(".hand .htile svg", { timeout: 15000 });
    const r = await p.evaluate(() => {
      const svgs = [...document.querySelectorAll(".hand .htile svg")].map((e) => e.getBoundingClientRect());
      return {
        n: svgs.length,
        width: Math.round(Math.min(...svgs.map((b) => b.width))),
        right: Math.round(Math.max(...svgs.map((b) => b.right))),
        // Rows by layout (a playable tile is raised by a transform).
        rows: new Set([...document.querySelectorAll(".hand .htile")].map((e) => e.offsetTop)).size,
      };
    });
    check(
      r.n >= 12 && r.width >= 32 && r.right <= 390 && r.rows === 2,
      `a phone's double-twelve hand: ${r.n} tiles ${r.width} px wide in ${r.rows} rows, inside the screen (right edge ${r.right} px)`,
    );
    await p.screenshot({ path: join(shots, "polish-mt-hand-phone.png") });
    await p.close();
  }
  // The end-of-hand box while the next hand goes on behind it: my turn in
  // it, and my clock running, are said by its button (a player reading the
  // review ran out of time unawares, a bot playing for them).
  {
    const t = await table("latin", { players: "2" }, ["human", "bot:beginner"], { clock_s: 60 });
    const p = await newPage(PHONE);
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    let said = null;
    for (let i = 0; i < 600 && !said; i++) {
      await sleep(100);
      said = await p.evaluate(() => {
        const w = document.getElementById("turn-waiting");
        if (w) return { text: w.textContent, running: !!w.querySelector(".clock.running") };
        if (!document.querySelector(".dialog.summary"))
          (
            document.querySelector(".dialog button") || // "Which end?": the first
            document.querySelector(".hand .htile.legal") ||
            document.querySelector(".hand-area [data-move]")
          )?.click();
        return null;
      });
    }
    check(
      !!said && /^It is your turn in hand \d+, and your clock is running: \d+ s/.test(said.text) && said.running,
      `the end-of-hand box says my turn in the next hand and shows my clock running (${JSON.stringify(said)})`,
    );
    await p.screenshot({ path: join(shots, "polish-turn-behind-summary-phone.png") });
    await p.close();
  }
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all polish checks passed");
process.exit(H.failures ? 1 : 0);
