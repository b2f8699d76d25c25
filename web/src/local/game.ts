// A game against the computer on this device (docs/wasm.md, "Playing with
// no server"): the engine in a Web Worker answers as the server's seat
// connection does (api.ts's StateMsg), so the live table's controller
// (table.ts) draws it with the same views. Nothing of the rules here: the
// engine says what may be played, plays the bots, grades the review.
// The game is kept in this browser (its seed, options and every move), and
// replayed into the engine when the page opens again.
import type { GameInfo, HintAnswer, LogEntry, StateMsg, SeatInfo } from "../api";
import type { GameView } from "../boards/view";
import { Engine, EngineAnswer, EngineRequest } from "../engine/engine";
import { boardOf } from "../boards/registry";

// One game as kept in localStorage: enough to play it again move by move.
export interface LocalGame {
  game: string;
  family: string;
  options: Record<string, string>; // the options changed from the preset's
  seed: number;
  seats: string[]; // "you" or a bot level (beginner, casual, strong, expert)
  moves: [number, string][]; // every seat's move in order (chance comes from the seed)
  created: number;
}

const KEY = "boneyard.local";
export function savedLocalGame(): LocalGame | null {
  try {
    const g = JSON.parse(localStorage.getItem(KEY) || "null");
    return g && typeof g.game === "string" && Array.isArray(g.moves) && Array.isArray(g.seats) ? g : null;
  } catch {
    return null;
  }
}
// The table's id for a game: its own key for the hands seen (table.ts), so
// that a new game's first hand shows its summary.
export function localTableId(g: LocalGame): string {
  return "local" + g.seed.toString(16);
}
// A new game in place of the kept one: the old one's hands-seen key goes too.
function forgetSeen(next: LocalGame | null) {
  const old = savedLocalGame();
  if (old && (!next || old.seed !== next.seed)) localStorage.removeItem(`boneyard.seen.${localTableId(old)}.local`);
}
export function saveLocalGame(g: LocalGame) {
  forgetSeen(g);
  localStorage.setItem(KEY, JSON.stringify(g));
}
export function forgetLocalGame() {
  forgetSeen(null);
  localStorage.removeItem(KEY);
}

// A level's request: the engine plays the level itself, the same bot at the
// same fixed count as the server's level (src/bots/levels.h), so a level is
// as strong on a phone as its published rating says, only slower.
export function levelRequest(level: string): EngineRequest {
  return { cmd: "bot", bot: level };
}

// The engine's worker, started once a page and kept (its start is the
// WebAssembly's download and compile).
let shared: Engine | null = null;
export function engine(): Engine {
  if (!shared) shared = new Engine();
  return shared;
}
async function ask(req: EngineRequest): Promise<EngineAnswer> {
  const a = await engine().request(req);
  if (!a.ok) throw new Error(a.error || "the engine refused the request");
  return a;
}

// The engine's refusal of a game's options, in its words ("" when it takes
// them): asked before a new game takes the kept one's place, so a mistyped
// option is said at the form and the game in progress is not lost.
export async function refusal(game: string, options: Record<string, string>): Promise<string> {
  const a = await engine().request({ cmd: "new", game, options, seed: 1 });
  return a.ok ? "" : a.error || "the engine refused these options";
}

// The lobby's menu when no server answers: every game and preset with its
// options and catalogue, from the engine (the same as /api/games).
export async function localGames() {
  return (await ask({ cmd: "games", detail: true })).games as GameInfo[];
}

interface Handlers {
  state(m: StateMsg): void;
  error(e: string): void;
}

// The seat connection of a local game: moves in, states out.
export class LocalLink {
  readonly local = true;
  private version = 0;
  private closed = false;
  // Moves and the bots' turns, one after another: a person's move made
  // while bots think (a simultaneous turn) waits for them.
  private queue: Promise<void> = Promise.resolve();
  private timer: number | undefined;
  private on: Handlers | null = null;
  private me: number;
  // The public log, as the server keeps it: each move (and each deal after
  // a hand's end) once, sent with the next state. The table's "Last moves"
  // reads it, so a hand's last move is said even when the next deal comes
  // in the same state (a diff of the two boards lost it), and a kept game
  // replayed on opening shows its moves after a reload.
  private fresh: LogEntry[] = [];
  private hand = 1;
  private readonly faceDown: boolean;

  constructor(
    public g: LocalGame,
    private botDelay: () => number,
  ) {
    this.me = g.seats.indexOf("you");
    this.faceDown = !!boardOf(g.family).laysFaceDown;
  }

  // A move in the log, with the deal that follows a hand's end. Each is an
  // event and counts in the version, as on the server (a deal is one too):
  // the table places a hand's end between its last move and the deal.
  private logged(seat: number, move: string, r: Record<string, unknown>) {
    const n = this.version++;
    // Tiles laid face down are nobody else's to know, nor the log's.
    if (this.faceDown && move.includes("-")) this.fresh.push({ n, hand: this.hand, kind: "laid", seat, move: null });
    else this.fresh.push({ n, hand: this.hand, kind: "move", seat, move: (r.move as string) ?? move });
    const over = r.hands_over;
    if (Array.isArray(over) && over.length && !r.terminal)
      this.fresh.push({ n: this.version++, hand: (this.hand += over.length), kind: "deal", seat: null, move: null });
  }

  // Starts the game (or replays the kept one) and sends its first state.
  async open(on: Handlers) {
    this.on = on;
    let replayed = false;
    try {
      await ask({ cmd: "new", game: this.g.game, options: this.g.options, seed: this.g.seed });
      for (const [seat, move] of this.g.moves) this.logged(seat, move, await ask({ cmd: "apply", seat, move }));
      replayed = true;
      await this.publish();
    } catch (e) {
      // A kept game this engine cannot play again (kept by another version):
      // said, and not offered again.
      if (!replayed) forgetLocalGame();
      on.error(String((e as Error).message));
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
  }

  move(move: string): boolean {
    if (this.closed) return false;
    clearTimeout(this.timer); // the bots of a simultaneous turn wait for the state after it
    this.run(async () => {
      const r = await engine().request({ cmd: "apply", seat: this.me, move });
      if (!r.ok) throw new Error(r.error);
      this.played(this.me, r.move, r);
    });
    return true;
  }

  // The coach's values for my move, as the server's hint (record/review.h).
  async hint(): Promise<HintAnswer> {
    const r = await ask({ cmd: "values", seat: this.me });
    return { version: this.version, bot: r.method, unit: r.unit, moves: r.moves };
  }

  // A finished hand's graded moves, as the server's review.
  async review(hand: number, seat: number | null): Promise<Record<string, unknown>> {
    return ask({ cmd: "review", seat: seat ?? this.me, hand });
  }

  // The game record (docs/records.md) as `boneyard replay` reads it, with
  // who sat where.
  async record(): Promise<string> {
    const r = (await ask({ cmd: "record" })).record;
    r.players = this.g.seats.map((s) => (s === "you" ? "human" : "bot:" + s));
    return JSON.stringify(r, null, 1);
  }

  // Another game with the same seats and options, a new deal.
  again(): LocalGame {
    const g: LocalGame = { ...this.g, seed: newSeed(), moves: [], created: Date.now() };
    saveLocalGame(g);
    return g;
  }

  private played(seat: number, move: string, r: Record<string, unknown>) {
    this.logged(seat, move, r);
    this.g.moves.push([seat, move]);
    saveLocalGame(this.g);
  }

  private run(f: () => Promise<void>) {
    this.queue = this.queue
      .then(f)
      .then(() => this.publish())
      .catch((e) => {
        this.on?.error(String((e as Error).message));
        return this.publish();
      })
      .catch(() => {});
  }

  // This seat's state, as the server would send it (its view only: the
  // engine's view for a seat hides the others' tiles); then the bots' turn.
  private async publish() {
    clearTimeout(this.timer);
    if (this.closed) return;
    const s = await ask({ cmd: "state", seat: this.me });
    const actor = s.actor as { kind: string; seat?: number; seats?: number[] };
    const acting = actor.kind === "seat" ? [actor.seat!] : actor.kind === "simultaneous" ? actor.seats! : [];
    const toAct = acting.includes(this.me);
    const legal = toAct ? (await ask({ cmd: "legal", seat: this.me })).legal : [];
    if (this.closed) return;
    const seats: SeatInfo[] = this.g.seats.map((p, k) => ({
      seat: k,
      player: p === "you" ? "human" : "bot:" + p,
      joined: true,
      connected: true,
      autopilot: false,
    }));
    const msg: StateMsg = {
      type: "state",
      table: "local",
      game: this.g.game,
      seat: this.me,
      status: s.terminal ? "over" : "playing",
      version: this.version,
      view: s.view as GameView,
      actor,
      to_act: toAct,
      legal,
      scores: s.scores,
      hands_finished: s.hands_finished,
      seats,
      notices: [],
      returns: s.returns,
      commitment: "",
      log: this.fresh,
    };
    this.fresh = [];
    this.on?.state(msg);
    const bots = acting.filter((k) => k !== this.me);
    if (bots.length && !s.terminal) {
      // A moment between bots' moves, so that a person sees each one; a third
      // of it when a bot goes on with its own turn (as the server paces them).
      const last = this.g.moves[this.g.moves.length - 1];
      const goesOn = bots.length === 1 && last?.[0] === bots[0];
      this.timer = window.setTimeout(() => this.bots(bots), this.botDelay() / (goesOn ? 3 : 1));
    }
  }

  private bots(seats: number[]) {
    if (this.closed) return;
    this.run(async () => {
      // Only the seats still to act (a move of mine may have come first).
      const now = await ask({ cmd: "legal" }).catch(() => null);
      const acting = now?.legal_by_seat ? Object.keys(now.legal_by_seat).map(Number) : [now?.seat];
      for (const k of seats.filter((x) => acting.includes(x))) {
        const r = await ask({ ...levelRequest(this.g.seats[k]), seat: k });
        this.played(k, r.move, r);
      }
    });
  }
}

export function newSeed(): number {
  const b = new Uint32Array(1);
  crypto.getRandomValues(b);
  return b[0];
}

// The game record as a file (docs/records.md): `boneyard replay FILE` plays it back.
export async function downloadRecord(link: LocalLink) {
  const text = await link.record();
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `boneyard-${link.g.game}-${link.g.seed}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
