// The lobby: quick games, a game and preset, its options, the seats, create.
import { clockWords, otherTarget, ratedChoice, ratingTag, termsLine } from "./terms";
import { api, ApiError, GameInfo, LobbyTable, saveTable, myPlayer, forgetMyPlayer, saveMyPlayer, Player } from "./api";
import { h, clear } from "./dom";
import { t, hasKey, langPicker } from "./i18n";
import { badOption, optionField, optionKeys, seatCount } from "./options";
import { boardOf, familyName, FAMILIES, QUICK_GAMES } from "./boards/registry";
import { tileSvg } from "./tiles";
import { openRecord } from "./replay";
import { gameName, playerUrl, rulesUrl, tableUrl } from "./links";
import { leaderboardCard } from "./players";
import { WATCH_URL } from "./watch";
import { friendsCard } from "./friends";
import { youPanel } from "./you";
import { localCard, renderLocalLobby } from "./local/lobby";
import { myTablesCard, inPlayBanner } from "./my_tables";

const LEVELS = ["beginner", "casual", "strong", "expert"];

let games: GameInfo[] | null = null;

export function botDelay(): number {
  const q = new URLSearchParams(location.search).get("botdelay");
  if (q !== null && /^\d+$/.test(q)) return Number(q);
  return Number(localStorage.getItem("boneyard.botdelay") || "700");
}

// One table at a time: a double click on "Play now" made two (a fresh pair
// of eyes found both in "Your tables", the second playing on without them).
let creating = false;
async function createTable(g: GameInfo, opts: Record<string, string>, seats: string[], go: (url: string) => void) {
  if (creating) return;
  creating = true;
  try {
    await createTableNow(g, opts, seats, go);
  } finally {
    creating = false;
  }
}

async function createTableNow(g: GameInfo, opts: Record<string, string>, seats: string[], go: (url: string) => void) {
  const changed: Record<string, string> = {};
  for (const k in opts) if (String(g.options[k]) !== opts[k]) changed[k] = opts[k];
  const seatSpec = seats.map((s) => (s === "you" || s === "friend" ? "human" : s === "anyone" ? "open" : "bot:" + s));
  const body: Record<string, unknown> = { game: g.name, options: changed, seats: seatSpec, bot_delay_ms: botDelay() };
  // A seat for anyone makes the table public: listed in the lobby's open tables.
  if (seats.includes("anyone")) body.public = true;
  if ((document.getElementById("rated") as HTMLInputElement | null)?.checked) body.rated = true;
  // ?dropdelay=MS: how long an absent person's seat waits before a bot plays for them (tests).
  const drop = new URLSearchParams(location.search).get("dropdelay");
  if (drop && /^\d+$/.test(drop)) body.drop_delay_ms = Number(drop);
  // The turn clock (docs/server.md): seconds a move, with the server's default bank.
  const clock = (document.getElementById("clock") as HTMLSelectElement | null)?.value;
  if (clock && clock !== "0") body.clock_s = Number(clock);
  const mine = seats.indexOf("you");
  // This browser's player sits at "you" with their name.
  const me = myPlayer();
  if (me && mine >= 0) {
    body.key = me.key;
    body.key_seat = mine;
  }
  const r = await api.create(body).catch((e) => {
    // A key this server does not know (its database was reset): sit down without it.
    if (!(e instanceof ApiError && e.status === 403 && body.key)) throw e;
    forgetMyPlayer();
    delete body.key;
    delete body.key_seat;
    return api.create(body);
  });
  const invites: Record<string, string> = {};
  seats.forEach((s, k) => {
    if (s === "friend") invites[k] = r.tokens[String(k)];
  });
  const token = mine >= 0 ? r.tokens[String(mine)] : r.spectate;
  saveTable({ id: r.id, token, game: g.name, seat: mine, created: Date.now(), invites, spectate: r.spectate });
  go(tableUrl(r.id, token));
}

export async function renderLobby(root: HTMLElement, go: (url: string) => void) {
  clear(root);
  const main = h("main", { class: "lobby" });
  root.appendChild(main);
  const toRules = (e: Event) => {
    e.preventDefault();
    go((e.currentTarget as HTMLAnchorElement).getAttribute("href")!);
  };
  const mePlayer = myPlayer();
  // "Your player": a password for this player, or this browser signed in as a player made elsewhere.
  const you = youPanel(() => renderLobby(root, go));
  you.hidden = true;
  main.appendChild(
    h(
      "header",
      { class: "lobby-top" },
      mePlayer
        ? h(
            "a",
            {
              class: "rules-link",
              id: "my-page",
              href: playerUrl(mePlayer.id),
              onclick: (e: Event) => {
                e.preventDefault();
                go(playerUrl(mePlayer.id));
              },
            },
            t("lobby.my_page", { name: mePlayer.name }),
          )
        : null,
      " ",
      h(
        "button",
        {
          class: "link",
          id: "you-open",
          "aria-expanded": "false",
          "aria-controls": "you-panel",
          onclick: (e: Event) => {
            you.hidden = !you.hidden;
            (e.currentTarget as HTMLElement).setAttribute("aria-expanded", String(!you.hidden));
            if (!you.hidden) you.querySelector<HTMLInputElement>("input")?.focus();
          },
        },
        t("you.open"),
      ),
      " ",
      h("a", { class: "rules-link", id: "rules-link", href: rulesUrl("line"), onclick: toRules }, t("rules.link")),
      " ",
      h("a", { class: "rules-link", id: "watch-link", href: WATCH_URL, onclick: toRules }, t("watch.title")),
      " ",
      langPicker(),
    ),
  );
  main.appendChild(you);
  main.appendChild(inPlayBanner(go));
  main.appendChild(
    h(
      "section",
      { class: "hero" },
      h(
        "div",
        { class: "hero-tiles" },
        tileSvg(6, 6, { vertical: true, size: 30 }),
        tileSvg(6, 4, { size: 30 }),
        tileSvg(4, 1, { size: 30 }),
      ),
      h("h1", null, t("app.title")),
      h("p", { class: "tagline" }, t("lobby.tagline")),
    ),
  );
  const status = h("p", { class: "error", role: "alert" });
  main.appendChild(status);
  if (!games) {
    try {
      games = (await api.games()).games;
    } catch {
      return renderLocalLobby(main, go); // no server: games against the computer on this device
    }
  }
  const all = games!;
  const find = (n: string) => all.find((g) => g.name === n) || all[0];

  // Quick play: one click to a table.
  // Said as online beside the device's own games ("No connection needed").
  const quick = h(
    "section",
    { class: "card quick" },
    h("h2", null, t("lobby.quick")),
    h("p", { class: "muted", id: "quick-about" }, t("lobby.quick_about")),
  );
  const quickGames: [string, string[]][] = QUICK_GAMES.map((g) => [g, ["you", "casual", "casual", "casual"]]);
  const qrow = h("div", { class: "quick-row" });
  for (const [name, seats] of quickGames) {
    const g = all.find((x) => x.name === name);
    if (!g) continue;
    const opts: Record<string, string> = {};
    for (const k in g.options) opts[k] = String(g.options[k]);
    const n = seatCount(g, opts);
    const s = seats.slice(0, n);
    while (s.length < n) s.push("casual");
    qrow.appendChild(
      h(
        "button",
        {
          class: "quick-btn",
          "data-quick": name,
          onclick: () => createTable(g, opts, s, go).catch((e) => (status.textContent = String(e.message))),
        },
        h("strong", null, gameName(name)),
        h("span", null, t("lobby.quick_vs_bots", { n: n - 1 })),
      ),
    );
  }
  quick.appendChild(qrow);
  quick.appendChild(quickMatch(all, go, status));
  main.appendChild(quick);
  const mine = myTablesCard(go, () => renderLobby(root, go));
  if (mine) main.appendChild(mine);
  // Beside the online games, the games on this device look secondary: the
  // two rows of four green buttons read as the same thing twice.
  const onDevice = localCard(go, status);
  onDevice.classList.add("beside-online");
  main.appendChild(onDevice);
  main.appendChild(openTables(all, go, status));
  const friends = friendsCard(go);
  if (friends) main.appendChild(friends);

  // A table of your own.
  const form = h("section", { class: "card create" }, h("h2", null, t("lobby.new_table")));
  main.appendChild(form);
  let family = "line";
  let game = find("latin");
  let opts: Record<string, string> = {};
  let seats: string[] = [];
  const famRow = h("div", { class: "tabs", role: "tablist" });
  const presetBox = h("div", { class: "presets" });
  const optBox = h("div", { class: "options" });
  const rulesLink = h("a", { class: "rules-link", id: "preset-rules", onclick: toRules });
  const seatBox = h("div", { class: "seats" });
  const createBtn = h("button", { class: "primary big", id: "create" }, t("lobby.create")) as HTMLButtonElement;
  // Beside the button, where the eye is when it is pressed.
  const createStatus = h("p", { class: "error", role: "alert", id: "create-error" });
  form.append(
    h("h3", null, t("lobby.game")),
    famRow,
    presetBox,
    rulesLink,
    h("details", { class: "opt-details" }, h("summary", null, t("lobby.options")), optBox),
    h("h3", null, t("lobby.seats")),
    seatBox,
    h("label", { class: "rated-box" }, h("input", { type: "checkbox", id: "rated" }), " ", t("lobby.rated")),
    h(
      "label",
      { class: "speed" },
      t("lobby.bot_speed"),
      " ",
      h(
        "select",
        {
          id: "speed",
          onchange: (e: Event) => localStorage.setItem("boneyard.botdelay", (e.target as HTMLSelectElement).value),
        },
        [
          ["1500", "speed.slow"],
          ["700", "speed.normal"],
          ["250", "speed.fast"],
        ].map(([ms, k]) => h("option", { value: ms, selected: String(botDelay()) === ms ? "" : null }, t(k))),
      ),
    ),
    h(
      "label",
      { class: "speed" },
      t("lobby.clock"),
      " ",
      h(
        "select",
        { id: "clock" },
        ["0", "15", "30", "60"].map((s) =>
          h("option", { value: s }, s === "0" ? t("clock.off") : t("clock.per_move", { n: s })),
        ),
      ),
    ),
    createBtn,
    createStatus,
  );

  const pickGame = (g: GameInfo) => {
    game = g;
    createStatus.textContent = ""; // what was wrong with the last game's options is not this one's
    opts = {};
    for (const k in g.options) opts[k] = String(g.options[k]);
    drawPresets();
    drawOptions();
    drawSeats(true);
  };
  const drawFamilies = () => {
    clear(famRow);
    // The families with a board first, then any other a game comes in.
    for (const f of [...new Set([...FAMILIES, ...all.map((g) => g.family)])].filter((x) =>
      all.some((g) => g.family === x),
    ))
      famRow.appendChild(
        h(
          "button",
          {
            class: "tab" + (f === family ? " on" : ""),
            role: "tab",
            "data-family": f,
            "aria-selected": f === family ? "true" : "false",
            onclick: () => {
              family = f;
              drawFamilies();
              pickGame(all.find((g) => g.family === f)!);
            },
          },
          familyName(f),
        ),
      );
  };
  const drawPresets = () => {
    clear(presetBox);
    for (const g of all.filter((x) => x.family === family))
      presetBox.appendChild(
        h(
          "label",
          { class: "preset" + (g === game ? " on" : "") },
          h("input", {
            type: "radio",
            name: "preset",
            value: g.name,
            checked: g === game,
            onchange: () => pickGame(g),
          }),
          h("span", { class: "preset-name" }, gameName(g.name)),
          // The summary says where it is played; the spec's source letters ("Dg",
          // "seed 004") mean nothing to a player and stay out.
          h("span", { class: "preset-summary" }, presetAbout(g)),
        ),
      );
    rulesLink.setAttribute("href", rulesUrl(family, game.name));
    rulesLink.textContent = t("rules.this_game", { game: gameName(game.name) });
  };
  const drawOptions = () => {
    clear(optBox);
    for (const k of optionKeys(game.family, game.options)) {
      const cat = game.catalogue[k];
      const onchange = (v: string) => {
        opts[k] = v;
        if (k === "players") drawSeats(false);
      };
      // A family's own help first (Mexican Train's set is not double-six).
      const own = `opt.${game.family}.${k}`;
      const explain = hasKey(own) ? t(own) : hasKey("opt." + k) ? t("opt." + k) : typeof cat === "string" ? cat : "";
      optBox.appendChild(optionField(k, cat, opts, onchange, explain));
    }
  };
  const drawSeats = (reset: boolean) => {
    const n = seatCount(game, opts);
    if (reset || seats.length !== n) {
      const old = seats;
      seats = [];
      for (let k = 0; k < n; k++) seats.push(old[k] && !reset ? old[k] : k === 0 ? "you" : "casual");
    }
    clear(seatBox);
    const teams = !!boardOf(game.family).partnership?.(opts);
    seats.forEach((s, k) => {
      const choices = ["you", "friend", "anyone", ...LEVELS];
      seatBox.appendChild(
        h(
          "div",
          { class: "seat-row" },
          h(
            "span",
            { class: "seat-label" },
            t("seat.n", { n: k + 1 }),
            teams ? h("small", null, " · ", t(k % 2 ? "team.b" : "team.a")) : null,
          ),
          h(
            "select",
            {
              "data-seat": k,
              onchange: (ev: Event) => {
                const v = (ev.target as HTMLSelectElement).value;
                if (v === "you") seats = seats.map((x) => (x === "you" ? "casual" : x));
                seats[k] = v;
                drawSeats(false);
              },
            },
            choices.map((c) => h("option", { value: c, selected: c === s ? "" : null }, t("seatkind." + c))),
          ),
        ),
      );
    });
  };
  createBtn.onclick = () => {
    createStatus.textContent = badOption(optBox);
    if (createStatus.textContent) return;
    createBtn.disabled = true;
    createTable(game, opts, seats, go).catch((e) => {
      createStatus.textContent = String(e.message);
      createBtn.disabled = false;
    });
  };
  drawFamilies();
  pickGame(game);
  // The leaderboard below the new table: it fills in when the server
  // answers, and above the form it moved the family tabs under the finger.
  main.appendChild(leaderboardCard(go));

  // Replay a record file (a game downloaded from a table, or written by
  // boneyard play/arena --record): chosen, or dropped anywhere on the page.
  const replayStatus = h("p", { class: "error", role: "alert", id: "replay-error" });
  const readRecord = async (f: File | undefined | null) => {
    if (!f) return;
    replayStatus.textContent = "";
    try {
      const text = await f.text();
      try {
        JSON.parse(text);
      } catch {
        throw new Error(t("replay.not_json", { name: f.name }));
      }
      openRecord(text, go); // the text as it is: JSON.parse would round its 64-bit seed
    } catch (e) {
      replayStatus.textContent = String((e as Error).message);
    }
  };
  const file = h("input", {
    type: "file",
    id: "replay-file",
    accept: ".json,application/json",
    onchange: (e: Event) => readRecord((e.target as HTMLInputElement).files?.[0]),
  });
  const drop = h("label", { class: "drop", for: "replay-file" }, t("replay.drop"));
  main.addEventListener("dragover", (e: DragEvent) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  main.addEventListener("dragleave", () => drop.classList.remove("over"));
  main.addEventListener("drop", (e: DragEvent) => {
    e.preventDefault();
    drop.classList.remove("over");
    readRecord(e.dataTransfer?.files?.[0]);
  });
  main.appendChild(
    h(
      "section",
      { class: "card lobby-replay" },
      h("h2", null, t("replay.lobby_title")),
      h("p", { class: "muted" }, t("replay.lobby_help")),
      drop,
      file,
      replayStatus,
    ),
  );
}

// Quick match: "Find players" for a game waits for others who asked for the
// same (a name first, once); the count and the seconds until bots fill the
// empty seats are shown; once seated, to the table.
function quickMatch(all: GameInfo[], go: (url: string) => void, status: HTMLElement): HTMLElement {
  const box = h("div", { class: "qm" });
  const games = QUICK_GAMES.filter((n) => all.some((g) => g.name === n));
  let poll = 0;
  let taken = ""; // the name typed, when the server gave another ("Ann 2")
  const stop = () => {
    if (poll) clearInterval(poll);
    poll = 0;
  };
  const kind = ratedChoice(); // casual or rated (terms.ts)
  const idle = () => {
    stop();
    clear(box);
    box.append(
      h("h3", null, t("qm.title")),
      h("p", { class: "muted" }, t("qm.help")),
      kind.el,
      h(
        "div",
        { class: "qm-row" },
        games.map((n) => h("button", { class: "action", "data-qm": n, onclick: () => start(n) }, gameName(n))),
      ),
    );
  };
  const me = async (game: string): Promise<Player> => {
    const p = myPlayer();
    if (p) return p;
    // A name first: the same form as at a table, under the game and kind
    // chosen (they stay in sight), with a way back to the choice.
    return new Promise((resolve, reject) => {
      clear(box);
      const input = h("input", {
        id: "qm-name",
        maxlength: "32",
        autocomplete: "nickname",
        required: true,
        "aria-label": t("name.label"),
      }) as HTMLInputElement;
      const err = h("p", { class: "error", role: "alert" });
      box.append(
        h("h3", null, t("qm.title")),
        h(
          "p",
          { class: "qm-for", id: "qm-for" },
          t("qm.for", { game: gameName(game), kind: t(kind.rated() ? "terms.rated" : "terms.casual") }),
        ),
        h(
          "form",
          {
            class: "qm-name",
            onsubmit: async (e: Event) => {
              e.preventDefault();
              // One player however often it is clicked (a double click made two).
              const button = box.querySelector<HTMLButtonElement>("#qm-name-save");
              if (button?.disabled) return;
              if (button) button.disabled = true;
              try {
                const made = await api.createPlayer(input.value);
                taken = made.name !== input.value.trim() ? input.value.trim() : "";
                saveMyPlayer(made);
                resolve(made); // the button stays disabled: a late second click made "Dee 2" after "Dee"
              } catch (x) {
                err.textContent = String((x as Error).message);
                if (button) button.disabled = false;
              }
            },
          },
          h("label", { for: "qm-name" }, t("name.label")),
          input,
          h("button", { class: "primary", id: "qm-name-save" }, t("qm.go")),
        ),
        err,
        h(
          "button",
          {
            type: "button",
            class: "link",
            id: "qm-cancel",
            onclick: () => {
              idle();
              reject(null); // chosen again from the start
            },
          },
          t("common.cancel"),
        ),
      );
      input.focus();
    });
  };
  const start = async (game: string) => {
    status.textContent = "";
    try {
      let p = await me(game);
      const rated = kind.rated();
      const ask = () => api.quickmatch({ key: p.key, game, rated });
      let r = await ask().catch(async (e) => {
        if (!(e instanceof ApiError && e.status === 403)) throw e;
        forgetMyPlayer(); // a key this server does not know: a new player
        p = await me(game);
        return ask();
      });
      const show = (q: typeof r) => {
        if (q.status === "seated" && q.table && q.token) {
          stop();
          saveTable({
            id: q.table,
            token: q.token,
            game,
            seat: q.seat ?? -1,
            created: Date.now(),
            invites: {},
            spectate: "",
          });
          go(tableUrl(q.table, q.token));
          return;
        }
        clear(box);
        box.append(
          h("h3", null, t("qm.title")),
          h(
            "p",
            { class: "qm-wait", "aria-live": "polite" },
            t("qm.waiting", { game: gameName(game), n: q.waiting ?? 1, seats: q.seats ?? 4 }),
          ),
          // Someone on this network waits too: a rated table never seats both.
          q.same_network ? h("p", { class: "muted", id: "qm-same-network" }, t("qm.same_network")) : "",
          termsLine({ rated: q.rated, clock: q.clock }, "qm-terms"), // the table's terms, before it starts
          clockWords(q.clock) ?? "",
          ...(taken
            ? [
                h(
                  "p",
                  { class: "muted qm-taken" },
                  t("name.playing_as", { name: p.name }),
                  " ",
                  t("name.taken", { typed: taken }),
                ),
              ]
            : []),
          h("p", { class: "muted" }, t("qm.bots_in", { s: Math.ceil(q.seconds_left ?? 0) })),
          h(
            "button",
            {
              class: "link",
              id: "qm-cancel",
              onclick: () => {
                stop();
                api.quickmatchLeave(p.key).catch(() => {});
                idle();
              },
            },
            t("common.cancel"),
          ),
        );
      };
      show(r);
      let failures = 0;
      if (r.status !== "seated")
        poll = window.setInterval(async () => {
          if (!box.isConnected) {
            stop();
            api.quickmatchLeave(p.key).catch(() => {});
            return;
          } // left the lobby: stop waiting
          try {
            r = await api.quickmatchStatus(p.key);
            failures = 0;
            show(r);
          } catch (e) {
            // A server between two nodes (421, 5xx, no answer) for a few
            // seconds: the queue is kept, so keep asking; give up on a
            // refusal, or after half a minute of failures.
            const passing = !(e instanceof ApiError) || e.status === 421 || e.status >= 500;
            if (passing && ++failures < 30) return;
            stop();
            idle();
            status.textContent = String((e as Error).message);
          }
        }, 1000);
    } catch (e) {
      if (e === null) return; // cancelled at the name: back at the choice already
      idle();
      status.textContent = String((e as Error).message);
    }
  };
  idle();
  return box;
}

// The public tables waiting for players, live (the lobby's feed: the list,
// then each change), each with a button to take a free seat.
function openTables(all: GameInfo[], go: (url: string) => void, status: HTMLElement): HTMLElement {
  const list = h("ul", { class: "open-tables", "aria-live": "polite" });
  const card = h(
    "section",
    { class: "card open" },
    h("h2", null, t("lobby.open_tables")),
    h("p", { class: "muted" }, t("lobby.open_help")),
    list,
  );
  const tables = new Map<string, LobbyTable>();
  const draw = () => {
    clear(list);
    const rows = [...tables.values()]
      .sort((a, b) => b.created - a.created || (a.table < b.table ? -1 : 1))
      .slice(0, 50);
    if (!rows.length) list.appendChild(h("li", { class: "muted" }, t("lobby.no_open_tables")));
    for (const e of rows)
      list.appendChild(
        h(
          "li",
          { "data-table": e.table },
          h("strong", null, gameName(e.game)),
          h(
            "span",
            { class: "who" },
            e.seats.map((s) =>
              h(
                "span",
                { class: "seat-chip " + (s.kind === "open" && !s.taken ? "free" : s.kind) },
                s.kind === "bot"
                  ? t("seatkind." + (s.level || "casual"))
                  : s.kind === "open" && !s.taken
                    ? t("lobby.free_seat")
                    : s.name || t("lobby.a_player"),
                s.rating ? " " : null,
                ratingTag(s.rating),
              ),
            ),
          ),
          termsLine({ rated: e.rated, clock: e.clock, target: otherTarget(all, e.game, e.options) }),
          h(
            "button",
            { class: "primary", "data-sit": e.table, onclick: () => sit(e.table) },
            t("lobby.sit", { n: e.free }),
          ),
        ),
      );
  };
  const sit = async (id: string) => {
    const me = myPlayer();
    try {
      const r = await api.sit(id, me ? { key: me.key } : {}).catch((e) => {
        if (!(e instanceof ApiError && e.status === 403 && me)) throw e;
        forgetMyPlayer(); // a key this server does not know: sit down without it
        return api.sit(id, {});
      });
      const e = tables.get(id);
      saveTable({
        id,
        token: r.token,
        game: e ? e.game : "",
        seat: r.seat,
        created: Date.now(),
        invites: {},
        spectate: "",
      });
      go(tableUrl(id, r.token));
    } catch (e) {
      status.textContent =
        e instanceof ApiError && e.status === 409 ? t("lobby.seat_gone") : String((e as Error).message);
    }
  };
  draw();
  let version = -1;
  // The server closes a feed nobody looks at (--lobby-idle): the page says
  // "here" on a person's activity (at most once a minute), and after an
  // "idle" it waits for the person to come back before connecting again.
  let idle = false;
  let feed: WebSocket | null = null;
  let saidHere = 0;
  const here = () => {
    if (!card.isConnected) {
      for (const e of activity) document.removeEventListener(e, here);
      return;
    }
    if (document.hidden) return;
    if (idle) {
      idle = false;
      connect();
    } else if (feed?.readyState === WebSocket.OPEN && Date.now() - saidHere > 60000) {
      saidHere = Date.now();
      feed.send(JSON.stringify({ type: "here" }));
    }
  };
  const activity = ["pointerdown", "keydown", "visibilitychange", "focusin"];
  for (const e of activity) document.addEventListener(e, here, { passive: true });
  const connect = () => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    feed = ws;
    ws.onmessage = (ev) => {
      if (!card.isConnected) {
        ws.close();
        return;
      } // the lobby is gone: so is its feed
      const m = JSON.parse(ev.data);
      if (m.type === "idle") {
        idle = true;
        return;
      }
      if (m.type === "lobby") {
        tables.clear();
        for (const e of m.tables as LobbyTable[]) tables.set(e.table, e);
      } else if (m.type === "lobby_change") {
        if (version >= 0 && m.version !== version + 1) {
          ws.close();
          return;
        } // a gap: start again from the list
        if (m.removed) tables.delete(m.removed);
        else tables.set(m.table.table, m.table);
      } else return;
      version = m.version;
      draw();
    };
    ws.onclose = () => {
      version = -1;
      if (card.isConnected && !idle) setTimeout(connect, 2000);
    };
  };
  connect();
  return card;
}

// What a preset is, in players' words and the user's language: its board's
// words for its options (the line games), else its family's, else its summary.
function presetAbout(g: GameInfo): string {
  const about = boardOf(g.family).about;
  if (about) return about(g.options as Record<string, unknown>);
  return hasKey("about." + g.family) ? t("about." + g.family) : g.summary;
}
