// The web app's defects that issue 34's strangers found, each a check that
// failed before its fix (the chat field is tests/browser.mjs's, the
// leaderboard and the player page's dates tests/lobby.mjs's):
//   5  a landscape phone (844x390) at Texas 42 shows the trick while it says
//      "Your turn", and every score chip whole;
//   9  Mexican Train's "See the final board" after the game shows the last round's trains,
//      not "Shuffling and dealing…";
//   10 a right-to-left name with a suffix ("علي 2") stays one name beside
//      other words; a 32-character name stays inside the move log; Spanish
//      "1 libre"; the table's words: no doubled "Partner (seat 3): Partner
//      (seat 3) makes the salida", "You … were set", "1 pt"; the app served
//      compressed (gzip to who takes it), its hashed bundle kept a year and
//      index.html asked again each time (304 while unchanged).
// Since: an upright phone shows the game's name whole and says the
// balances are chips; Texas 42's trick names who plays at each place; the
// new-table form holds counts to their range and says a bad one by its button;
// Dice & Dominoes' picked tiles rise below the hint, not over it; "Your
// tables" says when a bot finished a game for you, in a readable colour.
//   node tests/defects.mjs BONEYARD_EXE SCREENSHOT_DIR
import { join } from "node:path";
import { readdirSync } from "node:fs";
import { get as httpGet } from "node:http";
import { gunzipSync } from "node:zlib";
import { chooseGame, setUp, tableHelpers, webDir } from "./harness.mjs";

const H = await setUp({ name: "defects", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, browser, check } = H;
const { sleep, newPage, api, table, untilOver, until } = tableHelpers(H);

// A GET with exactly these headers (fetch would add and undo its own Accept-Encoding).
const rawGet = (path, headers = {}) =>
  new Promise((res, rej) =>
    httpGet(base + path, { headers }, (r) => {
      const parts = [];
      r.on("data", (c) => parts.push(c));
      r.on("end", () => res({ status: r.statusCode, headers: r.headers, body: Buffer.concat(parts) }));
    }).on("error", rej),
  );

try {
  // 10: the app compressed and cached (269 KB on every cold load before).
  {
    const page = await rawGet("/", { "accept-encoding": "gzip, deflate, br" });
    const html = page.headers["content-encoding"] === "gzip" ? gunzipSync(page.body).toString() : "";
    const script = /src="(\/app\.[0-9a-f]{12}\.js)"/.exec(html)?.[1];
    const style = /href="(\/style\.[0-9a-f]{12}\.css)"/.exec(html)?.[1];
    check(
      page.status === 200 && /no-cache/.test(page.headers["cache-control"]) && !!script && !!style,
      `index.html comes gzipped, asked again each time (${page.headers["cache-control"]}), naming the hashed bundle (${script}, ${style})`,
    );
    const js = await rawGet(script || "/app.js", { "accept-encoding": "gzip" });
    const plain = await rawGet(script || "/app.js");
    const refused = await rawGet(script || "/app.js", { "accept-encoding": "gzip;q=0, identity" });
    const unzipped = js.headers["content-encoding"] === "gzip" ? gunzipSync(js.body) : Buffer.alloc(0);
    check(
      js.status === 200 &&
        /max-age=31536000/.test(js.headers["cache-control"]) &&
        /immutable/.test(js.headers["cache-control"]) &&
        js.body.length * 2 < plain.body.length &&
        unzipped.equals(plain.body) &&
        /Accept-Encoding/i.test(js.headers.vary || ""),
      `the hashed script: gzip ${js.body.length} B of ${plain.body.length} B, kept a year (${js.headers["cache-control"]})`,
    );
    check(
      !plain.headers["content-encoding"] && !refused.headers["content-encoding"] && refused.body.equals(plain.body),
      "a client that does not take gzip (no header, or gzip;q=0) gets the plain file",
    );
    const again = await rawGet("/", { "accept-encoding": "gzip", "if-none-match": page.headers.etag || "none" });
    check(
      !!page.headers.etag && again.status === 304 && again.body.length === 0,
      `index.html unchanged since: 304, no body (${again.status})`,
    );
  }

  // A mistyped address showed the server's {"code":"not_found",...}: now
  // the app, answered 404, says there is no such page and leads to the lobby.
  {
    const p = await newPage();
    const r = await p.goto(base + "/nonexistent/page");
    await p.waitForSelector(".bad-link");
    const said = await p.$eval(".bad-link", (e) => e.innerText.replace(/\s+/g, " "));
    await p.$eval("#to-lobby", (e) => e.click());
    const lobby = await p.waitForSelector("[data-quick]", { timeout: 10000 }).then(
      () => new URL(p.url()).pathname === "/",
      () => false,
    );
    check(
      r.status() === 404 && /There is no such page/.test(said) && !/not_found/.test(said) && lobby,
      `a mistyped address says there is no such page, with the way to the lobby (${r.status()}: ${said})`,
    );
    await p.close();
  }

  // 10: a chat line "3 times" from "علي 2": the name stays one name and the
  // line follows it (unisolated, the "3" joined the Arabic run: "3 2 علي times").
  {
    const ali = await api("POST", "/api/players", { name: "علي 2" });
    const t = await table("latin", { players: "2" }, ["human", "human"]);
    await api("POST", `/api/tables/${t.id}/join`, { token: t.tokens["1"], key: ali.key });
    const p = await newPage();
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector(".chat");
    await api("POST", `/api/tables/${t.id}/chat`, { token: t.tokens["1"], text: "3 times" });
    const shown = await until(p, () =>
      [...document.querySelectorAll(".chat-lines li")].some((e) => /3 times/.test(e.textContent)),
    );
    const r = await p.evaluate(() => {
      const li = [...document.querySelectorAll(".chat-lines li")].find((e) => /3 times/.test(e.textContent));
      const chars = [];
      const walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
      for (let n; (n = walk.nextNode());)
        for (let i = 0; i < n.data.length; i++) {
          if (/[\s\u2066-\u2069]/.test(n.data[i])) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const b = range.getBoundingClientRect();
          if (b.width) chars.push({ ch: n.data[i], left: b.left, right: b.right });
        }
      const three = chars.findIndex((c) => c.ch === "3");
      const late = chars.slice(0, three).filter((c) => c.right > chars[three].left + 1);
      return { text: li.textContent, three, late: late.map((c) => c.ch).join("") };
    });
    check(
      shown && r.three > 0 && !r.late,
      `a right-to-left name with a suffix stays one name before the chat line ("${r.text}"; right of "3": "${r.late}")`,
    );
    await p.close();
  }

  // 10: a 32-character name stays inside the move log (240 px wide beside the board).
  {
    const long = "Abcdefghijklmnopqrstuvwxyzabcdef";
    const who = await api("POST", "/api/players", { name: long });
    const t = await table("latin", { players: "2" }, ["human", "human"], { drop_delay_ms: 20 });
    await api("POST", `/api/tables/${t.id}/join`, { token: t.tokens["1"], key: who.key });
    const p = await newPage();
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    // Until the long-named seat has moved (its bot, once it has left): when
    // this page's seat leads, it plays first (else the check waited in vain).
    const seen = await until(
      p,
      (x) => {
        if ([...document.querySelectorAll(".log li")].some((e) => e.textContent.includes(x))) return true;
        if (document.querySelector(".table")?.dataset.toAct === "1")
          document.querySelector(".hand .htile.legal")?.click();
        return false;
      },
      long,
      30,
    );
    const out = await p.evaluate(() => {
      const log = document.querySelector(".log").getBoundingClientRect();
      return [...document.querySelectorAll(".log li")]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > log.right + 0.5)
        .map((e) => e.textContent);
    });
    check(seen && !out.length, `a 32-character name stays inside the move log (out: ${out.join(" | ")})`);
    await p.screenshot({ path: join(shots, "defects-long-name.png") });
    await p.close();
  }

  // 10: Spanish "1 libre" (not "1 libres") on an open table in the lobby.
  {
    const t = await table("latin", { players: "2" }, ["human", "open"], { public: true });
    const p = await newPage({ width: 1280, height: 800 }, "es");
    await p.goto(base + "/");
    const ok = await until(
      p,
      (id) =>
        /Sentarse \(1 libre\)/.test(document.querySelector(`.open-tables li[data-table="${id}"]`)?.textContent || ""),
      t.id,
    );
    const text = await p
      .$eval(`.open-tables li[data-table="${t.id}"]`, (e) => e.textContent)
      .catch(() => "(not listed)");
    check(ok, `Spanish says "1 libre" for one free seat (${text})`);
    await p.close();
  }

  // 9: Mexican Train's "See the final board" after the game: the last round, not "Shuffling and dealing…".
  {
    const t = await table("mexican-train", { players: "2", rounds: "1" }, ["human", "human"], { drop_delay_ms: 20 });
    // Both seats taken and left: the bots that take over play the game to its end.
    for (const k of ["0", "1"]) {
      const who = await api("POST", "/api/players", { name: "Train " + k });
      await api("POST", `/api/tables/${t.id}/join`, { token: t.tokens[k], key: who.key });
    }
    const over = await untilOver(t, 90);
    // "Your tables" of seat 0's browser: a game the bots finished after
    // both left is not "you lost" (a fresh player's note), and is readable.
    {
      const l = await newPage();
      const saved = [
        { id: t.id, token: t.tokens["0"], game: "mexican-train", seat: 0, created: Date.now() },
        { id: t.id, token: t.spectate, game: "mexican-train", seat: -1, created: Date.now() },
      ];
      await l.evaluateOnNewDocument((x) => localStorage.setItem("boneyard.tables", x), JSON.stringify(saved));
      await l.goto(`${base}/`);
      const ok = await until(l, () => document.querySelector(".my-tables .status.over"));
      const r = await l.$eval(".my-tables .status", (e) => {
        // The contrast of the text on the card (WCAG: 4.5 for small text).
        const rgb = (c) => (c.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number);
        const lum = (c) =>
          rgb(c)
            .map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
            .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
        let bg = e;
        while (bg && getComputedStyle(bg).backgroundColor.match(/rgba\(.*, 0\)|transparent/)) bg = bg.parentElement;
        const [a, b] = [lum(getComputedStyle(e).color), lum(getComputedStyle(bg).backgroundColor)];
        return { text: e.textContent, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
      });
      check(
        ok && /^Over: a bot finished it for you after you left, and your side (won|lost)/.test(r.text),
        `a game a bot finished for me says so in "Your tables" ("${r.text}")`,
      );
      // Each score says whose it is (a bare "12, 30" did not), a spectator's too.
      const watched = await l.$$eval(".my-tables .status", (e) => e[1]?.textContent || "");
      check(
        /\(You \d+, Train 1 \d+\)$/.test(r.text) && /^Over \(Train 0 \d+, Train 1 \d+\)$/.test(watched),
        `"Your tables" says whose each score is ("${r.text}" | "${watched}")`,
      );
      check(r.contrast >= 4.5, `"Over: ..." can be read on its card (contrast ${r.contrast.toFixed(2)})`);
      await l.close();
    }
    const p = await newPage();
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector("#see-board", { timeout: 15000 });
    await p.$eval("#see-board", (e) => e.click());
    await p.waitForSelector("#show-result", { timeout: 5000 });
    const board = await p.$eval(".board", (e) => ({
      text: e.innerText,
      trains: e.querySelectorAll(".trains .train-tiles").length,
      tiles: e.querySelectorAll(".trains [data-tile]").length,
    }));
    check(
      over && !/Shuffling/.test(board.text) && board.trains >= 2 && board.tiles > 0,
      `Mexican Train's board after the game shows the last round's trains as laid (${board.trains} trains, ${board.tiles} tiles: ${board.text.replace(/\s+/g, " ").slice(0, 120)})`,
    );
    await p.screenshot({ path: join(shots, "defects-mt-over.png") });
    await p.close();
  }

  // Texas 42's bidding: while another seat bids, the bar says it bids
  // ("Seat 2 to bid…"), not "Seat 2 to play…" (a fresh pair of eyes).
  {
    const t = await table("texas-42", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"], {
      bot_delay_ms: 1500,
    });
    const p = await newPage();
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    let said = "",
      hint = null;
    for (let i = 0; i < 100 && (!/to bid…$/.test(said) || !hint); i++) {
      await sleep(100);
      const now = await p.evaluate(() => document.querySelector(".turnbar")?.textContent || "");
      if (!/to bid…$/.test(said)) said = now;
      if (await p.$('.table[data-to-act="1"] .hand-area [data-move="pass"]')) {
        // My bid: the Hint button is not one more button among the bids.
        hint ??= await p.evaluate(() => {
          const b = document.querySelector("#hint"),
            bids = document.querySelector('.hand-area [data-move^="bid:"]')?.parentElement;
          return b && bids ? { apart: !bids.contains(b), row: b.parentElement.className } : null;
        });
        await p.$eval('.hand-area [data-move="pass"]', (e) => e.click()).catch(() => {});
      }
    }
    check(/^(Seat \d|Partner \(seat \d\)) to bid…$/.test(said), `while another seat bids, the bar says so (${said})`);
    const dealt = await p.evaluate(
      () => [...document.querySelectorAll(".log li")].find((e) => /first deal/.test(e.textContent))?.textContent || "",
    );
    check(
      /^Hand 1 dealt · Drawn for the first deal: You \d\|\d, Seat 2 \d\|\d, Partner \(seat 3\) \d\|\d, Seat 4 \d\|\d\. The most pips deals: (You|Seat \d|Partner \(seat 3\))/.test(
        dealt,
      ),
      `Texas 42's log says which tiles were drawn for the first deal (${dealt})`,
    );
    check(
      hint?.apart === true,
      `at Texas 42 the Hint button has a row of its own, apart from the bids (${JSON.stringify(hint)})`,
    );
    await p.close();
  }

  // Latin's first leader is drawn for before the deal: the table says who
  // drew what (a fresh pair of eyes saw a seat lead and never learnt why).
  {
    const t = await table("latin", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"], {
      bot_delay_ms: 1500,
    });
    const p = await newPage();
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    const said = await p
      .waitForFunction(
        () =>
          [...document.querySelectorAll(".log li")].find((e) => /Drawn for the lead/.test(e.textContent))?.textContent,
        {
          timeout: 8000,
        },
      )
      .then(
        (x) => x.jsonValue(),
        () => "",
      );
    const st = await (await fetch(`${base}/api/tables/${t.id}?token=${t.tokens["0"]}`)).json();
    const draws = (st.view.lead_draws || []).map((x) => x.replace("-", "|"));
    const named = ["You", "Seat 2", "Partner (seat 3)", "Seat 4"];
    const pips = (x) => x.split("|").reduce((a, b) => a + Number(b), 0);
    const tied = draws.some((x, k) => k !== st.view.leader && pips(x) === pips(draws[st.view.leader] || "0|0"));
    check(
      draws.length === 4 &&
        /^Hand 1 dealt · Drawn for the lead: You \d+\|\d+, Seat 2 .*\. The most pips leads: (You|Seat \d|Partner \(seat 3\))( \(equal pips: the higher number wins\))?\. The tiles then went back for the shuffle\.$/.test(
          said,
        ) &&
        draws.every((x) => said.includes(x)) &&
        said.includes(`leads: ${named[st.view.leader]}`) &&
        said.includes("equal pips") === tied,
      `latin's log says which tiles were drawn for the first lead, and who leads (${said}; ${draws}; seat ${st.view.leader + 1})`,
    );
    await p.screenshot({ path: join(shots, "defects-lead-draws.png") });
    await p.close();
  }

  // 5: a landscape phone at Texas 42: while it says "Your turn" the trick in
  // play is in sight (not scrolled away under the seats), and every score chip is whole.
  {
    const t = await table("texas-42", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage({ width: 844, height: 390 });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    let r = null;
    for (let i = 0; i < 120 && !r; i++) {
      await sleep(150);
      const s = await p.evaluate(() => {
        const tb = document.querySelector(".table");
        if (!tb || tb.dataset.toAct !== "1" || document.querySelector(".overlay")) return { act: null };
        const moves = [...document.querySelectorAll(".hand-area [data-move]")].map((b) => b.dataset.move);
        const trick = document.querySelectorAll(".trick .tt").length;
        const tiles = document.querySelectorAll(".hand .htile.legal").length;
        return { act: true, moves, trick, tiles };
      });
      if (!s.act) continue;
      if (s.tiles && s.trick) {
        r = await p.evaluate(() => {
          const seen = (e) => {
            const b = e.getBoundingClientRect();
            const x = (b.left + b.right) / 2,
              y = (b.top + b.bottom) / 2;
            if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
            const at = document.elementFromPoint(x, y);
            return !!at && (e.contains(at) || at.contains(e));
          };
          const whole = (e) => {
            const b = e.getBoundingClientRect();
            const text = e.innerText;
            return b.left >= -0.5 && b.right <= innerWidth + 0.5 && e.scrollWidth <= e.clientWidth + 1 && !!text;
          };
          const chips = [...document.querySelectorAll(".topbar .score")];
          return {
            prompt: document.querySelector(".turnbar").textContent,
            hidden: [...document.querySelectorAll(".trick .tt")].filter((e) => !seen(e)).length,
            cut: chips.filter((e) => !whole(e) || !seen(e)).map((e) => e.innerText.replace(/\s+/g, " ")),
          };
        });
        break;
      }
      // Bid or pass, name trumps, or lead a tile, until a trick is in play on my turn.
      const pick =
        s.moves.find((m) => m === "pass") ||
        s.moves.find((m) => /^bid:/.test(m)) ||
        s.moves.find((m) => /^trump:/.test(m));
      if (pick) await p.$eval(`.hand-area [data-move="${pick}"]`, (e) => e.click());
      else if (s.tiles) await p.$eval(".hand .htile.legal", (e) => e.click());
    }
    await p.screenshot({ path: join(shots, "defects-t42-landscape.png") });
    check(
      r && r.hidden === 0 && r.cut.length === 0,
      `Texas 42 on a landscape phone: the trick in sight on my turn, every score chip whole (${JSON.stringify(r)})`,
    );
    await p.close();
  }

  // An upright phone: the game's name whole in the top bar ("Dice &
  // Dominoes", not "Dice…"), and the chip balances said to be chips, the
  // antes among them (every seat shows -1 before anyone has moved).
  {
    const t = await table("dice-and-dominoes", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    const shown = await until(p, () => document.querySelector(".topbar .scores .score"));
    const r = await p.evaluate(() => {
      const name = document.querySelector(".topbar .title strong");
      const hand = document.querySelector(".topbar .title span");
      const whole = (e) => !!e && e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= innerWidth;
      return {
        name: name?.textContent,
        whole: whole(name) && whole(hand),
        scores: document.querySelector(".topbar .scores").innerText.replace(/\s+/g, " "),
      };
    });
    await p.screenshot({ path: join(shots, "defects-dd-phone.png") });
    check(
      shown && r.name === "Dice & Dominoes" && r.whole && /chips won or lost, stakes included/.test(r.scores),
      `an upright phone shows the game's name and hand whole, and says the balances are chips (${JSON.stringify(r)})`,
    );
    // On a desktop the top bar is one row: its chips, the connection, the
    // sound and the language (they fell to a second row under the title).
    {
      const d = await newPage({ width: 1280, height: 800 });
      await d.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
      await until(d, () => document.querySelector(".topbar .scores .score"));
      const rows = await d.$eval(".topbar", (bar) => {
        const tops = [...bar.querySelectorAll(":scope > *")]
          .filter((e) => e.getBoundingClientRect().height > 0)
          .map((e) => Math.round(e.getBoundingClientRect().top));
        return {
          spread: Math.max(...tops) - Math.min(...tops),
          height: Math.round(bar.getBoundingClientRect().height),
        };
      });
      await d.screenshot({ path: join(shots, "defects-dd-desktop.png") });
      check(rows.spread < 24, `Dice & Dominoes' top bar is one row on a desktop (${JSON.stringify(rows)})`);
      await d.close();
    }
    // The others' cards in one row in the order of play, as the score chips
    // list them (they read Seat 4, 3, 2 beside chips reading 2, 3, 4).
    const row = await p.$$eval(".opponents .opp", (o) =>
      o
        .map((e) => ({ k: e.dataset.seat, x: e.getBoundingClientRect().left }))
        .sort((a, b) => a.x - b.x)
        .map((e) => e.k)
        .join(","),
    );
    check(row === "1,2,3", `a phone's seat cards run in the order of play, as the scores do (seats ${row})`);
    await p.close();
  }

  // 10: the table's words, drawn by the app's own views in the page.
  {
    const esbuild = (await import("esbuild")).default;
    const code = (
      await esbuild.build({
        stdin: {
          contents: `import { words, entryText } from "../src/table/words";
            import { texas42Board } from "../src/boards/texas42";
            import { mexicanTrainBoard } from "../src/boards/mexican_train";
            import { lineBoard } from "../src/boards/line";
            import { hintPanel, hintHolds } from "../src/table/view";
            import { reviewBody } from "../src/table/end";
            import { chooserDialog } from "../src/table/dialogs";
            import { onKey } from "../src/table/keys";
            import { setLang, t, serverError } from "../src/i18n";
            window.__views = { words, entryText, texas42Board, mexicanTrainBoard, lineBoard, hintPanel, hintHolds, reviewBody, chooserDialog, onKey, setLang, t, serverError };`,
          resolveDir: join(webDir, "tests"),
          loader: "ts",
        },
        bundle: true,
        write: false,
        format: "iife",
        // The built catalogues, as the app's bundle names them (build.mjs).
        define: {
          LANG_FILES: JSON.stringify(
            Object.fromEntries(
              readdirSync(join(webDir, "dist", "lang"))
                .filter((f) => f.endsWith(".json"))
                .map((f) => [f.split(".")[0], `/lang/${f}`]),
            ),
          ),
        },
      })
    ).outputFiles[0].text;
    const p = await newPage();
    await p.setBypassCSP(true);
    await p.goto(base + "/?rules=line");
    // The views below are measured: the app's stylesheet must be in force
    // (once, on a loaded machine, "Which train?" measured unstyled).
    await p.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue("--card").trim() !== "");
    await p.addScriptTag({ content: code });
    // Spanish fetched once, so that setLang("es") below switches at once.
    await p.evaluate(() => window.__views.setLang("es").then(() => window.__views.setLang("en")));
    const r = await p.evaluate(() => {
      try {
        return views();
      } catch (e) {
        return { error: e.stack };
      }
      function views() {
        const {
          words,
          entryText,
          texas42Board,
          mexicanTrainBoard,
          lineBoard,
          hintPanel,
          hintHolds,
          reviewBody,
          chooserDialog,
          onKey,
          setLang,
          t,
          serverError,
        } = window.__views;
        const seats = [0, 1, 2, 3].map((k) => ({
          seat: k,
          player: "human",
          joined: true,
          connected: true,
          name: null,
        }));
        const msg = { seats, seat: 0, legal: [], log: [], status: "playing", version: 9 };
        const ctx = (v) => ({
          msg,
          v,
          me: 0,
          n: 4,
          family: v.family,
          teams: true,
          f: words,
          small: false,
          width: 600,
          screen: { w: 1280, h: 800 },
        });
        const line = { family: "line", ends: [1, 2], hands: [] };
        const salida = entryText(ctx(line), { n: 4, hand: 2, kind: "move", seat: 2, move: "leader:2" }).text;
        // A redeal deals the same hand again: its second deal says so.
        const redealt = { ...msg, log: [0, 2].map((n) => ({ n, hand: 1, kind: "deal", seat: null })) };
        const dealt = redealt.log.map((e) => entryText({ ...ctx(line), msg: redealt }, e).text);
        // A move named by its button ("End my opening turn") is said of its mover in the log.
        const said = [
          [2, "redeal"],
          [0, "end_opening"],
          [1, "reroll"],
        ].map(([seat, move]) => entryText(ctx(line), { n: 5, hand: 1, kind: "move", seat, move }).text);
        // A tile laid in a game without the server's log (on this device) is
        // named as its move names it, as the log rebuilt after a reload names it.
        const lived = [];
        const lineView = (tiles) => ({ ...line, line: tiles, hand_number: 1, passes_in_row: 0, hands: [] });
        lineBoard.diff(ctx(line), lineView(["5-5"]), lineView(["0-5", "5-5"]), 1, {
          push: (x) => lived.push(x),
          bubble() {},
        });
        lived.push(entryText(ctx(line), { n: 5, hand: 1, kind: "move", seat: 1, move: "5-0:L" }).text);
        // "You" and "Us" are lower case inside a sentence, not at its start.
        const pronouns = [
          t("summary.wins_hand", { who: words.seatName(ctx(line), 0) }),
          t("terms.will_not_be_rated_network", { who: "Dave", other: words.seatName(ctx(line), 0) }),
          t("log.joined", { who: words.seatName(ctx(line), 0) }),
          t("summary.wins_hand", { who: words.sideName(ctx(line), 0) }),
          // A server's message shown alone starts as a sentence does.
          serverError("the name is empty: type 1 to 32 characters", "bad_request"),
        ];
        // A move the takeover bot made: "a bot for you" mid-sentence, not "You".
        const botMsg = { ...msg, bot_played: [{ n: 5, why: "time" }] };
        const botLines = [0, 1].map(
          (seat) => entryText({ ...ctx(line), msg: botMsg }, { n: 5, hand: 1, kind: "move", seat, move: "5-3:L" }).text,
        );
        const hand = {
          number: 1,
          dealer: 3,
          declarer: 0,
          bid: 30,
          bid_kind: "points",
          bid_text: "30",
          trumps: "fives",
          made: false,
          stopped_early: false,
          tricks_played: 7,
          winner_side: 1,
          points: [20, 22],
          tricks: [3, 4],
          gained: [0, 1],
        };
        const t42 = {
          family: "texas-42",
          phase: "play",
          actor: 1,
          bids: [null, null, null, null],
          declarer: 0,
          trumps: "fives",
          high_bid: 30,
          trick: [],
          tricks: [],
          points_taken: [1, 11],
          tricks_taken: [1, 2],
          scores: [0, 1],
          scoring: "marks",
          last_hand: hand,
        };
        // Mexican Train: a turn that ends on a marker (nothing fitted, even
        // the tile drawn) says so, and a tile laid on my train says "your".
        const train = (k, marker, tiles) => ({
          train: k,
          owner: k === "M" ? null : k,
          started: true,
          end: 3,
          marker,
          tiles,
          open_double: false,
        });
        const mt = (marks, mine) => ({
          family: "mexican-train",
          round: 1,
          rounds: 13,
          start_seat: 0,
          trains: [train(0, marks[0], mine), train(1, marks[1], ["2-3"]), train("M", false, [])],
          hands: [0, 1].map((k) => ({ seat: k, count: 5, tiles: null })),
          boneyard: 20,
          scores: [0, 0],
        });
        // Texas 42's bidding: a bid not yet made says so in words (it was
        // "…"); a bid made while the bidding goes on is said by the seat's tag,
        // not by a bubble as well; the last bid (the tags gone) by a bubble.
        const auction = { ...t42, phase: "bidding", dealer: 0, actor: 3, bids: [null, "pass", null, null] };
        const bidBox = document.createElement("div");
        bidBox.append(...texas42Board.draw(ctx(auction)));
        const bidRow = [...bidBox.querySelectorAll(".bid")].map((e) => e.textContent);
        const bubbles = [];
        const bidSink = { push() {}, bubble: (k, x) => bubbles.push(k + ":" + x) };
        texas42Board.diff(ctx(auction), { ...auction, bids: [null, null, null, null] }, auction, 1, bidSink);
        const won = { ...auction, phase: "trumps", actor: 1, bids: ["pass", "30", "pass", "pass"] };
        texas42Board.diff(ctx(won), { ...won, phase: "bidding", bids: ["pass", "30", "pass", null] }, won, 3, bidSink);
        const mtLines = [];
        const sink = { push: (text, seat, cls) => mtLines.push({ text, seat, cls }), bubble() {} };
        const mtCtx = { ...ctx(mt([false, false], [])), n: 2, teams: false };
        mexicanTrainBoard.diff(mtCtx, mt([false, false], ["2-3"]), mt([true, false], ["2-3"]), 0, sink);
        mexicanTrainBoard.diff(mtCtx, mt([true, false], ["2-3"]), mt([true, true], ["2-3", "3-4"]), 1, sink);
        // A train's "open" and "double to cover" tags explain themselves (title and accessible name).
        const tagged = { ...mt([true, false], ["2-3"]), engine: "12-12" };
        tagged.trains[1] = { ...tagged.trains[1], open_double: true };
        const tagBox = document.createElement("div");
        tagBox.append(...mexicanTrainBoard.draw({ ...mtCtx, v: tagged }));
        const mtTags = [...tagBox.querySelectorAll(".tag.marker, .tag.red")].map((e) => [
          e.textContent,
          e.getAttribute("aria-label"),
          e.getAttribute("title"),
        ]);
        const note = [
          texas42Board.scoreNote(ctx({ ...t42, scoring: "marks", target: 7 })),
          texas42Board.scoreNote(ctx({ ...t42, scoring: "points", target: 250 })),
        ];
        // Mexican Train's prompt: an open double first, but in the opening
        // turn only one on my own train binds me.
        const prompts = [
          [false, [1]],
          [true, [1]],
          [true, [0]],
          [true, [], ["draw"]],
          [true, [], ["end_opening"]],
        ].map(([opening_turn, open_doubles, legal]) =>
          mexicanTrainBoard.prompt({
            ...mtCtx,
            msg: { ...mtCtx.msg, legal: legal ?? ["2-3:T0"] },
            v: { ...mtCtx.v, opening_turn, open_doubles },
          }),
        );
        // A game without a boneyard offers no key to draw.
        const keys = [0, 5].map((boneyard) => lineBoard.keys(ctx({ ...line, boneyard })));
        // Too close to call, said with the tiles: the end alone does not say which tile.
        const lineHint = hintPanel(
          ctx(line),
          {
            legal: "",
            hand: 0,
            moves: [
              { move: "5-3:L", value: 1, se: 0 },
              { move: "5-2:R", value: 0.9, se: 0.5 },
            ],
          },
          { send() {} },
        );
        // Mexican Train's values are pips gained on the others: said, and which way is better.
        const mtHint = hintPanel(
          mtCtx,
          { legal: "", hand: 0, unit: "pips", moves: [{ move: "2-3:T0", value: 3 }] },
          { send() {} },
        ).textContent;
        // Mexican Train's hands are rounds, in the log as in its rules.
        const mtDealt = entryText(
          { ...mtCtx, msg: { ...msg, log: [] } },
          { n: 0, hand: 2, kind: "deal", seat: null },
        ).text;
        const lineHintRows = [...lineHint.querySelectorAll("button.hint")].map((b) => b.getAttribute("aria-label"));
        const body = document.createElement("div");
        texas42Board.summary(ctx(t42), body);
        const drawn = texas42Board
          .draw(ctx(t42))
          .map((e) => e.textContent)
          .join(" ");
        // The trick circle names the seat at each place (short: "Partner"),
        // the seat to play marked: on a phone the seats sit in a row above.
        const slots = [
          ...texas42Board
            .draw(ctx({ ...t42, actor: 2, trick: [{ seat: 1, tile: "5-3" }] }))
            .find((e) => e.classList.contains("trick"))
            .querySelectorAll(".trick-slot"),
        ].map((e) => [
          e.dataset.seat,
          e.querySelector(".who").textContent,
          !!e.querySelector(".tt"),
          e.classList.contains("turn"),
        ]);
        // 8: the bid hint with its margins: 31 best, 32, 33 and 35 within
        // twice their standard error of it, passing clearly worse.
        const bids = [
          { move: "bid:31", value: 10.2, se: 0 },
          { move: "bid:32", value: 10.0, se: 0.5 },
          { move: "bid:33", value: 9.6, se: 0.4 },
          { move: "bid:35", value: 9.1, se: 0.6 },
          { move: "pass", value: 2.0, se: 0.5 },
        ];
        const hint = hintPanel(ctx(t42), { legal: "", hand: 0, unit: "points", moves: bids }, { send() {} });
        const close = [...hint.querySelectorAll(".hint.close")].map((e) => e.textContent);
        // A bid hint asked in the first hand: the next hand offers the same
        // bids with other tiles, so it no longer holds there.
        // Nor after a deal thrown in (all passed): the same hand and bids, other tiles.
        const bidding = { ...msg, to_act: true, legal: bids.map((b) => b.move), hands_finished: 0 };
        const bidView = (tiles) => ({
          ...t42,
          phase: "bidding",
          hand_number: 1,
          hands: [0, 1, 2, 3].map((k) => ({ seat: k, side: k % 2, count: 7, tiles: k === 0 ? tiles : null })),
        });
        const at = (m, tiles = ["6-6", "5-5"]) => ({ ...ctx(bidView(tiles)), msg: m });
        const asked = { legal: bidding.legal.join("|"), hand: 0, tiles: "6-6|5-5", moves: bids };
        const holds = [
          hintHolds(asked, at(bidding)),
          hintHolds(asked, at({ ...bidding, hands_finished: 1 })),
          hintHolds(asked, at({ ...bidding, legal: ["pass"] })),
          hintHolds(asked, at({ ...bidding, to_act: false })),
          hintHolds(asked, at(bidding, ["4-4", "3-3"])),
        ];
        // The deal thrown in is logged (a game on this device has no server log to say it).
        const thrownIn = [];
        texas42Board.diff(
          ctx(bidView([])),
          { ...bidView([]), bids: ["pass", "pass", "pass", null], redeals: 0 },
          { ...bidView([]), bids: [null, null, null, null], redeals: 1 },
          3,
          { push: (x) => thrownIn.push(x), bubble() {} },
        );
        // The server's log of a Texas 42 hand dealt again says why (all four passed).
        const t42Log = { ...msg, log: [0, 5].map((n) => ({ n, hand: 1, kind: "deal", seat: null })) };
        const t42Dealt = t42Log.log.map((e) => entryText({ ...ctx(bidView([])), msg: t42Log }, e).text);
        // 8: the review: each grade agrees with the number shown as what it is made from.
        const th = { good: 2, inaccuracy: 5, mistake: 15 };
        const mv = (loss, se, grade) => ({ event: 1, played: "6-4", best: "5-5", loss, se, grade });
        const review = {
          hand: 1,
          seat: 0,
          hands_known: false,
          method: "sampled solver",
          samples: 40,
          unit: "points",
          thresholds: th,
          counts: {},
          forced: 0,
          noise_se: 2,
          moves: [
            mv(10.7, 5.4, "best"),
            mv(44.5, 15, "mistake"),
            mv(20, 1, "blunder"),
            { ...mv(0, 0.5, "best"), played: "5-5" },
          ],
        };
        const rv = document.createElement("div");
        rv.append(...reviewBody(ctx(t42), review));
        const rows = [...rv.querySelectorAll("tr[data-grade]")].map((tr) => ({
          grade: tr.dataset.grade,
          counted: Number(/surely ([\d.]+)/.exec(tr.querySelector(".counted")?.textContent || "")?.[1] ?? NaN),
          text: tr.textContent,
          best: tr.children[2]?.textContent,
          bestDrawn: tr.children[2]?.querySelectorAll("*").length ?? 0,
          label: tr.children[0]?.textContent,
        }));
        // "Which train?" sits at the bottom of the screen, the trains above in sight.
        const chooser = chooserDialog(
          mtCtx,
          { tile: "2-3", moves: ["2-3:T0", "2-3:M"] },
          () => {},
          () => {},
        );
        document.body.appendChild(chooser);
        const box = chooser.querySelector(".chooser").getBoundingClientRect();
        const chooserAt = {
          top: Math.round(box.top),
          bottom: Math.round(box.bottom),
          height: innerHeight,
          position: getComputedStyle(chooser).position,
        };
        chooser.remove();
        // A line game's "Which end?" names each end by its number: the line
        // turns at the table's edge, so its left end can lie on the right.
        // Its keys are the ends' numbers: "1" beside "the 5 end" with the 1
        // end second read as the wrong end.
        const fiveTwo = { ...line, ends: [5, 2] };
        const endChooser = chooserDialog(
          ctx(fiveTwo),
          { tile: "5-2", moves: ["5-2:L", "5-2:R"] },
          () => {},
          () => {},
        );
        const endButtons = [...endChooser.querySelectorAll("button[data-move]")].map((b) => b.textContent);
        const keyed = (key) => {
          const sent = [];
          const k = {
            msg: { ...msg, to_act: true },
            chooser: { tile: "5-2", moves: ["5-2:L", "5-2:R"] },
            focus: 0,
            dialogOpen: () => false,
            closeDialog: () => false,
            ctx: () => ctx(fiveTwo),
            send: (mv) => sent.push(mv),
            playTile: () => {},
            redraw: () => {},
          };
          onKey(k, new KeyboardEvent("keydown", { key }));
          return sent.join(",") || "nothing";
        };
        const endKeys = ["2", "5", "1", "l"].map(keyed);
        // My own domino, said in Spanish: "te quedaste", not "Tú se quedó".
        const mine = (end, capicua) => {
          const b = document.createElement("div");
          const last_hand = {
            end,
            capicua,
            last_placer: 0,
            tied: false,
            winner_side: 0,
            pips: [0, 5, 3, 2],
            total: [10, 0],
            pip_points: [10, 0],
            bonuses: [],
          };
          lineBoard.summary(ctx({ ...line, scores: [10, 0], last_hand }), b);
          return b.querySelector(".how").textContent;
        };
        setLang("es");
        const esEnds = [mine("domino", false), mine("domino", true), mine("block", false)];
        setLang("en");
        return {
          mtTags,
          esEnds,
          chooserAt,
          endButtons,
          endKeys,
          prompts,
          keys,
          lineHint: lineHint.textContent,
          lineHintRows,
          mtHint,
          mtDealt,
          pronouns,
          bidRow,
          bubbles,
          lived,
          note,
          said,
          botLines,
          holds,
          thrownIn,
          t42Dealt,
          mtLines,
          salida,
          dealt,
          set: body.textContent,
          drawn,
          slots,
          hint: hint.textContent,
          close,
          rows,
          scale: rv.querySelector(".review-scale").textContent,
        };
      }
    });
    if (r.error) throw new Error(r.error);
    check(
      r.esEnds.join(" | ") ===
        "Dominó: te quedaste sin fichas. | ¡Capicúa! Dominaste tú. | Tranque: el juego se cerró (la última ficha fue tuya).",
      `my own hand's end in Spanish grammar, not "de Tú" (${r.esEnds.join(" | ")})`,
    );
    check(
      r.chooserAt.bottom >= r.chooserAt.height - 30 && r.chooserAt.top > r.chooserAt.height / 2,
      `"Which train?" sits at the bottom, the trains in sight above it (${JSON.stringify(r.chooserAt)})`,
    );
    check(
      /^Cover the open double on seat 2's train first/i.test(r.prompts[0]) &&
        /^Your opening turn: keep laying/.test(r.prompts[1]) &&
        /^Cover the open double on your train first/.test(r.prompts[2]) &&
        /^Your opening turn: no tile fits your train, so draw one$/.test(r.prompts[3]) &&
        /^Nothing more fits your train: end your opening turn$/.test(r.prompts[4]),
      `Mexican Train asks to cover an open double that binds me (${r.prompts.join(" | ")})`,
    );
    check(
      !/D draws/.test(r.keys[0]) && /D draws/.test(r.keys[1]),
      `the keys offer drawing only where there is a boneyard (${r.keys.join(" | ")})`,
    );
    check(
      r.endButtons.join(" | ") === "5 The 5 end | 2 The 2 end" && r.endKeys.join(" ") === "5-2:R 5-2:L nothing 5-2:L",
      `"Which end?" names each end by its number, not left or right, and its key is that number ` +
        `(${r.endButtons.join(" | ")}; keys 2, 5, 1, l send ${r.endKeys.join(" ")})`,
    );
    check(
      /Too close to call: 5\|2 on the 2 end against 5\|3 on the 1 end/.test(r.lineHint),
      `a too-close hint names the tiles, not only the ends (${r.lineHint})`,
    );
    check(
      r.lived.length === 2 && r.lived[0] === r.lived[1] && /5\|0$/.test(r.lived[0]),
      `a tile laid is logged as after a reload, higher number first (${r.lived.join(" | ")})`,
    );
    check(
      r.bidRow.join(" | ") === "Seat 2Pass | Partner (seat 3)yet to bid | Seat 4bidding… | Youyet to bid" &&
        r.bubbles.join(" | ") === "3:Pass",
      `Texas 42 says who has yet to bid, and a bid once, by tag or bubble (${r.bidRow.join(" | ")}; bubbles ${r.bubbles.join(" | ")})`,
    );
    check(
      r.pronouns[0] === "The hand goes to you." &&
        /^This game will not be rated: Dave and you sat down/.test(r.pronouns[1]) &&
        r.pronouns[2] === "You sat down" &&
        r.pronouns[3] === "The hand goes to us." &&
        r.pronouns[4] === "The name is empty: type 1 to 32 characters",
      `"You" and "Us" are lower case inside a sentence (${r.pronouns.join(" | ")})`,
    );
    check(r.mtDealt === "Round 2 dealt", `Mexican Train's log says "Round 2 dealt" (${r.mtDealt})`);
    check(
      /\(in pips gained on the others’ penalties; higher is better\)/.test(r.mtHint),
      `Mexican Train's hint says its pips are gained on the others, higher better (${r.mtHint})`,
    );
    check(
      r.lineHintRows.join(" | ") === "5|3 on the 1 end: 1.00 | 5|2 on the 2 end: 0.90",
      `each hint row names its tiles in words, not only its end (${r.lineHintRows.join(" | ")})`,
    );
    check(
      r.note.join(" | ") === "to 7 marks | to 250 points",
      `Texas 42's target names its unit (${r.note.join(" | ")})`,
    );
    check(
      r.said.join(" | ") === "Partner (seat 3) asked for a redeal | You ended the opening turn | Seat 2 rolled again",
      `a move named by its button is said of its mover in the log (${r.said.join(" | ")})`,
    );
    check(
      /^A bot for you played 5\|3 .*\(time ran out\)$/.test(r.botLines[0]) &&
        /^A bot for Seat 2 played/.test(r.botLines[1]),
      `a takeover bot's move reads "A bot for you" for this seat (${r.botLines.join(" | ")})`,
    );
    check(
      /expected values from what you can see \(in points; higher is better\)/.test(r.hint),
      `the hint names its unit and which way is better (${r.hint})`,
    );
    check(
      JSON.stringify(r.holds) === "[true,false,false,false,false]",
      `a hint holds only for the choice it was asked of, not the next hand's same bids (${JSON.stringify(r.holds)})`,
    );
    check(
      r.t42Dealt.join(" | ") === "Hand 1 dealt | Hand 1 dealt again · everyone passed",
      `Texas 42: the server's log says why a hand is dealt again ("${r.t42Dealt.join(" | ")}")`,
    );
    check(
      JSON.stringify(r.thrownIn) === JSON.stringify(["Hand 1 dealt again"]),
      `Texas 42: a deal thrown in when all passed is logged (${JSON.stringify(r.thrownIn)})`,
    );
    check(
      JSON.stringify(r.mtLines.map((x) => [x.text, x.seat])) ===
        JSON.stringify([
          ["Nothing fitted: your train is open to everyone", 0],
          ["Seat 2: 3|4 on your train", 1],
          ["Nothing fitted: Seat 2's train is open to everyone", 1],
        ]) && r.mtLines.every((x) => x.text.includes(":") && (x.cls === "hand") === /open/.test(x.text)),
      `Mexican Train: a marker says why the turn ended, and "your train" inside a sentence (${JSON.stringify(r.mtLines)})`,
    );
    check(r.salida === "Partner (seat 3) makes the salida", `the salida chosen is said once ("${r.salida}")`);
    check(
      r.dealt.join(" | ") === "Hand 1 dealt | Hand 1 dealt again",
      `a redeal's second deal says the hand was dealt again ("${r.dealt.join(" | ")}")`,
    );
    check(
      /You bid 30 in \w+ and were set/.test(r.set) &&
        !/was set/.test(r.set) &&
        /SidePointsTricksMarks this handGame \(marks\)/.test(r.set),
      // "Points", not "Count": the column holds the tricks' points too (a 42 player reads count as the 5s and 10s).
      `a set declarer who is me: "You … were set", the points column is "Points" and the marks are named marks ("${r.set}")`,
    );
    const bandOf = (x) => (x <= 0 ? "best" : x <= 2 ? "good" : x <= 5 ? "inaccuracy" : x <= 15 ? "mistake" : "blunder");
    check(
      r.rows.length === 4 &&
        r.rows.every((x) => bandOf(x.counted) === x.grade) &&
        /surely cost against the top move/.test(r.scale) &&
        !/less twice its/.test(r.scale),
      `each review grade agrees with what it is made from, shown beside the loss (${r.rows.map((x) => x.text).join(" | ")}; ${r.scale})`,
    );
    check(
      r.rows[3].grade === "best" && r.rows[3].best === "the same" && r.rows[3].label === "Best",
      `the review's "Top move" beside the best move says "the same", not "—", graded "Best" (${r.rows[3].best}, ${r.rows[3].label})`,
    );
    // Graded best within the noise, yet another move valued higher: that move is named, not "the same"
    // beside a loss of 10.7.
    check(
      r.rows[0].grade === "best" &&
        r.rows[0].bestDrawn > 0 &&
        r.rows[0].best !== "the same" &&
        r.rows[0].label === "As good",
      `a move graded best within the noise shows the move valued higher, and says "As good", not "Best" beside it (${r.rows[0].best}, ${r.rows[0].bestDrawn} parts, ${r.rows[0].label})`,
    );
    // The ± each close bid is read against is shown beside its value.
    check(
      r.mtTags.length === 2 &&
        r.mtTags.some(([x, a]) => x === "open" && /anyone may lay here/.test(a)) &&
        r.mtTags.some(([x, a]) => x === "double to cover" && /everyone must lay on it/.test(a)) &&
        r.mtTags.every(([, a, title]) => a === title),
      `Mexican Train's "open" and "double to cover" tags explain themselves (${JSON.stringify(r.mtTags)})`,
    );
    check(
      r.close.length === 3 &&
        r.close.every((x) => /≈ [\d.]+ ± [\d.]+$/.test(x)) &&
        /Too close to call: Bid 32, Bid 33, Bid 35 against Bid 31.*within twice their ±/i.test(r.hint),
      `the bid hint says when bids are too close to call, with each ± (${r.close.join(" | ")}; ${r.hint})`,
    );
    check(
      JSON.stringify(r.slots) ===
        JSON.stringify([
          ["0", "You", false, false],
          ["1", "Seat 2", true, false],
          ["2", "Partner", false, true],
          ["3", "Seat 4", false, false],
        ]),
      `Texas 42's trick names who plays at each place, and whose turn it is (${JSON.stringify(r.slots)})`,
    );
    check(/(^|\D)1 pt\b/.test(r.drawn) && !/(^|\D)1 pts/.test(r.drawn), `one point taken is "1 pt" ("${r.drawn}")`);
    await p.close();
  }

  // A fresh player's notes on the new-table form, on an upright phone: a
  // count is a number field held to its range (a "99" built 99 seat menus),
  // a bad value is said beside the button and nothing is sent, a long choice
  // is shown whole, and the engine option says what it is.
  {
    const p = await newPage({ width: 390, height: 844, isMobile: true, hasTouch: true });
    let posted = 0;
    p.on("request", (q) => (posted += q.method() === "POST" && q.url().endsWith("/api/tables") ? 1 : 0));
    await p.goto(`${base}/`);
    await chooseGame(p, "mexican-train");
    await p.waitForSelector("input[name=players]");
    await p.$eval(".opt-details", (d) => (d.open = true));
    await p.type("input[name=players]", "99");
    await p.$eval("input[name=players]", (e) => e.dispatchEvent(new Event("change")));
    await p.$eval("#create", (e) => e.click());
    await sleep(300);
    const r = await p.evaluate(() => {
      const players = document.querySelector("input[name=players]");
      const err = document.getElementById("create-error");
      const btn = document.getElementById("create").getBoundingClientRect();
      // Each choice list as wide as its longest choice needs (a copy unbounded).
      const cut = [...document.querySelectorAll(".opt select")].filter((s) => {
        const copy = s.cloneNode(true);
        copy.style.cssText = "position:absolute;visibility:hidden;max-width:none;width:auto";
        document.body.appendChild(copy);
        const need = copy.getBoundingClientRect().width;
        copy.remove();
        return s.getBoundingClientRect().width + 1 < need;
      });
      const engine = document.querySelector("select[name=engine]");
      return {
        kind: [players.type, players.min, players.max].join(" "),
        rows: document.querySelectorAll(".seats .seat-row").length,
        err: err?.textContent || "",
        gap: err ? Math.abs(err.getBoundingClientRect().top - btn.bottom) : 1e9,
        cut: cut.map((s) => s.name),
        engine: engine.options[engine.selectedIndex].textContent,
        order: [...document.querySelectorAll(".opt [name]")].map((e) => e.name),
        family: document.querySelector('[data-family="line"]').textContent,
        url: location.pathname + location.search,
      };
    });
    check(r.kind === "number 2 8", `Players is a number field from 2 to 8 (${r.kind})`);
    check(r.rows === 8, `"99" players builds at most 8 seat rows, not 99 (${r.rows})`);
    check(
      r.err === "Players: a whole number from 2 to 8, please." && r.gap < 60 && posted === 0 && r.url === "/",
      `a bad count is said beside the button ("${r.err}", ${Math.round(r.gap)} px away) and nothing is sent (${posted} posts, at ${r.url})`,
    );
    check(r.cut.length === 0, `every choice list shows its choice whole on a phone (cut: ${r.cut.join(", ")})`);
    check(r.engine === "The first player's highest double", `the engine option says what it is ("${r.engine}")`);
    check(
      r.order.join(",") === "players,rounds,single_hand,set,hand_size,engine,multiple_doubles,blank_double_50",
      `Mexican Train's options go from the game's shape to its house rules (${r.order.join(", ")})`,
    );
    check(
      r.family === "Latin & Caribbean",
      `the line games' tab names what they are, not "Line games" ("${r.family}")`,
    );
    await p.screenshot({ path: join(shots, "defects-new-table-phone.png"), fullPage: false });
    await (await p.$(".options")).screenshot({ path: join(shots, "defects-options-phone.png") });
    await p.close();
  }

  // Dice & Dominoes on a phone: two tiles picked rise with their numbers,
  // and they rose over the hint's last line ("...means nothing.").
  {
    const t = await table("dice-and-dominoes", {}, ["human", "bot:beginner", "bot:beginner", "bot:beginner"]);
    const p = await newPage({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await p.goto(`${base}/?t=${t.id}&k=${t.tokens["0"]}`);
    await p.waitForSelector("#lay", { timeout: 15000 });
    await p.click("#hint");
    await p.waitForSelector(".hints .hint", { timeout: 30000 });
    for (const k of [0, 1]) await p.$$eval(".hand .htile", (b, k) => b[k].click(), k);
    await sleep(300); // the rise is a 0.12 s transition
    const r = await p.evaluate(() => {
      const hints = document.querySelector(".hints")?.getBoundingClientRect().bottom ?? 0;
      const risen = [...document.querySelectorAll(".hand .htile.picked, .hand .htile.picked .order")];
      return { hints, top: Math.min(...risen.map((e) => e.getBoundingClientRect().top)), n: risen.length };
    });
    check(
      r.n === 4 && r.top >= r.hints,
      `a picked tile and its number stay below the hint (${r.n} raised, top ${Math.round(r.top)} px, hint ends at ${Math.round(r.hints)} px)`,
    );
    await p.screenshot({ path: join(shots, "defects-dd-picked-phone.png") });
    // Laid, and the next round dealt: its dice are named as this round's
    // (they sat above "Round 1: match points 2 and 3" unnamed) and said
    // what they mean; the round below is named as the one just revealed.
    await p.click("#lay");
    const next = await until(p, () => /^Round 2/.test(document.querySelector(".dice-row .label")?.textContent || ""));
    const dd = await p.evaluate(() => ({
      dice: document.querySelector(".dice-row .label")?.textContent,
      help: document.querySelector(".match-help")?.textContent,
      reveal: document.querySelector(".reveal h4")?.textContent,
      hand: document.querySelector(".topbar .title span")?.textContent,
    }));
    check(
      next &&
        dd.dice === "Round 2, the dice:" &&
        /^(A tile showing \d or \d is|Tiles showing \d are) discarded, one .*0\|0 always is\. The first with no tiles left wins the pot\.$/.test(
          dd.help,
        ) &&
        /^Round 1, just revealed: dice \d and \d$/.test(dd.reveal) &&
        /^Hand 1 of \d+ · round 2$/.test(dd.hand),
      `Dice & Dominoes names this round's dice, says what they mean, and names the round revealed (${JSON.stringify(dd)})`,
    );
    // "Last moves", newest first: round 2's dice above round 1's reveal (they
    // came in one update, the dice once logged first), which names its own
    // dice, as the board does, and what was discarded.
    const ddLog = await p.$$eval("aside.log li", (l) => l.map((e) => e.textContent));
    const revealAt = ddLog.findIndex((x) => /^Round 1 revealed, dice \d and \d\. Discarded: \S/.test(x));
    const diceAt = ddLog.findIndex((x) => /^Dice: \d and \d$/.test(x));
    const said = /dice (\d) and (\d)/.exec(ddLog[revealAt] || "");
    check(
      revealAt > diceAt &&
        diceAt >= 0 &&
        !!said &&
        dd.reveal === `Round 1, just revealed: dice ${said[1]} and ${said[2]}`,
      `Dice & Dominoes' log has the next dice after the reveal, which names its dice and discards (${JSON.stringify(ddLog.slice(0, 12))}; ${JSON.stringify(dd)})`,
    );
    // Any two tiles may be laid, but gold marks only those these dice would
    // discard (every tile gold read as "all fit"), and the help counts them.
    const fit = await p.evaluate(() => {
      const dice = [...document.querySelectorAll(".dice-row svg.die")].map(
        (d) => d.querySelectorAll(".die-pip").length,
      );
      const tiles = [...document.querySelectorAll(".hand .htile.legal")].map((e) => {
        const [a, b] = e.dataset.tile.split("-").map(Number);
        return {
          should: (a === 0 && b === 0) || dice.some((d) => d === a || d === b),
          gold: e.classList.contains("fits"),
          outline: getComputedStyle(e.querySelector("svg")).outlineColor,
        };
      });
      return { dice, tiles, help: document.querySelector("#lay-help")?.textContent || "" };
    });
    const golds = fit.tiles.filter((x) => x.gold);
    const others = fit.tiles.filter((x) => !x.gold);
    check(
      fit.dice.length === 2 &&
        fit.tiles.length > 0 &&
        fit.tiles.every((x) => x.should === x.gold) &&
        golds.every((x) => others.every((y) => x.outline !== y.outline)) &&
        fit.help.includes(`Gold: your tiles these dice would discard (${golds.length}).`),
      `Dice & Dominoes marks gold only the tiles these dice would discard (${JSON.stringify(fit)})`,
    );
    // The phone's "Last moves" is cut short: it fades at the bottom while
    // more lies below, and not once scrolled to its end.
    const fade = () =>
      p.$eval(".log", (e) => ({
        cut: e.scrollHeight > e.clientHeight,
        more: e.classList.contains("fades"),
        mask: getComputedStyle(e).maskImage || getComputedStyle(e).webkitMaskImage,
        // its lines wrap, at its own size: none runs past its edge
        wraps: [...e.querySelectorAll("li")].every((l) => getComputedStyle(l).whiteSpace === "normal"),
        over: [...e.querySelectorAll("li")].filter((l) => l.scrollWidth > l.clientWidth + 1).length,
        opacity: getComputedStyle(e).opacity,
      }));
    const before = await fade();
    await p.$eval(".log", (e) => e.scrollTo(0, e.scrollHeight));
    await sleep(100);
    const after = await fade();
    check(
      before.cut &&
        before.more &&
        /gradient/.test(before.mask) &&
        !after.more &&
        after.mask === "none" &&
        before.wraps &&
        before.over === 0 &&
        before.opacity === "1",
      `the phone's cut-short log fades at the bottom until scrolled to its end (${JSON.stringify([before, after])})`,
    );
    await p.close();
  }
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
console.log(H.failures ? `${H.failures} check(s) failed` : "all defect checks passed");
process.exit(H.failures ? 1 : 0);
