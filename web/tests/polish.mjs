// The app's smaller defects that fresh eyes found after issue 37's work, each
// a check that failed before its fix: the browser's Back at a game in play
// asks "Leave the table?" as the ‹ Lobby link does; the chat counts down to
// its limit and says when a paste was cut; Texas 42 keeps the last trick in
// sight and its taken points on one line on a phone; Mexican Train's hand on a
// phone is large enough to count the pips; the end-of-hand box says when my
// turn in the next hand has come and my clock runs; a replay link to no game
// says so in the player's words, with a way to the lobby; the new-table form's
// bonuses and switches are boxes in players' words, and a bad value's
// message goes with the game it was said of.
//   node tests/polish.mjs BONEYARD_EXE SCREENSHOT_DIR
import { join } from "node:path";
import { chooseGame, createTable, setUp, tableHelpers } from "./harness.mjs";

const H = await setUp({ name: "polish", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, check } = H;
const { sleep, newPage, api, table, until, untilOver } = tableHelpers(H);
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

try {
  // Back at a game in play: the question first, the table kept; "Stay" keeps
  // it, and leaving from the question reaches the lobby.
  {
    // As a player comes: the lobby, then its Create (the default seats: you and bots).
    const p = await newPage();
    await p.goto(`${base}/?botdelay=400`);
    await p.waitForSelector('[data-family="line"]');
    // Latin's scoring said as a player counts it: the pips left in the hands.
    const about = await p.$$eval(".preset-summary", (e) => e.map((x) => x.textContent).join(" | "));
    check(
      /all pips left in every hand/i.test(about) && !/on the table/.test(about),
      `the presets say whose pips are scored (${about.slice(0, 140)})`,
    );
    await createTable(p);
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
    // The chooser's key badges ("1", "L") are for a keyboard: none on a touch phone.
    const kbdShown = (page) =>
      page.evaluate(() => {
        const k = document.body.appendChild(document.createElement("kbd"));
        const shown = getComputedStyle(k).display !== "none";
        k.remove();
        return shown;
      });
    const desk = await newPage();
    await desk.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await desk.waitForSelector("#chat-input", { timeout: 15000 });
    const [onPhone, onDesk] = [await kbdShown(p), await kbdShown(desk)];
    check(!onPhone && onDesk, `key badges show on a desktop only (phone ${onPhone}, desktop ${onDesk})`);
    await desk.close();
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
        // My bid: the hand I bid on is shown plain, not dimmed as unplayable.
        if (document.querySelector(".bids") && window.__bidDim === undefined)
          window.__bidDim = [...document.querySelectorAll(".hand .htile")].map((x) => x.classList.contains("dim"));
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
    const bidDim = await p.evaluate(() => window.__bidDim);
    check(
      Array.isArray(bidDim) && bidDim.length === 7 && !bidDim.some(Boolean),
      `my hand is not dimmed while I bid (${JSON.stringify(bidDim)})`,
    );
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
    // "Capicúa!" is a line game's word (both ends alike): not offered at Texas 42.
    const t42Phrases = await p.$$eval(".chat [data-phrase]", (b) => b.map((x) => x.dataset.phrase));
    check(
      t42Phrases.length > 0 && !t42Phrases.includes("capicua"),
      `Texas 42's chat offers no "Capicúa!" (${t42Phrases.join(", ")})`,
    );
    await p.screenshot({ path: join(shots, "polish-t42-phone.png") });
    // Texas 42 is played clockwise (the spec's "Seats"): the next seat sits
    // on my left in the trick, and the phone's seat row, in the order of
    // play, reads as the trick does (it read mirrored: next on the right).
    const places = (page) =>
      page.evaluate(() => {
        const x = (el) => (el ? Math.round(el.getBoundingClientRect().left) : null);
        const row = [...document.querySelectorAll(".opponents .opp")];
        return {
          row: row.sort((a, b) => x(a) - x(b)).map((e) => Number(e.dataset.seat)),
          trick: [1, 3].map((k) => x(document.querySelector(`.trick-slot[data-seat="${k}"]`))),
          seats: [1, 3].map((k) => x(document.querySelector(`.opp[data-seat="${k}"]`))),
        };
      });
    const onPhone = await places(p);
    check(
      onPhone.row.join() === "1,2,3" && onPhone.trick[0] < onPhone.trick[1],
      `Texas 42 on a phone: the seat row (next, partner, last) reads as the trick, the next seat on the left (${JSON.stringify(onPhone)})`,
    );
    const wide = await newPage();
    await wide.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await wide.waitForSelector('.opp[data-seat="3"]', { timeout: 15000 });
    const onDesk = await places(wide);
    check(
      onDesk.seats[0] < onDesk.seats[1] && (onDesk.trick[0] === null || onDesk.trick[0] < onDesk.trick[1]),
      `Texas 42 on a desktop: the next seat sits on my left, the last on my right (${JSON.stringify(onDesk)})`,
    );
    await wide.close();
    await p.close();
  }
  // Mexican Train on an upright phone: a hand of fifteen double-twelve tiles
  // keeps them large enough to count twelve pips (they were 26 px wide, then
  // 32, still small to a fresh pair of eyes), wrapping to more rows inside
  // the screen's width; the trains' tiles too (22 px, now 24).
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
        // The trains' tiles: the short side of each.
        board: Math.round(
          Math.min(
            ...[...document.querySelectorAll(".train-tiles .tt svg, .station svg")].map((e) => {
              const b = e.getBoundingClientRect();
              return Math.min(b.width, b.height);
            }),
          ),
        ),
        wide: document.documentElement.scrollWidth,
        rows: new Set([...document.querySelectorAll(".hand .htile")].map((e) => e.offsetTop)).size,
        // Tiles a row holds: the start player may have drawn many looking for a double.
        perRow: (() => {
          const tops = [...document.querySelectorAll(".hand .htile")].map((e) => e.offsetTop);
          return tops.filter((x) => x === Math.min(...tops)).length;
        })(),
      };
    });
    check(
      r.n >= 12 &&
        r.width >= 36 &&
        r.right <= 390 &&
        r.perRow >= 7 &&
        r.rows === Math.ceil(r.n / r.perRow) &&
        r.board >= 24 &&
        r.wide <= 390,
      `a phone's double-twelve hand: ${r.n} tiles ${r.width} px wide in ${r.rows} rows, inside the screen (right edge ${r.right} px); the trains' tiles ${r.board} px, the page ${r.wide} px wide`,
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
  // Quick match asks a newcomer's name under the game and kind chosen (they
  // were gone from sight), and Cancel there is back at the choice.
  {
    const p = await newPage(PHONE);
    await p.goto(base + "/");
    await p.waitForSelector('button[data-qm="latin"]');
    // Which play is online and which is on this device, said in each card.
    const where = await p.evaluate(() => [
      document.getElementById("quick-about")?.textContent || "",
      document.querySelector("#local-card .muted")?.textContent || "",
      document.querySelector("#local-card h2")?.textContent || "",
      document.querySelector("#local-card [data-local] span")?.textContent || "",
    ]);
    // A newcomer took the two rows of games for the same thing: the device's say "offline".
    check(
      /^Online: played on the server/.test(where[0]) &&
        /^No connection needed/.test(where[1]) &&
        /offline/.test(where[2]) &&
        /^offline/.test(where[3]),
      `the lobby says which play is online and which is on this device (${JSON.stringify(where)})`,
    );
    await p.click("#qm-rated");
    await p.click('button[data-qm="latin"]');
    await p.waitForSelector("#qm-name");
    const asked = await p.$eval(".qm", (e) => e.innerText);
    check(
      /Latin dominoes, Rated\. First, the name the others will see/.test(asked),
      `the name is asked under the game and kind chosen (${JSON.stringify(asked)})`,
    );
    await p.screenshot({ path: join(shots, "polish-qm-name-phone.png") });
    await p.click("#qm-cancel");
    const back = await until(
      p,
      () => !!document.querySelector('button[data-qm="latin"]') && !document.getElementById("qm-name"),
      null,
      5,
    );
    check(back, "Cancel at the name is back at the choice of game");
    check(!(await p.evaluate(() => localStorage.getItem("boneyard.player"))), "and no player was made");
    await p.close();
  }
  // Watching on a phone: each seat's name stays whole (they broke mid-word,
  // "Ali ce"), and the spectators are not offered a player's phrases.
  {
    const names = ["Alexandra", "Bartholomew", "Christopher", "Dominique"];
    const t = await table("latin", {}, ["human", "human", "human", "human"], { bot_delay_ms: 600 });
    for (const [k, name] of names.entries()) {
      const who = await api("POST", "/api/players", { name });
      await api("POST", `/api/tables/${t.id}/join`, { token: t.tokens[String(k)], key: who.key });
    }
    const p = await newPage({ width: 360, height: 740, isMobile: true, hasTouch: true });
    await p.goto(`${base}/?t=${t.id}&k=${t.spectate}`);
    await p.waitForSelector(".opp-name");
    await until(p, (n) => document.querySelectorAll(".opp-name").length >= n, 4);
    const seen = await p.evaluate(() =>
      [...document.querySelectorAll(".opp-name")].map((e) => {
        const r = document.createRange();
        const text = [...e.childNodes].find((x) => x.nodeType === 3 && x.textContent.trim()) || e;
        r.selectNodeContents(text);
        return [e.textContent.trim(), new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
      }),
    );
    check(
      seen.length === 4 && seen.every(([, lines]) => lines === 1),
      `a spectator's phone keeps every name on one line (${JSON.stringify(seen)})`,
    );
    const phrases = await p.$$eval(".chat [data-phrase]", (b) => b.map((x) => x.dataset.phrase));
    check(
      phrases.length > 0 && !phrases.includes("paso") && !phrases.includes("hurry"),
      `a spectator is not offered "I pass" or "Your turn!" (${phrases.join(", ")})`,
    );
    await p.screenshot({ path: join(shots, "polish-watch-phone.png") });
    await p.close();
  }
  // The replay of a game of several hands goes a hand at a time: to the step
  // that ends this hand (its result shown), back to the previous one's.
  {
    const t = await table("mexican-train", { players: "2", rounds: "2" }, ["bot:beginner", "bot:beginner"]);
    check(await untilOver(t, 90), "a two-round Mexican Train game of bots ends");
    const steps = [];
    for (let from = 0; from !== null && from !== undefined;) {
      const page = await api("GET", `/api/tables/${t.id}/replay?from=${from}`);
      steps.push(...page.steps);
      from = page.next;
    }
    const ends = steps.map((s, j) => j).filter((j) => j > 0 && steps[j].hands_finished > steps[j - 1].hands_finished);
    const p = await newPage(PHONE);
    await p.goto(`${base}/?replay=${t.id}`);
    await p.waitForSelector("#replay-next-hand");
    const pos = () => p.$eval("#replay-pos", (e) => Number(e.dataset.step));
    await p.click("#replay-next-hand");
    const first = await pos();
    const shown = await p.$eval(".replay-what", (e) => e.innerText);
    const nextTitle = await p.$eval("#replay-next-hand", (e) => e.title || e.getAttribute("aria-label"));
    check(nextTitle === "On to this round's end (Page Down)", `the replay's ▶▶ says round (${nextTitle})`);
    // The round's end shows the round's trains, not the next deal's "Shuffling".
    const board = await p.evaluate(() => ({
      tiles: document.querySelectorAll(".replay .trains svg.tile").length,
      text: document.querySelector(".replay .felt")?.innerText ?? "",
    }));
    check(
      board.tiles > 0 && !/Shuffling/.test(board.text),
      `a round's end in the replay shows its trains (${board.tiles} tiles laid)`,
    );
    await p.click("#replay-next-hand");
    const second = await pos();
    await p.keyboard.press("PageUp");
    const back = await pos();
    check(
      ends.length === 2 && first === ends[0] && second === ends[1] && back === ends[0],
      `the replay's hand buttons and Page Up go from hand's end to hand's end (${first}, ${second}, ${back}; ends ${ends})`,
    );
    check(
      /^Round 1$[^]*Penalty/m.test(shown) && !/Hand 1/.test(shown),
      `a round's end shows its result, called a round as Mexican Train's rules call it (${JSON.stringify(shown.slice(0, 120))})`,
    );
    await p.screenshot({ path: join(shots, "polish-replay-hands-phone.png") });
    // Every step in the log's words, never the record's move texts
    // ("12-1:T2", "end_opening", "bid:30", "trump:5", "Chance: draw 5-3").
    const codes = /:(M|T\d+|L|R)\b|bid:|trump:|end_opening|plays (draw|pass)|Chance:/;
    const stepWords = async (page) => {
      await page.keyboard.press("Home");
      const said = [];
      for (let j = 0; j < steps.length + 5; j++) {
        said.push(await page.$eval(".replay-what b", (e) => e.getAttribute("title") || e.textContent));
        await page.keyboard.press("ArrowRight");
      }
      return said;
    };
    const mtSaid = await stepWords(p);
    check(
      !mtSaid.some((x) => codes.test(x)) && mtSaid.some((x) => / on Seat \d's train$/.test(x)),
      `a Mexican Train replay says its steps in words (${JSON.stringify(mtSaid.filter((x) => codes.test(x)).slice(0, 3))})`,
    );
    await p.close();
    // 250 ms a move: the watcher's page must be open before the first trick
    // ends (a hand can be decided in one trick: at 60 ms a loaded machine
    // opened the page after the game was over, and saw no trick won).
    const t42 = await table("texas-42", { single_hand: "on" }, Array(4).fill("bot:beginner"), { bot_delay_ms: 250 });
    // Watched as it is played: each trick's winner once in the log, the
    // last one too (the game's end named it twice).
    const w42 = await newPage();
    await w42.goto(`${base}/?t=${t42.id}&k=${t42.spectate}`);
    check(await untilOver(t42, 60), "a one-hand Texas 42 game of bots ends");
    await sleep(500);
    const won = await w42.$$eval(".log li", (r) => r.filter((x) => / won the trick$/.test(x.textContent)).length);
    const played = (await api("GET", `/api/tables/${t42.id}?token=${t42.spectate}`)).view.last_hand.tricks_played;
    check(won === played, `each trick's winner is logged once (${won} lines for ${played} tricks)`);
    const note = await w42.$eval(".score.target", (e) => e.textContent);
    check(note === "one hand", `a one-hand game says so, not a target of marks ("${note}")`);
    const lt = await table(
      "latin",
      { single_hand: "on" },
      ["bot:beginner", "bot:beginner", "bot:beginner", "bot:beginner"],
      {
        bot_delay_ms: 300,
      },
    );
    await w42.goto(`${base}/?t=${lt.id}&k=${lt.spectate}`);
    await w42.waitForSelector(".score.target");
    const lnote = await w42.$eval(".score.target", (e) => e.textContent);
    check(lnote === "one hand", `a one-hand line game says so, not "to 200" ("${lnote}")`);
    await w42.close();
    const q = await newPage(PHONE);
    await q.goto(`${base}/?replay=${t42.id}`);
    await q.waitForSelector("#replay-next-hand");
    const t42Said = await stepWords(q);
    check(
      !t42Said.some((x) => codes.test(x)) && t42Said.some((x) => /^Seat \d (bid \d+|passed)$/.test(x)),
      `a Texas 42 replay says its steps in words (${JSON.stringify(t42Said.slice(1, 5))})`,
    );
    // A line game's step names the end by the number it showed, as "Which
    // end?" does (the line turns, so "on the left" could lie on the right).
    check(await untilOver(lt, 60), "a one-hand line game of bots ends");
    await q.goto(`${base}/?replay=${lt.id}`);
    await q.waitForSelector("#replay-next-hand");
    const lineSaid = await stepWords(q);
    check(
      !lineSaid.some((x) => codes.test(x) || /left|right/.test(x)) && lineSaid.some((x) => / on the \d end$/.test(x)),
      `a line game's replay names each end by its number (${JSON.stringify(lineSaid.slice(2, 6))})`,
    );
    await q.close();
  }
  // The end-of-hand box lists the next hand's last moves only, after a line
  // saying how many came before (bots at speed listed 30 and more).
  {
    const t = await table("mexican-train", { players: "2", rounds: "2" }, ["bot:beginner", "bot:beginner"], {
      bot_delay_ms: 120,
    });
    const p = await newPage(PHONE);
    await p.goto(`${base}/?t=${t.id}&k=${t.spectate}`);
    let moves = 0;
    for (let i = 0; i < 600 && moves <= 8; i++) {
      await sleep(100);
      const log = (await api("GET", `/api/tables/${t.id}?token=${t.spectate}`)).log || [];
      moves = log.filter((e) => e.hand === 2 && e.kind === "move").length;
    }
    await sleep(300);
    const listed = await p.$$eval(".summary .meanwhile li", (r) => r.map((x) => [x.className, x.textContent]));
    check(
      moves > 8 && listed.length === 7 && listed[0][0] === "earlier" && /^…and \d+ earlier moves$/.test(listed[0][1]),
      `the end-of-hand box lists the next round's last 6 moves after "…and N earlier moves" (${moves} made: ${JSON.stringify(listed.slice(0, 2))})`,
    );
    const next = await p.$eval("#continue", (e) => e.textContent).catch(() => null);
    check(next === "Next round", `Mexican Train's end-of-round box goes on to the "Next round" (${next})`);
    // The log says who placed the engine, and why that double (a countdown from 12|12 is another rule):
    // the highest in hand, or drawn for.
    const dealt = await p.$$eval(".log li", (r) => r.map((x) => x.textContent).filter((x) => /Round 2 dealt/.test(x)));
    check(
      dealt.length === 1 &&
        /^Round 2 dealt · Seat \d (placed the engine \d+\|\d+, the highest double in hand|had no double, drew \d+ and placed the engine \d+\|\d+)$/.test(
          dealt[0],
        ),
      `the log says who placed the round's engine (${JSON.stringify(dealt)})`,
    );
    await p.close();
  }
  // A hint on a short phone: its rows push the hand down, and the hand is
  // brought back into sight (it went below the screen's bottom).
  {
    const t = await table("latin", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage({ width: 390, height: 600, isMobile: true, hasTouch: true });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    // A turn with one legal move offers no hint (nothing to choose): played, and the next turn waited for.
    for (let turn = 0; turn < 7; turn++) {
      await until(p, () => document.querySelector(".table")?.dataset.toAct === "1", null, 20);
      if (await p.$("#hint")) break;
      const only = await p.$(".hand .htile.legal, .actions .action[data-move]");
      if (only) await only.click();
      await until(p, () => document.querySelector(".table")?.dataset.toAct !== "1", null, 10);
    }
    await p.click("#hint");
    await p.waitForSelector(".hint", { timeout: 30000 });
    await sleep(300);
    const at = await p.evaluate(() => {
      const r = document.querySelector(".hand").getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: innerHeight };
    });
    check(
      at.bottom <= at.height + 1 && at.top >= 0,
      `after a hint the hand is in sight on a short phone (${JSON.stringify(at)})`,
    );
    await p.screenshot({ path: join(shots, "polish-hint-short-phone.png") });
    await p.close();
  }
  // The new-table form in a player's words: a Caribbean preset's bonuses are
  // boxes that say what each pays (it was a text field of codes,
  // "lead_pass_25,three_passes_25,capicua_25"), the list sent as the engine
  // reads it; a switch is a box (Dice & Dominoes' "One hand only" was a text
  // field holding "false"); and a bad value said for one game is gone once
  // another game is picked.
  {
    const p = await newPage();
    const sent = [];
    p.on("request", (q) => {
      if (q.method() === "POST" && q.url().endsWith("/api/tables")) sent.push(JSON.parse(q.postData() || "{}"));
    });
    await p.goto(`${base}/`);
    await chooseGame(p, "line", "dominican-patio");
    await p.$eval(".opt-details", (d) => (d.open = true));
    const form = () =>
      p.evaluate(() => {
        const box = document.querySelector(".options");
        const field = box.querySelector('[name="bonuses"]');
        return {
          field: field ? field.type : "none",
          value: field?.value,
          on: [...box.querySelectorAll("[data-bonus]")].filter((b) => b.checked).map((b) => b.dataset.bonus),
          words: [...box.querySelectorAll(".opt-bonuses label")].map((l) => l.innerText.trim()),
          codes: (box.innerText.match(/\b[a-z]+_[a-z0-9_]+\b/g) || []).join(" "),
          error: document.getElementById("create-error").textContent,
        };
      });
    const before = await form();
    check(
      before.field === "hidden" &&
        before.value === "lead_pass_25,three_passes_25,capicua_25" &&
        before.on.join(",") === "capicua,lead_pass,three_passes" &&
        before.codes === "",
      `a preset's bonuses are boxes, not a field of codes (${JSON.stringify(before)})`,
    );
    check(
      before.words.some((w) => /^Capicúa: going out on a tile that fits both ends/.test(w)) &&
        before.words.some((w) => /^Three passes:/.test(w)) &&
        before.words.some((w) => /^First pass:/.test(w)),
      `each bonus says what it pays (${before.words.slice(0, 3).join(" | ")})`,
    );
    // Points out of range are said at the button in words, nothing sent.
    const points = '[data-bonus-points="capicua"]';
    await p.$eval(points, (e) => {
      e.value = "0";
      e.dispatchEvent(new Event("change"));
    });
    await p.$eval("#create", (e) => e.click());
    const bad = (await form()).error;
    check(
      bad === "Points for capicúa: a whole number from 1 to 1000, please." && sent.length === 0,
      `bonus points out of range are said in words ("${bad}", ${sent.length} sent)`,
    );
    // Another game: what was wrong with the last one is not said of it.
    await chooseGame(p, "line", "santiago");
    const other = await form();
    check(other.error === "", `a bad value's message goes when another game is picked ("${other.error}")`);
    // The same in the setup of a game against the computer.
    const q = await newPage();
    await q.goto(`${base}/?computer=1`);
    await q.waitForSelector(".options [name=hand_size]", { timeout: 20000 });
    await q.$eval(".options [name=hand_size]", (e) => {
      e.value = "99";
      e.dispatchEvent(new Event("change"));
    });
    await q.click("#local-start");
    const said = await q.$eval("#local-start-error", (e) => e.textContent);
    await q.select("#local-game", "texas-42");
    const gone = await q.$eval("#local-start-error", (e) => e.textContent);
    check(
      /^Tiles per hand: a whole number/.test(said) && gone === "",
      `against the computer too ("${said}", then "${gone}")`,
    );
    await q.close();
    await chooseGame(p, "line", "dominican-patio");
    // The boxes changed: points, a variant, one off and one on.
    await p.$eval(points, (e) => {
      e.value = "30";
      e.dispatchEvent(new Event("change"));
    });
    await p.click('[data-bonus-variant="capicua"]');
    await p.click('[data-bonus="three_passes"]');
    await p.click('[data-bonus="first_pass_2"]');
    const changed = await form();
    await p.screenshot({ path: join(shots, "polish-bonuses.png"), fullPage: true });
    await createTable(p, 15000);
    check(
      sent.length === 1 && sent[0].options?.bonuses === "first_pass_2,capicua_30_no_zero,lead_pass_25",
      `the boxes send the engine's list (${JSON.stringify(changed.on)}: ${JSON.stringify(sent[0]?.options?.bonuses)})`,
    );
    // Dice & Dominoes' "One hand only": a box; ticked, it sends "on".
    await p.goto(`${base}/`);
    await chooseGame(p, "dice-and-dominoes");
    await p.waitForSelector(".options [name=single_hand]");
    await p.$eval(".opt-details", (d) => (d.open = true));
    const one = await p.$eval(".options [name=single_hand]", (e) => ({
      type: e.type,
      checked: e.checked,
      name: e.closest("label").innerText.trim(),
    }));
    check(
      one.type === "checkbox" && !one.checked && one.name === "One hand only",
      `Dice & Dominoes' "One hand only" is a box, not a text field ("${JSON.stringify(one)}")`,
    );
    // Its counts are number fields held to the engine's ranges, not text boxes.
    const counts = await p.$$eval(".options [name=hands], .options [name=ante], .options [name=sets]", (es) =>
      es.map((e) => `${e.name}:${e.type}:${e.min}..${e.max}`).sort(),
    );
    check(
      counts.join(" ") === "ante:number:1..1000000 hands:number:1..1000000 sets:number:1..2",
      `Dice & Dominoes' hands, ante and sets are number fields (${counts.join(" ")})`,
    );
    await p.click(".options [name=single_hand]");
    await (await p.$(".options")).screenshot({ path: join(shots, "polish-dd-options.png") });
    await createTable(p, 15000);
    check(sent[1]?.options?.single_hand === "on", `ticked, it sends "on" (${JSON.stringify(sent[1]?.options)})`);
    await p.close();
  }
  // A game against the computer on this device, into its second hand: "Last
  // moves" (newest first) says the hand is over before the next is dealt (it
  // said "Hand 2 dealt" first), and still says so after a reload (the
  // hand's end was gone).
  {
    const p = await newPage();
    await p.goto(`${base}/?computer=1`);
    await p.evaluate(() => localStorage.setItem("boneyard.botdelay", "0"));
    await p.waitForSelector(".options [name=players]", { timeout: 20000 });
    await p.select(".options [name=players]", "2");
    await p.$eval(".options [name=target]", (e) => {
      e.value = "500";
      e.dispatchEvent(new Event("change"));
    });
    await Promise.all([p.waitForSelector(".table"), p.click("#local-start")]);
    const lines = () => p.$$eval(".log li", (l) => l.map((e) => e.textContent));
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline && !(await lines()).includes("Hand 2 dealt")) {
      // "Which end?" first, when the tile fits both (the loop stalled on it,
      // clicking tiles under the dialog, on a fresh clone's deal).
      const next =
        (await p.$(".chooser .choices button")) ||
        (await p.$(".summary #continue")) ||
        (await p.$(".hand .htile.legal:not([disabled])"));
      const pass = await p.$(".actions .action[data-move]:not([disabled])");
      if (next || pass) await (next || pass).click().catch(() => {});
      await sleep(next || pass ? 100 : 50);
    }
    const order = (l) => [l.indexOf("The hand is over"), l.indexOf("Hand 2 dealt")];
    const live = await lines();
    const [over, dealt] = order(live);
    check(
      dealt >= 0 && over === dealt + 1,
      `on this device the hand is over before the next is dealt (newest first: ${live.slice(0, 3).join(" | ")})`,
    );
    await p.reload({ waitUntil: "load" });
    await p.waitForSelector(".log li", { timeout: 20000 });
    const again = await lines();
    const [over2, dealt2] = order(again);
    check(
      dealt2 >= 0 && over2 === dealt2 + 1,
      `and after a reload still (newest first: ${again.slice(0, 3).join(" | ")})`,
    );
    // The hand's last moves, the very last one too, were said live as the
    // reload says them (the last came with the next deal and was lost).
    const end = (l, at) => l.slice(at, at + 4).join(" | ");
    check(
      end(live, over) === end(again, over2),
      `the hand's last move is said live (live: ${end(live, over)}; reloaded: ${end(again, over2)})`,
    );
    await p.screenshot({ path: join(shots, "polish-local-log.png") });
    await p.close();
  }
  // The connection lost while it is my turn: the turn bar says so, not
  // "Your turn" (a move then went nowhere), and the hand is not offered;
  // back, it is my turn again.
  {
    const t = await table("latin", { players: "2" }, ["human", "bot:beginner"], { bot_delay_ms: 400 });
    const p = await newPage();
    // Every socket kept in sight; while `block` is set a new one asks for no table.
    await p.evaluateOnNewDocument(() => {
      const Real = window.WebSocket;
      window.__sockets = [];
      window.WebSocket = class extends Real {
        constructor(url, ...rest) {
          super(window.__block ? String(url).replace("table=", "table=0") : url, ...rest);
          window.__sockets.push(this);
        }
      };
    });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    const mine = await until(p, () => document.querySelector(".table")?.dataset.toAct === "1", null, 20);
    const bar = () =>
      p.evaluate(() => ({
        text: document.querySelector(".turnbar")?.textContent || "",
        lost: document.querySelector(".table")?.classList.contains("lost"),
        hand: getComputedStyle(document.querySelector(".hand")).pointerEvents,
        // the Hint (and any Pass or Draw) cannot be pressed while it is down
        hint: document.querySelector("#hint")?.disabled ?? null,
      }));
    await p.evaluate(() => {
      window.__block = true;
      window.__sockets.forEach((w) => w.close());
    });
    await until(p, () => /Connection lost/.test(document.querySelector(".turnbar")?.textContent || ""), null, 5);
    const lost = await bar();
    check(
      mine &&
        /^Connection lost: reconnecting/.test(lost.text) &&
        !/Your turn/.test(lost.text) &&
        lost.hand === "none" &&
        lost.hint !== false,
      `with the connection lost the table says so, not "Your turn" (${JSON.stringify(lost)})`,
    );
    await p.screenshot({ path: join(shots, "polish-connection-lost.png") });
    await p.evaluate(() => (window.__block = false));
    await until(p, () => !document.querySelector(".table.lost"), null, 10);
    const back = await bar();
    check(
      /^(Your turn|You cannot play)/.test(back.text) && !back.lost && back.hand === "auto" && back.hint !== true,
      `back, it is my turn again (${JSON.stringify(back)})`,
    );
    await p.close();
  }
  // A replay link that leads to no finished game: the player's words, not
  // the server's "no table 'ffff'" (in Spanish too), the title readable, and
  // a way to the lobby.
  {
    const p = await newPage(PHONE);
    await p.goto(`${base}/?replay=ffff`);
    await p.waitForSelector(".replay-error");
    const said = () => p.$eval(".replay-error", (e) => e.innerText);
    const en = await said();
    await p.select("select.lang", "es");
    await until(p, () => /enlace/.test(document.querySelector(".replay-error")?.innerText || ""), null, 5);
    const es = await said();
    await p.select("select.lang", "en");
    check(
      /no finished game at this link/.test(en) && /enlace/.test(es) && !/no table/.test(en + es),
      `a replay link to no game says so in the player's words ("${en}" | "${es}")`,
    );
    // The title's colour against the bar behind it (it was dark on dark).
    const title = await p.evaluate(() => {
      const lum = (c) => {
        const [r, g, b] = (c.match(/[\d.]+/g) || []).map(Number).map((v) => v / 255);
        const f = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const e = document.querySelector(".replay .topbar .title strong");
      let bg = e;
      while (bg && /rgba\(0, 0, 0, 0\)|transparent/.test(getComputedStyle(bg).backgroundColor)) bg = bg.parentElement;
      const [a, b] = [lum(getComputedStyle(e).color), lum(getComputedStyle(bg || document.body).backgroundColor)];
      return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 10) / 10;
    });
    check(title >= 4.5, `the replay's title is readable against its bar (contrast ${title}:1)`);
    await p.screenshot({ path: join(shots, "polish-replay-missing-phone.png") });
    await p.click("#to-lobby");
    check(
      await until(p, () => location.search === "" && !!document.querySelector(".lobby"), null, 5),
      "its button leads to the lobby",
    );
    await p.close();
  }
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all polish checks passed");
process.exit(H.failures ? 1 : 0);
