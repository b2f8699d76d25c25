// The table's views: pure functions of a context (Ctx: the state message,
// its view, my seat, the words) and of what the controller hands them. The
// live table (table.ts) and a replay (replay.ts) draw with the same views,
// each with its own controller. No state here, no connection, no fetch.
import { ratingTag } from "../terms";
import type { HintAnswer, StateMsg } from "../api";
import { h, clear, patch } from "../dom";
import { t, hasKey, currentLang, langPicker } from "../i18n";
import { tileFrom, tileSvg } from "../tiles";
import { gameName, rulesUrl } from "../links";
import { Ctx, scoreChip, seatPlaces, TILE_RE } from "../boards/board";
import type { AnyView } from "../boards/view";
import { boardOf } from "../boards/registry";
import { actorSeat, Ev, words } from "./words";

// The board's inner width: measured on the page, else guessed from the
// window as style.css lays the table out (the log and side seats beside it).
export class BoardSize {
  measured = 0; // the board width last measured on the page
  laid = 0; // the board width of the last drawing
  width(root: HTMLElement): number {
    const b = root.querySelector<HTMLElement>(".board");
    if (b && b.isConnected && b.clientWidth) {
      const cs = getComputedStyle(b);
      return (this.measured = b.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
    }
    if (this.measured && !root.isConnected) return this.measured; // a replay's page, out of the document a moment
    const w = window.innerWidth;
    return w - (w > 900 ? 240 + 340 : w > 700 ? 340 : 24);
  }
}

export function makeCtx(m: StateMsg, width: number): Ctx {
  const v: AnyView = m.view || {};
  const n = m.seats.length;
  const teams = !!v.family && !!boardOf(v.family).teams?.(v);
  const screen = { w: window.innerWidth, h: window.innerHeight };
  return {
    msg: m,
    v,
    me: m.seat,
    n,
    family: v.family || "",
    teams,
    f: words,
    small: screen.w < 600 || screen.h < 500,
    width,
    screen,
  };
}

// The first paint, or a new page: draw; afterwards patch what changed, so
// the nodes under a finger, the focus and the scroll stay.
export function paint(root: HTMLElement, wrap: HTMLElement) {
  const live = root.firstElementChild;
  if (live && live.classList.contains("table") && live.nodeName === wrap.nodeName && root.childElementCount === 1)
    patch(live, wrap);
  else {
    clear(root);
    root.appendChild(wrap);
  }
}

export function tableWrap(c: Ctx): HTMLElement {
  return h("div", {
    class: `table fam-${c.family || "waiting"} seats-${c.n}`,
    "data-version": c.msg.version,
    "data-status": c.msg.status,
    "data-to-act": c.msg.to_act ? "1" : "0",
  });
}

// Each seat's hand, as the family's board finds it in the view.
function seatHands(c: Ctx): { tiles?: string[] | null; count?: number }[] | undefined {
  const b = boardOf(c.family);
  return b.seatHands ? b.seatHands(c.v) : (c.v.hands as { tiles?: string[] | null; count?: number }[] | undefined);
}

// My tiles, and the moves each of them has.
export function myTiles(c: Ctx): string[] {
  if (c.me === null) return [];
  return seatHands(c)?.[c.me]?.tiles || [];
}
export function tileMoves(c: Ctx): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (boardOf(c.family).noTileMoves) return out;
  for (const mv of c.msg.legal) {
    const m = TILE_RE.exec(mv);
    if (!m) continue;
    const key = `${m[1]}-${m[2]}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push(mv);
  }
  return out;
}

// The top bar: the way back, the game and hand, the rules, the scores;
// live: what only a live table has (share, connection, sound).
export function topbar(c: Ctx, onBack: () => void, redraw: () => void, live: (HTMLElement | null)[]): HTMLElement {
  const v = c.v;
  const scores = h("div", { class: "scores" });
  const board = boardOf(c.family);
  if (c.msg.view) {
    if (board.scores) scores.append(...board.scores(c));
    else {
      const s: number[] = ("scores" in v && v.scores) || c.msg.scores || [];
      words
        .sideOrder(c, s.length)
        .forEach((side) =>
          scores.appendChild(
            scoreChip(
              words.sideName(c, side),
              String(s[side]),
              c.me !== null && (board.seatScores || !c.teams ? side === c.me : side === c.me % 2),
            ),
          ),
        );
    }
    const note = board.scoreNote?.(c);
    if (note) scores.appendChild(h("span", { class: "score target" }, note));
  }
  const hand = !v.family
    ? ""
    : board.handLabel
      ? board.handLabel(v)
      : "hand_number" in v && v.hand_number
        ? t("table.hand", { n: v.hand_number })
        : "";
  return h(
    "header",
    { class: "topbar" },
    h(
      "a",
      {
        class: "back",
        href: "/",
        onclick: (e: Event) => {
          e.preventDefault();
          onBack();
        },
        "aria-label": t("table.lobby"),
      },
      "‹ ",
      t("table.lobby"),
    ),
    h("div", { class: "title" }, h("strong", null, gameName(c.msg.game)), hand ? h("span", null, hand) : null),
    // In a new tab: the game goes on while you read.
    h(
      "a",
      {
        class: "rules-link",
        id: "table-rules",
        href: rulesUrl(c.family, c.msg.game),
        target: "_blank",
        rel: "noopener",
      },
      t("rules.short"),
    ),
    scores,
    live,
    langPicker(redraw),
  );
}

// What the seats around the table show besides their tiles.
export interface SeatsUi {
  kind(c: Ctx, k: number): string; // a person, a bot, away...
  bubbles?: Map<number, { text: string; until: number; lang: string }>;
  markBots: boolean; // a bot stays marked on a phone too (not in a replay, where the line needs the room)
  clock?(k: number): HTMLElement | null;
}

export function opponents(c: Ctx, ui: SeatsUi): HTMLElement {
  const box = h("div", { class: "opponents " + (c.me === null ? "spect" : "n" + c.n) });
  const me = c.me ?? 0;
  const actor = actorSeat(c.msg);
  const waiting: number[] = c.v.waiting_for || [];
  for (let r = c.me === null ? 0 : 1; r < c.n; r++) {
    const k = (me + r) % c.n;
    const pos = c.n === 4 && c.me !== null ? seatPlaces(boardOf(c.family))[r] : "top";
    const list = seatHands(c);
    const count: number = list?.[k]?.count ?? 0;
    const backs = h("div", { class: "backs" });
    const shown = list?.[k]?.tiles;
    if (shown && shown.length) backs.classList.add("faceup");
    if (shown && shown.length)
      for (const x of shown) backs.appendChild(tileFrom(x, { vertical: true, size: c.screen.w < 600 ? 11 : 14 }));
    else
      for (let i = 0; i < Math.min(count, 10); i++)
        backs.appendChild(tileSvg(0, 0, { vertical: true, faceDown: true, size: 11 }));
    const extra: (HTMLElement | null)[] = [];
    const turn = actor === k || waiting.includes(k);
    const bub = ui.bubbles?.get(k);
    if (bub && bub.until > Date.now() && bub.lang === currentLang())
      extra.unshift(h("span", { class: "bubble" }, bub.text));
    // A spectator reads "Team A 113" in the scores: each seat says its team
    // (partners sit across: seats k and k + 2). Not in a replay (markBots
    // off), where a phone's line needs the room.
    if (c.me === null && c.teams && ui.markBots)
      extra.push(h("span", { class: "tag team-tag" }, words.sideName(c, k % 2)));
    extra.push(...(boardOf(c.family).seatTags?.(c, k) ?? []));
    const clock = ui.clock?.(k);
    if (clock) extra.push(clock);
    box.appendChild(
      h(
        "div",
        { class: `opp pos-${pos}` + (turn ? " turn" : ""), "data-seat": k, "data-key": "seat-" + k },
        h(
          "div",
          { class: "opp-name" },
          h("span", { class: "dot " + (c.msg.seats[k]?.connected === false ? "off" : "on") }),
          words.seatName(c, k),
          c.msg.seats[k]?.rating ? " " : null,
          ratingTag(c.msg.seats[k]?.rated ?? c.msg.seats[k]?.rating), // beside the name, the new one after the end (terms.ts)
        ),
        h(
          "div",
          { class: "opp-kind" + (ui.markBots && c.msg.seats[k]?.player.startsWith("bot:") ? " bot" : "") },
          ui.kind(c, k),
        ),
        h("div", { class: "opp-tiles" }, backs, h("span", { class: "count" }, t("table.tiles", { n: count }))),
        extra.length ? h("div", { class: "tags" }, extra) : null,
      ),
    );
  }
  return box;
}

// The felt: the other seats, and the board with the last tile played marked.
export function felt(c: Ctx, ui: SeatsUi): HTMLElement {
  const board = h("div", { class: "board" }, c.msg.view ? boardOf(c.family).draw(c) : []);
  // (The hand in play's: the log may begin with the move that ended the hand before.)
  const log = c.msg.log || [];
  const hand = Math.max(0, ...log.map((e) => e.hand));
  const lastTile = [...log]
    .reverse()
    .find((e) => e.hand === hand && e.kind === "move" && e.move && TILE_RE.test(e.move));
  if (lastTile) {
    const m = TILE_RE.exec(lastTile.move!)!;
    const el = board.querySelector(`[data-tile="${m[1]}-${m[2]}"], [data-tile="${m[2]}-${m[1]}"]`);
    el?.classList.add("last");
  }
  return h("div", { class: "felt" }, opponents(c, ui), board);
}

function promptFor(c: Ctx): string {
  const special = boardOf(c.family).prompt?.(c);
  if (special) return special;
  if (c.msg.legal.length === 1 && c.msg.legal[0] === "pass") return t("table.must_pass");
  if (c.msg.legal.every((m) => !TILE_RE.test(m)) && c.msg.legal.includes("draw")) return t("table.must_draw");
  return t("table.your_turn");
}

// lost: the connection to the server is down (a move now would go nowhere).
export function turnBar(c: Ctx, extra: (HTMLElement | null)[], lost = false): HTMLElement {
  const a = actorSeat(c.msg);
  let text: string;
  if (c.msg.status === "over") text = t("table.game_over");
  else if (lost) text = t(c.msg.to_act ? "table.lost_your_turn" : "table.lost");
  else if (c.msg.to_act) text = promptFor(c);
  else if (c.v.actor === "simultaneous") text = t("dd.waiting_others");
  // Mine, though I do not act: a replay seen as my seat ("You to play…" is no sentence).
  else if (a !== null && a === c.me) text = t("table.your_turn_then");
  else if (a !== null) {
    const who = words.seatName(c, a);
    text = boardOf(c.family).turnOf?.(c, who) ?? t("table.turn_of", { who });
  } else text = t("table.dealing");
  return h(
    "div",
    {
      class: "turnbar" + (lost && c.msg.status !== "over" ? " lost" : c.msg.to_act ? " mine" : ""),
      role: "status",
      "aria-live": "polite",
    },
    text,
    extra,
  );
}

export interface Hint {
  // Asked with these legal moves in this hand: a Texas 42 bidder has the same
  // bids to choose from in the next hand, with other tiles.
  legal: string;
  hand: number;
  tiles: string; // my tiles when it was asked
  unit?: string; // the values' unit: points, wins, marks, pips, chips
  // se: the standard error of the move's gap to the first (sampled deals).
  moves: { move: string; value: number; se?: number }[];
}
// The hint for the choice of msg, or null when the answer values moves that
// are no longer mine.
export function hintOf(c: Ctx, r: HintAnswer): Hint | null {
  const msg = c.msg;
  if (!r.moves.every((m) => msg.legal.includes(m.move))) return null;
  return {
    legal: msg.legal.join("|"),
    hand: msg.hands_finished ?? 0,
    tiles: myTiles(c).join("|"),
    unit: r.unit,
    moves: r.moves,
  };
}
// A hint is shown only for the choice it was asked of: the same moves, hand
// and tiles (a deal thrown in, as when all pass at Texas 42, keeps the hand
// number and the bids to choose from, with other tiles).
export function hintHolds(hint: Hint, c: Ctx): boolean {
  const msg = c.msg;
  return (
    !!msg.to_act &&
    hint.legal === msg.legal.join("|") &&
    hint.hand === (msg.hands_finished ?? 0) &&
    hint.tiles === myTiles(c).join("|")
  );
}

// The review's and the hint's margin: a gap within 2 standard errors of the
// luck of the deal is too close to call (record/review.h, kNoiseSe).
export const NOISE_SE = 2;

// My hand and the buttons beside it, as the live table plays it.
export interface PlayUi {
  selected: number[]; // dice & dominoes: chosen tiles (indices in hand)
  focus: number; // keyboard: index among playable tiles
  hint: Hint | null;
  hintBusy: boolean;
  lost: boolean; // the connection is down: a move or a hint would go nowhere
  send(move: string): void;
  playTile(c: Ctx, tile: string): void;
  askHint(): void;
  redraw(): void;
}

// play: null where nobody plays (a spectator, a replay).
export function handArea(c: Ctx, play: PlayUi | null): HTMLElement {
  const area = h("div", { class: "hand-area" });
  if (c.me === null || !play) {
    if (play) area.appendChild(h("p", { class: "spectating" }, t("table.spectating")));
    // A replay seen as the seat who played it (?as=N): its tiles, to look at.
    else if (c.me !== null)
      area.appendChild(
        h(
          "div",
          { class: "hand", role: "list", "aria-label": t("table.your_hand") },
          myTiles(c).map((tile) =>
            h(
              "span",
              { class: "htile", role: "listitem", "data-tile": tile },
              tileFrom(tile, { vertical: true, size: c.small ? 26 : 32 }),
            ),
          ),
        ),
      );
    return area;
  }
  const buttons = h("div", { class: "actions" });
  const others = c.msg.legal.filter((m) => !TILE_RE.test(m));
  const hintBtn =
    c.msg.to_act && c.msg.legal.length > 1
      ? h(
          "button",
          { class: "action hint-btn", id: "hint", disabled: play.hintBusy || play.lost, onclick: () => play.askHint() },
          t(play.hintBusy ? "hint.thinking" : "hint.button"),
        )
      : null;
  // Among choices that are buttons (Texas 42's bids, trumps) the hint has a
  // row of its own: a player took it for one of the bids.
  const hintApart = others.length > 1;
  if (hintBtn && !hintApart) buttons.appendChild(hintBtn);
  for (const mv of others) {
    // A bid of so many points is its number (the prompt says "Your bid"):
    // fifteen "Bid 31" buttons took a phone's screen from the hand.
    const num = /^bid:(\d+)$/.exec(mv);
    buttons.appendChild(
      h(
        "button",
        {
          class: "action" + (num ? " bid-num" : ""),
          "data-move": mv,
          title: num ? words.moveLabel(c, mv) : null,
          "aria-label": num ? words.moveLabel(c, mv) : null,
          onclick: () => play.send(mv),
        },
        num ? num[1] : words.moveLabel(c, mv),
      ),
    );
  }
  const tiles = myTiles(c);
  const hand = h("div", { class: "hand", role: "list", "aria-label": t("table.your_hand") });
  // On a phone a long hand wraps to two rows rather than shrink under 26 px;
  // an upright phone's double-twelve tiles (ten to twelve pips a half) take
  // 36 px and wrap to more rows: at 26, and still at 32, a player found their
  // pips too small to count.
  const manyPips = tiles.some((x) => /\d\d/.test(x));
  const size = c.small
    ? c.screen.h < 500 || (tiles.length > 8 && !manyPips)
      ? 26
      : manyPips && c.screen.w >= 360
        ? 36
        : 32
    : tiles.length > 15
      ? 30
      : 36;
  const board = boardOf(c.family);
  if (board.hand) {
    board.hand(
      c,
      { selected: play.selected, redraw: () => play.redraw(), send: (mv) => play.send(mv) },
      size,
      hand,
      buttons,
      area,
    );
  } else {
    const moves = tileMoves(c);
    const playable = tiles.filter((x) => moves.has(x));
    const focusTile = playable[Math.min(play.focus, playable.length - 1)];
    // Tiles dim beside the playable ones only: a hand while bidding (or with
    // nothing to play) stays readable.
    const dim = c.msg.to_act && playable.length > 0;
    tiles.forEach((tile) => {
      const legal = moves.has(tile);
      hand.appendChild(
        h(
          "button",
          {
            class: "htile" + (legal ? " legal" : dim ? " dim" : "") + (legal && tile === focusTile ? " focus" : ""),
            "data-tile": tile,
            "data-key": "h-" + tile,
            role: "listitem",
            disabled: !legal,
            "aria-label": tile,
            onclick: () => play.playTile(c, tile),
          },
          tileFrom(tile, { vertical: true, size }),
        ),
      );
    });
  }
  // With the connection lost, no button offers what cannot be sent.
  if (play.lost) buttons.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
  area.appendChild(buttons);
  if (hintBtn && hintApart) area.appendChild(h("div", { class: "actions hint-row" }, hintBtn));
  if (play.hint && hintHolds(play.hint, c)) area.appendChild(hintPanel(c, play.hint, play));
  area.appendChild(hand);
  const keys = c.msg.to_act ? board.keys?.(c) : null;
  if (keys) area.appendChild(h("p", { class: "keys" }, keys));
  return area;
}

// A move in a sentence with its tiles: "5|3 on the 5 end", where the end
// alone would not say which tile.
function withTiles(c: Ctx, mv: string): string {
  const tiles = (mv.match(/\d+-\d+/g) || []).map((x) => x.replace("-", "|")).join(" ");
  const label = words.afterTiles(c, mv);
  return tiles && label !== mv ? `${tiles} ${label}` : tiles || label;
}

// A hint's unit in words: Mexican Train's values are pips gained on the
// others (higher is better), which a bare "pips" (penalty: lower wins) hid.
function hintUnit(unit: string): string {
  return hasKey("hint_unit." + unit) ? t("hint_unit." + unit) : t("unit." + unit);
}

export function hintPanel(c: Ctx, hint: Hint, play: PlayUi): HTMLElement {
  const moves = hint.moves;
  if (!moves.length) return h("p", { class: "hint-text" }, t("hint.none"));
  const best = moves[0].value,
    worst = moves[moves.length - 1].value;
  const span = best - worst || 1;
  // The moves shown whose values the sampled deals cannot tell from the
  // first's (Texas 42's bids of 31 to 35, often): said, not ranked.
  const close = (i: number) => i > 0 && !!moves[i].se && best - moves[i].value <= NOISE_SE * moves[i].se!;
  const ties = moves.slice(0, 5).filter((_, i) => close(i));
  return h(
    "div",
    { class: "hints", "aria-label": t("hint.title") },
    h(
      "span",
      { class: "hint-title" },
      t("hint.title") +
        (hint.unit && hasKey("unit." + hint.unit) ? " " + t("hint.in_unit", { unit: hintUnit(hint.unit) }) : ""),
    ),
    moves.slice(0, 5).map((m, i) => {
      // Every tile of the move (Dice & Dominoes lays two).
      const tiles = m.move.match(/\d+-\d+/g);
      const label = tiles
        ? [tiles.map((x) => tileFrom(x, { size: 18 })), /:/.test(m.move) ? " " + words.afterTiles(c, m.move) : ""]
        : [words.moveLabel(c, m.move)];
      return h(
        "button",
        {
          class: "hint" + (i === 0 ? " best" : "") + (close(i) ? " close" : ""),
          onclick: () => play.send(m.move),
          title: m.value.toFixed(3) + (m.se ? " ± " + m.se.toFixed(3) : ""),
          // Its tiles in words too: rows that differ only by the tile drawn
          // ("Left end (5)" twice) are told apart when read aloud.
          "aria-label": `${withTiles(c, m.move)}: ${m.value.toFixed(2)}`,
        },
        label,
        h("span", { class: "bar", style: `width:${Math.round(8 + (52 * (m.value - worst)) / span)}px` }),
        // The ± shown: a "too close to call" is read against it.
        h("small", null, (close(i) ? "≈ " : "") + m.value.toFixed(2) + (m.se ? " ± " + m.se.toFixed(1) : "")),
      );
    }),
    ties.length
      ? h(
          "p",
          { class: "hint-close" },
          t("hint.too_close", {
            first: withTiles(c, moves[0].move),
            moves: ties.map((m) => withTiles(c, m.move)).join(", "),
          }),
        )
      : null,
  );
}

// "Last moves": the newest first. Cut short (a phone gives it 130 px), it
// fades at the bottom until scrolled there, a sign that more lies below.
export function logPanel(all: Ev[]): HTMLElement {
  const items = all.slice(-40).reverse();
  // "fades", not "more": the train's "+N more" rule (.more: one line, small,
  // dim) took the whole log with it, cutting long lines at the screen's edge.
  const more = (el: HTMLElement) => el.classList.toggle("fades", el.scrollTop + el.clientHeight < el.scrollHeight - 2);
  const panel = h(
    "aside",
    {
      class: "log",
      tabindex: "0",
      "aria-label": t("table.last_moves"),
      onscroll: (e: Event) => more(e.currentTarget as HTMLElement),
    },
    h("h4", null, t("table.last_moves")),
    items.length
      ? h(
          "ol",
          null,
          items.map((e) => h("li", { class: e.cls || "" }, e.text)),
        )
      : h("p", { class: "muted" }, t("table.no_moves")),
  );
  // After the draw: patch() keeps the live log and drops this fresh one.
  requestAnimationFrame(() => {
    const live = panel.isConnected ? panel : document.querySelector<HTMLElement>("aside.log");
    if (live) more(live);
  });
  return panel;
}
