// One small interface between the table's frame (seats, scores, log,
// dialogs: table.ts) and each family's board, as src/ has a folder per game.
import type { StateMsg } from "../api";
import { h } from "../dom";
import { t } from "../i18n";
import { rulesUrl } from "../links";
import { parseTile } from "../tiles";
import type { AnyView } from "./view";

export const TILE_RE = /^(\d+)-(\d+)/;

// One score in the top bar: a name, its value, mine marked.
export function scoreChip(name: string, value: string, mine: boolean): HTMLElement {
  return h("span", { class: "score" + (mine ? " mine" : "") }, name, h("b", null, value));
}

// Tiles drawn to choose a seat (the lead, the first dealer), by seat, and
// who won the draw: { draws: "You 5|3, Seat 2 6|4, …", who: "Seat 2",
// tie: " (…the higher number…)" when another drew as many pips }.
export function drawsText(c: Ctx, draws: (string | null)[], winner: number) {
  const pips = (x: string | null) => (x ? parseTile(x).reduce((a, b) => a + b) : -1);
  const top = pips(draws[winner] ?? null);
  const tied = draws.some((x, k) => k !== winner && pips(x) === top);
  return {
    draws: draws
      .map((tile, k) => (tile ? `${c.f.seatName(c, k)} ${tile.replace("-", "|")}` : null))
      .filter((x) => x !== null)
      .join(", "),
    who: c.f.seatName(c, winner),
    tie: tied ? t("draw.tie") : "",
  };
}

// A word of the game just used at the table ("tranque", "mark"), said in
// players' words under the hand's result, with its place in the rules.
export function glossary(
  word: string,
  family: string,
  section: string,
  params: Record<string, string | number> = {},
): HTMLElement {
  return h(
    "p",
    { class: "glossary", id: "glossary" },
    t("glossary." + word, params),
    " ",
    h("a", { href: rulesUrl(family, section), target: "_blank", rel: "noopener" }, t("glossary.more")),
  );
}

// The names the frame gives seats, sides, trains, bids and moves.
export interface Frame {
  seatName(c: Ctx, k: number): string;
  sideName(c: Ctx, side: number): string;
  // The sides in the order shown: a seated partner's own side first, so
  // "Us" stays on the left when a rematch seats the person elsewhere.
  sideOrder(c: Ctx, sides: number): number[];
  trainName(c: Ctx, train: number | string, inText?: boolean): string;
  bidText(b: string): string;
  trumpName(tr: string): string;
  moveLabel(c: Ctx, mv: string): string;
  afterTiles(c: Ctx, mv: string): string;
}

export interface Ctx<V extends AnyView = AnyView> {
  msg: StateMsg;
  v: V; // the view (boards/view.ts): each board gets its own family's
  me: number | null; // my seat (null: spectator)
  n: number;
  family: string;
  teams: boolean;
  f: Frame;
  small: boolean; // a phone-sized window
  width: number; // the board's inner width in px (measured, or guessed before the first paint)
  screen: { w: number; h: number }; // the window's size in px: boards never read window themselves
}

// Where a board writes what happened between two states.
export interface LogSink {
  // cls "hand": a line no public log has (a trick taken), always said;
  // "chance": a chance outcome seen on the board (a roll), said where the
  // log has none (a game on this device: its engine settles them unseen).
  // Any other line is said only without a public log. before: a kind of the
  // public log's entries (a "roll") that this line came before, when the
  // same update carries one (a round revealed, then the next round's dice).
  push(text: string, seat: number | null, cls?: string, before?: string): void;
  bubble(seat: number | null, text: string): void;
}

// A family's own hand, when it is not "tap a tile, it is played".
export interface HandUi {
  selected: number[];
  redraw(): void;
  send(move: string): void;
}

// A family's board, typed by its view (the table calls it only with that
// family's views: the methods' parameters are checked bivariantly).
export interface Board<V extends AnyView = AnyView> {
  // Its hands are called rounds (Mexican Train's rules): the words that name
  // a hand ("End of the hand", "Hand 2 dealt") say "round" (handKey).
  roundsNotHands?: boolean;
  // Its tiles are laid face down (Dice & Dominoes): which ones is the
  // player's secret, so a log of its moves says only that tiles were laid
  // (as the server's public log does, src/server/public_log.cpp).
  laysFaceDown?: boolean;
  // Play goes clockwise (Texas 42; the spec's "Seats": the direction matters
  // only to how the table is drawn): the next seat sits on my left, not on
  // my right as in the counter-clockwise line games.
  clockwise?: boolean;
  // What the deal of hand `hand` showed everyone, said after "Hand 2 dealt"
  // in the log (Mexican Train: who placed the engine, after how many draws);
  // null when the view no longer shows it.
  // again: the same hand dealt again (a redeal), which may have a reason of its own.
  dealNote?(c: Ctx<V>, hand: number, again: boolean): string | null;
  // The order its options are set in, the game's shape first (players,
  // length, set) and house rules after; options not named follow as given.
  optionOrder?: string[];
  // The middle of the table: returns the board's children.
  draw(c: Ctx<V>): HTMLElement[];
  // Log lines for what changed from a to b (a's actor moved).
  diff(c: Ctx<V>, a: V, b: V, actor: number | null, log: LogSink): void;
  // Log lines for how the hand that just ended finished, which b, the next
  // hand's state, tells only in its last hand (placed before "The hand is over").
  handEnd?(c: Ctx<V>, b: V, log: LogSink): void;
  // The end-of-hand summary's body (the frame adds title and buttons).
  summary(c: Ctx<V>, body: HTMLElement): void;
  // The prompt when it is my turn, when the family has a special one.
  prompt?(c: Ctx<V>): string | null;
  // What another seat is doing while I wait ("Seat 2 to bid…"), when the
  // family says it otherwise than "to play".
  turnOf?(c: Ctx<V>, who: string): string | null;
  // Tiles in my hand and the buttons beside them, when not the common way.
  hand?(c: Ctx<V>, ui: HandUi, size: number, hand: HTMLElement, buttons: HTMLElement, area: HTMLElement): void;
  // Tags shown on a seat.
  seatTags?(c: Ctx<V>, k: number): HTMLElement[];

  // What the frame and the lobby ask of the family (absent: the common way),
  // so that nothing outside boards/ names a family.
  // Its seats play in two partnerships (sides are "us" and "them").
  teams?(v: V): boolean;
  // The same asked by the lobby, of a game's options before a table exists.
  partnership?(options: Record<string, string>): boolean;
  // The family's game offered with one click (quick play, quick match).
  quick?: string;
  // The winners of a game are sides (else seats).
  sideWinners?: boolean;
  // Each seat's hand (tiles when shown, count), when not the view's `hands`.
  seatHands?(v: V): { tiles?: string[] | null; count?: number }[] | undefined;
  // Its moves are never "a tile of the hand" (the hand's tiles are not keys).
  noTileMoves?: boolean;
  // The score bar's chips, when not one score per side.
  scores?(c: Ctx<V>): HTMLElement[];
  // After the scores: the target, or which way is good.
  scoreNote?(c: Ctx<V>): string | null;
  // A side's score is its seat's own, even where four seats play.
  seatScores?: boolean;
  // The hand in the top bar ("Round 3 of 13"), and its number for the log.
  handLabel?(v: V): string;
  handNumber?(v: V): number;
  // The keyboard's help under the hand, when the family has keys.
  keys?(c: Ctx<V>): string | null;
  // The question when one tile fits two places.
  whichPlace?: string;
  // A preset in the lobby, in players' words, when not its summary.
  about?(options: Record<string, unknown>): string;
  // The scores a list of tables shows, when not the view's (null: the message's).
  listScores?(v: V): number[] | null;
}

// Where the seats 0..3 after mine sit around a table of four: the next one
// on my right (counter-clockwise) or on my left (clockwise). A phone's seat
// row keeps the order of play, so at Texas 42 it reads as the table does
// (next, partner, last: left, top, right).
export function seatPlaces(b: { clockwise?: boolean }): string[] {
  return b.clockwise ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
}
