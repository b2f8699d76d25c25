// The table's words: seats, sides, trains, bids, trumps and moves named in
// the user's language, and the server's log entries as sentences. Pure
// functions of the context (the boards call them through Ctx.f).
import type { LogEntry, StateMsg } from "../api";
import { t, hasKey } from "../i18n";
import { Ctx, Frame } from "../boards/board";
import { boardOf, handKey } from "../boards/registry";

// A line of "Last moves"; at: the version it follows (server entries: n + 1).
export type Ev = { text: string; seat: number | null; cls?: string; at: number };

const SUITS = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"];

export function fmtNum(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) < 1 ? 2 : 1);
}

// The seat whose turn it is (null: chance, everyone at once, nobody).
export function actorSeat(m: StateMsg): number | null {
  const a = m.view?.actor;
  return typeof a === "number" ? a : null;
}

// A right-to-left name kept whole among the words around it ("علي 2" stays
// one name, its number at its end): between Unicode's first-strong isolate
// and its pop, as <bdi> does for an element.
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
export function isolate(name: string): string {
  return RTL.test(name) ? `\u2068${name}\u2069` : name;
}

function seatName(c: Ctx, k: number): string {
  if (k === c.me) return t("seat.you");
  // A person's own name (text: never markup), else where they sit.
  const name = c.msg.seats[k]?.name;
  if (name) return isolate(name);
  if (c.teams && c.me !== null && k === (c.me + 2) % 4) return t("seat.partner", { n: k + 1 });
  return t("seat.n", { n: k + 1 });
}

function sideName(c: Ctx, side: number): string {
  if (c.teams) {
    if (c.me !== null) return side === c.me % 2 ? t("side.us") : t("side.them");
    return side === 0 ? t("team.a") : t("team.b");
  }
  return seatName(c, side);
}

function sideOrder(c: Ctx, sides: number): number[] {
  const all = Array.from({ length: sides }, (_, k) => k);
  if (!c.teams || c.me === null) return all;
  const mine = c.me % 2;
  return [mine, ...all.filter((s) => s !== mine)];
}

// A label ("Your train") or, inText, words inside a sentence ("… on your train").
function trainName(c: Ctx, train: number | string, inText = false): string {
  const x = inText ? "_in_text" : "";
  if (train === "M") return t("mt.mexican" + x);
  if (train === c.me) return t("mt.your_train" + x);
  return t("mt.train_of" + x, { who: seatName(c, Number(train)) });
}

function trumpName(tr: string): string {
  // A suit may come as its number ("1": ones).
  if (/^\d$/.test(tr)) tr = SUITS[Number(tr)];
  return hasKey("trump." + tr) ? t("trump." + tr) : tr;
}

function bidText(b: string): string {
  if (b === "pass") return t("move.pass");
  let m = /^(\d+) marks$/.exec(b);
  if (m) return t("bid.marks", { n: m[1] });
  m = /^(plunge|splash) \((\d+) marks\)$/.exec(b);
  if (m) return t("bid." + m[1], { n: m[2] });
  return b;
}

function moveLabel(c: Ctx, mv: string): string {
  if (["pass", "draw", "redeal", "keep", "reroll", "end_opening"].includes(mv)) return t("move." + mv);
  let m = /^leader:(\d+)$/.exec(mv);
  if (m) return t("move.leader", { who: seatName(c, Number(m[1])) });
  m = /^bid:(\d+)$/.exec(mv);
  if (m) return t("bid.n", { n: m[1] });
  m = /^(bid|plunge|splash):(\d+)marks$/.exec(mv);
  if (m) return t(m[1] === "bid" ? "bid.marks" : "bid." + m[1], { n: m[2] });
  m = /^trump:(.+)$/.exec(mv);
  if (m) return trumpName(m[1]);
  m = /^(\d+-\d+):(L|R)$/.exec(mv);
  if (m) {
    const ends = ("ends" in c.v && c.v.ends) || ["?", "?"];
    // By the number it shows, not left or right: the line turns at the
    // table's edge, so its left end can lie on the screen's right.
    return t("move.end", { pip: m[2] === "L" ? ends[0] : ends[1] });
  }
  m = /^(\d+-\d+):(M|T(\d+))$/.exec(mv);
  if (m) return trainName(c, m[2] === "M" ? "M" : Number(m[3]));
  return mv;
}

// A move said after its tiles: "5|3 on the 5 end", "12|1 Seat 3's train".
function afterTiles(c: Ctx, mv: string): string {
  const end = /^\d+-\d+:(L|R)$/.exec(mv);
  const ends = ("ends" in c.v && c.v.ends) || ["?", "?"];
  return end ? t("move.on_end", { pip: end[1] === "L" ? ends[0] : ends[1] }) : moveLabel(c, mv);
}

export const words: Frame = { seatName, sideName, sideOrder, trainName, trumpName, bidText, moveLabel, afterTiles };

// "A bot for Alice", or for this seat "a bot for you" (lower case: mid-sentence
// words, not the seat's label "You").
function botFor(c: Ctx, k: number): string {
  return k === c.me ? t("log.bot_for_you") : t("log.bot_for", { who: seatName(c, k) });
}

// One entry of the server's public log, in words.
export function entryText(c: Ctx, e: LogEntry): Ev | null {
  // A move the takeover bot made for a person is the bot's, said so.
  const bot = e.kind === "move" ? (c.msg.bot_played || []).find((b) => b.n === e.n) : undefined;
  const at = e.n + 1,
    who = e.seat === null ? "?" : bot ? botFor(c, e.seat) : seatName(c, e.seat);
  const ev = entryEv(c, e, who, at);
  if (ev && bot) ev.text += " " + t(bot.why === "time" ? "log.why_time" : "log.why_away");
  return ev;
}

function entryEv(c: Ctx, e: LogEntry, who: string, at: number): Ev | null {
  if (e.kind === "deal") {
    // A redeal (five doubles, four passes) deals the same hand again.
    const again = (c.msg.log || []).some((x) => x.kind === "deal" && x.hand === e.hand && x.n < e.n);
    const key = again ? "log.dealt_again" : handKey(c.family, "log.new_hand");
    const note = boardOf(c.family).dealNote?.(c, e.hand, again);
    return { text: t(key, { n: e.hand }) + (note ? " · " + note : ""), seat: null, cls: "hand", at };
  }
  if (e.kind === "laid") return { text: t("log.laid_down", { who }), seat: e.seat, at };
  if (e.kind === "roll") {
    const [a, b] = (e.move || "").split(" ");
    return { text: t("log.rolled", { a, b }), seat: null, at };
  }
  if (e.kind !== "move" || !e.move) return null;
  const mv = e.move;
  const tile = /^(\d+)-(\d+)/.exec(mv);
  let text: string, cls: string | undefined;
  const train = /:(M|T(\d+))$/.exec(mv);
  if (tile && train)
    text = t("log.laid_on", {
      who,
      tile: `${tile[1]}|${tile[2]}`,
      train: trainName(c, train[1] === "M" ? "M" : Number(train[2]), true),
    });
  else if (tile) text = t("log.played", { who, tile: `${tile[1]}|${tile[2]}` });
  else if (mv === "pass") {
    text = t("log.passed", { who });
    cls = "pass";
  } else if (mv === "draw") text = t("log.drew", { who, n: 1 });
  // Said of the mover, not in the button's own words ("End my opening turn").
  else if (["redeal", "keep", "reroll", "end_opening"].includes(mv)) text = t("log." + mv, { who });
  else if (/^(bid|plunge|splash):/.test(mv))
    text = t("log.bid", { who, bid: /^bid:\d+$/.test(mv) ? mv.slice(4) : moveLabel(c, mv) });
  else if (/^trump:/.test(mv)) text = t("log.trumps", { who, trumps: moveLabel(c, mv) });
  // "Partner (seat 3) makes the salida": the choice says who, once.
  else if (/^leader:\d+$/.test(mv)) text = moveLabel(c, mv);
  else text = t("log.other", { who, move: moveLabel(c, mv) });
  return { text, seat: e.seat, cls, at };
}
