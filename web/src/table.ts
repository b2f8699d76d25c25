// A table: the seat's view drawn per family, moves sent back as text. No
// rules here: what may be played comes from the server's "legal" list.
import {
  Live,
  StateMsg,
  View,
  LogEntry,
  saveTable,
  savedTables,
  api,
  ApiError,
  Player,
  Rematch,
  myPlayer,
  saveMyPlayer,
  forgetMyPlayer,
} from "./api";
import { h, clear, patch } from "./dom";
import { t, hasKey, langPicker, currentLang } from "./i18n";
import { tileFrom, tileSvg } from "./tiles";
import { gameName, replayUrl, rulesUrl, tableUrl } from "./links";
import { Board, Ctx, Frame, TILE_RE } from "./boards/board";
import { sound, muted, setMuted, speakerIcon } from "./sound";
import { lineBoard } from "./boards/line";
import { mexicanTrainBoard } from "./boards/mexican_train";
import { texas42Board } from "./boards/texas42";
import { diceDominoesBoard } from "./boards/dice_dominoes";
import { clockTag, stampClock } from "./clock";
import { ChatBox } from "./chat";

const BOARDS: Record<string, Board> = {
  "line": lineBoard,
  "mexican-train": mexicanTrainBoard,
  "texas-42": texas42Board,
  "dice-and-dominoes": diceDominoesBoard,
};

// A table link that leads nowhere: what is wrong, and the way to the lobby.
export function badLink(root: HTMLElement, why: string, go: (url: string) => void) {
  clear(root);
  root.appendChild(
    h(
      "section",
      { class: "card bad-link", role: "alert" },
      h("h2", null, t("link.bad_title")),
      h("p", null, t(why)),
      h("button", { class: "primary", id: "to-lobby", onclick: () => go("/") }, t("link.to_lobby")),
    ),
  );
}

function fmtNum(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(Math.abs(x) < 1 ? 2 : 1);
}

// A line of "Last moves"; at: the version it follows (server entries: n + 1).
type Ev = { text: string; seat: number | null; cls?: string; at: number };

export interface ReviewMove {
  event: number;
  played: string;
  best: string;
  played_value: number;
  best_value: number;
  loss: number;
  grade: string;
  bound?: boolean;
  se?: number;
  samples?: number;
  face_up?: { best: string; loss: number; bound?: boolean };
}
export interface Review {
  hand: number;
  seat: number;
  hands_known: boolean;
  method: string;
  samples?: number;
  unit: string;
  thresholds: { good: number; inaccuracy: number; mistake: number };
  counts: Record<string, number>;
  forced: number;
  unsolved?: number;
  moves: ReviewMove[];
}

export class Table implements Frame {
  private live: Live | null = null;
  private msg: StateMsg | null = null;
  private prev: StateMsg | null = null;
  private log: Ev[] = [];
  // The server's public log as received: it sends the hand in play only, so
  // the earlier hands' entries seen here are kept (by event index).
  private served = new Map<string, LogEntry>();
  private connected = false;
  private selected: number[] = []; // dice & dominoes: chosen tiles (indices in hand)
  private focus = 0; // keyboard: index among playable tiles
  private chooser: { tile: string; moves: string[] } | null = null;
  private seenKey: string;
  private seen: number | null = null;
  private pendingClick = 0;
  private flash = "";
  private showShare = false;
  // The hint holds while my legal moves are the same (in Dice & Dominoes the
  // others lay tiles, and the version moves, while I choose).
  private hint: { legal: string; moves: { move: string; value: number }[] } | null = null;
  private hintBusy = false;
  private bubbles = new Map<number, { text: string; until: number; lang: string }>();
  private root: HTMLElement;
  private firstPaint = false;
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private resizeTimer = 0;
  private relaid = false; // drawing again for the board's measured width
  private laidWidth = 0; // the board width of the last drawing
  private measured = 0; // the board width last measured on the page
  // Sizes follow the window (a phone turned, a window resized).
  private resizeHandler = () => {
    clearTimeout(this.resizeTimer);
    this.resizeTimer = window.setTimeout(() => this.render(), 80);
  };
  private closed = false;
  private dialogFocused = false;
  private focusBefore: HTMLElement | null = null; // what had the focus when a dialog took it
  private hideOver = false; // the game-over dialog closed to see the final board
  private showLeave = false; // "leave the table?" asked
  private reviewHand: number | null = null; // the hand chosen for the review (null: the last)
  private fairness: HTMLElement | null = null; // the fairness check, once asked
  private review: {
    hand: number;
    seat: number | null;
    open: boolean;
    busy: boolean;
    data: Review | null;
    error: string;
  } | null = null;
  private naming = { busy: false, error: "", sat: false, taken: "" }; // the name typed when sitting down; taken: the one typed, when the server gave another
  private following = false; // on the way to the rematch
  private chat: ChatBox | null = null;

  // still: a replay's board (replay.ts): no connection, no input, every
  // state given by show().
  constructor(
    root: HTMLElement,
    private id: string,
    private token: string,
    private go: (url: string) => void,
    private still = false,
  ) {
    this.root = root;
    this.seenKey = "";
    window.addEventListener("resize", this.resizeHandler);
    if (still) return;
    this.seenKey = `boneyard.seen.${id}.${token.slice(0, 8)}`;
    const s = localStorage.getItem(this.seenKey);
    this.seen = s === null ? null : Number(s);
    clear(root);
    root.appendChild(h("div", { class: "loading" }, t("table.connecting")));
    const ek = `boneyard.entropy.${id}.${token.slice(0, 8)}`;
    let entropy = localStorage.getItem(ek);
    if (!entropy) {
      const b = new Uint8Array(16);
      crypto.getRandomValues(b);
      entropy = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(ek, entropy);
    }
    // Ask once over HTTP: an unknown table or a wrong key is said at once,
    // not left on "Connecting…" while the socket retries.
    api.state(id, token).then(
      (m) => {
        if (!this.msg && !this.closed) this.onState(m);
      },
      (e) => {
        if (this.closed || !(e instanceof ApiError) || e.status === 429 || e.status >= 500) return;
        this.close();
        badLink(root, e.status === 404 ? "link.no_table" : e.status === 403 ? "link.bad_key" : "link.damaged", go);
      },
    );
    this.chat = new ChatBox(
      id,
      token,
      (e) => this.onError(e),
      () => this.render(),
      (line) => this.live?.chat(line) ?? false,
    );
    this.live = new Live(
      id,
      token,
      (m) => this.onState(m),
      (c) => {
        this.connected = c;
        this.render();
      },
      (e) => this.onError(e),
      entropy,
    );
    document.addEventListener("keydown", this.keyHandler);
  }

  close() {
    this.closed = true; // a closing socket or a timer must not draw over the next page
    this.live?.close();
    document.removeEventListener("keydown", this.keyHandler);
    window.removeEventListener("resize", this.resizeHandler);
  }

  private onError(e: string) {
    this.flash = e;
    this.render();
    setTimeout(() => {
      if (this.flash === e) {
        this.flash = "";
        this.render();
      }
    }, 4000);
  }

  private onState(m: StateMsg) {
    if (this.msg && m.version < this.msg.version && m.status === this.msg.status) return;
    this.prev = this.msg;
    this.msg = m;
    stampClock(m);
    // A sound for what is new since the last state (none for the history a page opens on).
    const fresh = this.prev ? (m.log || []).filter((e) => !this.served.has(`${e.n}:${e.kind}`)) : [];
    for (const e of m.log || []) this.served.set(`${e.n}:${e.kind}`, e);
    const last = fresh.filter((e) => e.kind === "move" || e.kind === "laid").pop();
    if (this.prev && (m.hands_finished ?? 0) > (this.prev.hands_finished ?? 0)) sound("hand");
    else if (last && !this.still) sound(last.move === "pass" ? "pass" : last.move === "draw" ? "draw" : "play");
    if (this.served.size > 200)
      for (const k of [...this.served.keys()].slice(0, this.served.size - 200)) this.served.delete(k);
    if (this.prev) this.diff(this.prev, m);
    if (this.seen === null && m.hands_finished !== undefined) this.setSeen(m.hands_finished);
    if (!this.prev) {
      const mine = savedTables().find((x) => x.id === this.id && x.token === this.token);
      saveTable({
        id: this.id,
        token: this.token,
        game: m.game,
        seat: m.seat ?? -1,
        created: mine?.created ?? Date.now(),
        invites: mine?.invites ?? {},
        spectate: mine?.spectate ?? "",
      });
    }
    if (!m.to_act) {
      this.chooser = null;
      this.selected = [];
    }
    if (this.people(m)) return;
    this.render();
    if (this.pendingClick && this.prev && m.version > this.prev.version) {
      (window as unknown as Record<string, number>).__lastMoveMs = performance.now() - this.pendingClick;
      this.pendingClick = 0;
    }
  }

  // Draws again when the board's width is not the one it was laid out for
  // (a replay shows its step before its page is in the document).
  fit() {
    if (this.msg && Math.abs(this.boardWidth() - this.laidWidth) > 1) this.render();
  }

  // A replay's step (still tables only).
  show(m: StateMsg) {
    this.msg = m;
    this.render();
  }

  private setSeen(n: number) {
    this.seen = n;
    localStorage.setItem(this.seenKey, String(n));
  }

  private send(move: string) {
    this.pendingClick = performance.now();
    this.chooser = null;
    this.selected = [];
    if (!this.live?.move(move)) this.onError(t("table.offline"));
  }

  // ----------------------------------------------------------- names

  private ctx(): Ctx {
    const m = this.msg!;
    const v = m.view || {};
    const n = m.seats.length;
    const teams =
      v.family === "texas-42" ||
      (v.family === "line" && Array.isArray(v.hands) && v.hands.some((x: View) => x.side !== x.seat));
    return {
      msg: m,
      v,
      me: m.seat,
      n,
      family: v.family || "",
      teams,
      f: this,
      small: window.innerWidth < 600 || window.innerHeight < 500,
      width: this.boardWidth(),
    };
  }

  // The board's inner width: measured on the page, else guessed from the
  // window as style.css lays the table out (the log and side seats beside it).
  private boardWidth(): number {
    const b = this.root.querySelector<HTMLElement>(".board");
    if (b && b.isConnected && b.clientWidth) {
      const cs = getComputedStyle(b);
      return (this.measured = b.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
    }
    if (this.measured && !this.root.isConnected) return this.measured; // a replay's page, out of the document a moment
    const w = window.innerWidth;
    return w - (w > 900 ? 240 + 340 : w > 700 ? 340 : 24);
  }

  seatName(c: Ctx, k: number): string {
    if (k === c.me) return t("seat.you");
    // A person's own name (text: never markup), else where they sit.
    const name = c.msg.seats[k]?.name;
    if (name) return name;
    if (c.teams && c.me !== null && k === (c.me + 2) % 4) return t("seat.partner", { n: k + 1 });
    return t("seat.n", { n: k + 1 });
  }

  private seatKind(c: Ctx, k: number): string {
    const s = c.msg.seats[k];
    if (!s) return "";
    if (s.player.startsWith("bot:")) return t("bot." + s.player.slice(4));
    if (this.still && s.player !== "human") return s.player; // a record's own player names (bots by name)
    if (s.autopilot) return t("seat.autopilot");
    if (!s.joined) return t("seat.not_joined");
    if (!s.connected) return t("seat.away");
    return t("seat.person");
  }

  sideName(c: Ctx, side: number): string {
    if (c.family === "texas-42" || (c.family === "line" && c.teams)) {
      if (c.me !== null) return side === c.me % 2 ? t("side.us") : t("side.them");
      return side === 0 ? t("team.a") : t("team.b");
    }
    return this.seatName(c, side);
  }

  private actorSeat(m: StateMsg): number | null {
    const a = m.view?.actor;
    return typeof a === "number" ? a : null;
  }

  // ----------------------------------------------------------- people

  // A state's people: the rematch to follow, this browser's player to seat.
  // True when the page leaves for the rematch.
  private people(m: StateMsg): boolean {
    if (this.still || this.closed) return false;
    if (m.rematch && m.status === "over" && !this.following) {
      this.follow(m.rematch);
      return true;
    }
    const mine = m.seat === null ? null : m.seats[m.seat];
    const me = myPlayer();
    if (mine && !mine.name && me && !this.naming.sat) this.sitAs(me);
    return false;
  }

  // Everyone at a finished table moves to its rematch, each with their own link.
  private follow(r: Rematch) {
    this.following = true;
    this.close();
    this.go(tableUrl(r.table, r.token));
  }

  private async playAgain() {
    try {
      this.follow(await api.rematch(this.id, this.token));
    } catch (e) {
      this.onError(String((e as Error).message));
    }
  }

  private async sitAs(p: Player) {
    this.naming.sat = true;
    try {
      await api.join(this.id, this.token, p.key);
      this.naming.error = "";
    } catch (e) {
      this.naming.sat = false;
      // A key this server does not know: the name is asked again.
      if (e instanceof ApiError && e.status === 403) forgetMyPlayer();
      this.naming.error = String((e as Error).message);
    }
    this.render();
  }

  private async saveName(name: string) {
    if (this.naming.busy) return;
    this.naming.busy = true;
    this.naming.error = "";
    this.render();
    try {
      const p = await api.createPlayer(name);
      // A taken name gets a suffix ("Ann 2"): said, so the person knows
      // why the seat shows another name than the one typed.
      this.naming.taken = p.name !== name.trim() ? name.trim() : "";
      saveMyPlayer(p);
      await this.sitAs(p);
    } catch (e) {
      this.naming.error = String((e as Error).message);
    }
    this.naming.busy = false;
    this.render();
  }

  // Sitting down: a name is asked once per browser (then remembered);
  // afterwards the seat shows whose it is.
  private nameBar(c: Ctx): HTMLElement | null {
    if (this.still || c.me === null) return null;
    const name = c.msg.seats[c.me]?.name;
    if (name)
      return h(
        "p",
        { class: "my-name", id: "my-name" },
        t("name.playing_as", { name }),
        this.naming.taken
          ? h("span", { class: "muted name-taken" }, " ", t("name.taken", { typed: this.naming.taken }))
          : null,
      );
    if (c.msg.status === "over") return null; // a finished game's names stay as they were
    if (myPlayer() && this.naming.sat && !this.naming.error) return null;
    const input = h("input", {
      id: "name-input",
      name: "name",
      maxlength: "32",
      autocomplete: "nickname",
      required: true,
      "aria-label": t("name.label"),
    }) as HTMLInputElement;
    return h(
      "form",
      {
        class: "name-bar",
        id: "name-form",
        onsubmit: (e: Event) => {
          e.preventDefault();
          const field = document.getElementById("name-input") as HTMLInputElement | null;
          this.saveName((field ?? input).value);
        },
      },
      h("label", { for: "name-input" }, t("name.label")),
      input,
      h("button", { class: "small", id: "name-save", type: "submit", disabled: this.naming.busy }, t("name.save")),
      this.naming.error ? h("span", { class: "error", role: "alert" }, this.naming.error) : null,
    );
  }

  // ----------------------------------------------------------- the log

  private bubble(seat: number | null, text: string) {
    if (seat === null) return;
    this.bubbles.set(seat, { text, until: Date.now() + 2500, lang: currentLang() });
    setTimeout(() => this.render(), 2600);
  }

  private push(text: string, seat: number | null, cls?: string) {
    this.log.push({ text, seat, cls, at: this.msg?.version ?? 0 });
    if (this.log.length > 60) this.log.splice(0, this.log.length - 60);
  }

  // One entry of the server's public log, in words.
  private entryText(c: Ctx, e: LogEntry): Ev | null {
    const at = e.n + 1,
      who = e.seat === null ? "?" : this.seatName(c, e.seat);
    if (e.kind === "deal") return { text: t("log.new_hand", { n: e.hand }), seat: null, cls: "hand", at };
    if (e.kind === "laid") return { text: t("log.laid_down", { who }), seat: e.seat, at };
    if (e.kind === "roll") {
      const [a, b] = (e.move || "").split(" ");
      return { text: t("log.rolled", { a, b }), seat: null, at };
    }
    if (e.kind !== "move" || !e.move) return null;
    const mv = e.move;
    const tile = /^(\d+)-(\d+)/.exec(mv);
    let text: string, cls: string | undefined;
    if (tile && /:(M|T\d+)$/.test(mv))
      text = t("log.laid_on", { who, tile: `${tile[1]}|${tile[2]}`, train: this.moveLabel(c, mv) });
    else if (tile) text = t("log.played", { who, tile: `${tile[1]}|${tile[2]}` });
    else if (mv === "pass") {
      text = t("log.passed", { who });
      cls = "pass";
    } else if (mv === "draw") text = t("log.drew", { who, n: 1 });
    else if (/^(bid|plunge|splash):/.test(mv))
      text = t("log.bid", { who, bid: /^bid:\d+$/.test(mv) ? mv.slice(4) : this.moveLabel(c, mv) });
    else if (/^trump:/.test(mv)) text = t("log.trumps", { who, trumps: this.moveLabel(c, mv) });
    else text = t("log.other", { who, move: this.moveLabel(c, mv) });
    return { text, seat: e.seat, cls, at };
  }

  private diff(a: StateMsg, b: StateMsg) {
    const c = this.ctx();
    // Presence: bots taking over for someone away, and people coming back.
    b.seats.forEach((s, k) => {
      const o = a.seats[k];
      if (!o) return;
      if (!o.autopilot && s.autopilot) this.push(t("log.autopilot_on", { who: this.seatName(c, k) }), k, "notice");
      if (o.autopilot && !s.autopilot) this.push(t("log.autopilot_off", { who: this.seatName(c, k) }), k, "notice");
      else if (o.connected && !s.connected && !s.player.startsWith("bot"))
        this.push(t("log.disconnected", { who: this.seatName(c, k) }), k, "notice");
      if (!o.joined && s.joined && k !== c.me) this.push(t("log.joined", { who: this.seatName(c, k) }), k, "notice");
    });
    const pv = a.view,
      v = b.view;
    if (!pv || !v) return;
    const who = (k: number | null) => (k === null ? "?" : this.seatName(c, k));
    const actor = this.actorSeat(a);
    // With the server's public log, moves come from it; the boards add only
    // what they work out (a trick's winner, a round revealed).
    const served = Array.isArray(b.log);
    if (!served && (v.hand_number ?? v.round) !== (pv.hand_number ?? pv.round))
      this.push(t("log.new_hand", { n: v.hand_number ?? v.round }), null, "hand");
    const board = BOARDS[c.family];
    if (board)
      board.diff(c, pv, v, actor, {
        push: (x, k, cls) => {
          if (!served || cls === "hand") this.push(x, k, cls);
        },
        bubble: (k, x) => this.bubble(k, x),
      });
    // A hand's end, placed before the next hand's deal (the deal is at n + 1).
    if ((b.hands_finished ?? 0) > (a.hands_finished ?? 0)) {
      const deal = (b.log || []).find((e) => e.kind === "deal" && e.n >= a.version);
      this.log.push({ text: t("log.hand_over"), seat: null, cls: "hand", at: deal ? deal.n : b.version });
    }
  }

  // ----------------------------------------------------------- words

  trainName(c: Ctx, train: number | string): string {
    if (train === "M") return t("mt.mexican");
    if (train === c.me) return t("mt.your_train");
    return t("mt.train_of", { who: this.seatName(c, Number(train)) });
  }

  trumpName(tr: string): string {
    // A suit may come as its number ("1": ones).
    if (/^\d$/.test(tr)) tr = ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"][Number(tr)];
    return hasKey("trump." + tr) ? t("trump." + tr) : tr;
  }

  bidText(b: string): string {
    if (b === "pass") return t("move.pass");
    let m = /^(\d+) marks$/.exec(b);
    if (m) return t("bid.marks", { n: m[1] });
    m = /^(plunge|splash) \((\d+) marks\)$/.exec(b);
    if (m) return t("bid." + m[1], { n: m[2] });
    return b;
  }

  moveLabel(c: Ctx, mv: string): string {
    if (["pass", "draw", "redeal", "keep", "reroll", "end_opening"].includes(mv)) return t("move." + mv);
    let m = /^leader:(\d+)$/.exec(mv);
    if (m) return t("move.leader", { who: this.seatName(c, Number(m[1])) });
    m = /^bid:(\d+)$/.exec(mv);
    if (m) return t("bid.n", { n: m[1] });
    m = /^(bid|plunge|splash):(\d+)marks$/.exec(mv);
    if (m) return t(m[1] === "bid" ? "bid.marks" : "bid." + m[1], { n: m[2] });
    m = /^trump:(.+)$/.exec(mv);
    if (m)
      return this.trumpName(
        /^\d$/.test(m[1]) ? ["blanks", "ones", "twos", "threes", "fours", "fives", "sixes"][Number(m[1])] : m[1],
      );
    m = /^(\d+-\d+):(L|R)$/.exec(mv);
    if (m) {
      const ends = c.v.ends || ["?", "?"];
      return t(m[2] === "L" ? "move.left_end" : "move.right_end", { pip: m[2] === "L" ? ends[0] : ends[1] });
    }
    m = /^(\d+-\d+):(M|T(\d+))$/.exec(mv);
    if (m) return this.trainName(c, m[2] === "M" ? "M" : Number(m[3]));
    return mv;
  }

  // ----------------------------------------------------------- input

  private tileMoves(c: Ctx): Map<string, string[]> {
    const out = new Map<string, string[]>();
    if (c.family === "dice-and-dominoes") return out;
    for (const mv of c.msg.legal) {
      const m = TILE_RE.exec(mv);
      if (!m) continue;
      const key = `${m[1]}-${m[2]}`;
      if (!out.has(key)) out.set(key, []);
      out.get(key)!.push(mv);
    }
    return out;
  }

  private playTile(c: Ctx, tile: string) {
    const moves = this.tileMoves(c).get(tile);
    if (!moves || !moves.length) return;
    if (moves.length === 1) this.send(moves[0]);
    else {
      this.chooser = { tile, moves };
      this.render();
    }
  }

  // A dialog over the table (a hand's summary, the game's end, the links):
  // while it is open the keys belong to it, never to the hand behind it.
  private dialogOpen(): boolean {
    const m = this.msg;
    if (!m || this.still) return false;
    return (
      this.showShare ||
      this.showLeave ||
      (m.status === "over" && !this.hideOver) ||
      (m.status !== "over" && this.seen !== null && (m.hands_finished ?? 0) > this.seen)
    );
  }

  private onKey(e: KeyboardEvent) {
    if (this.dialogOpen()) {
      if (e.key === "Escape" && (this.showShare || this.showLeave)) {
        this.showShare = this.showLeave = false;
        this.render();
      }
      return;
    }
    if (!this.msg || !this.msg.to_act) return;
    const tgt = e.target as HTMLElement;
    if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA")) return;
    const c = this.ctx();
    if (this.chooser) {
      const k = e.key.toLowerCase();
      const pick = this.chooser.moves.find((mv) =>
        k === "l" || k === "arrowleft"
          ? mv.endsWith(":L")
          : k === "r" || k === "arrowright"
            ? mv.endsWith(":R")
            : false,
      );
      if (pick) {
        e.preventDefault();
        this.send(pick);
      } else if (/^[1-9]$/.test(k) && this.chooser.moves[Number(k) - 1]) {
        e.preventDefault();
        this.send(this.chooser.moves[Number(k) - 1]);
      } else if (k === "escape") {
        this.chooser = null;
        this.render();
      }
      return;
    }
    const playable = [...this.tileMoves(c).keys()];
    const hand: string[] = this.myTiles(c).filter((x) => playable.includes(x));
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!hand.length) return;
      e.preventDefault();
      this.focus = (this.focus + (e.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
      this.render();
    } else if ((e.key === "Enter" || e.key === " ") && hand.length) {
      e.preventDefault();
      this.playTile(c, hand[Math.min(this.focus, hand.length - 1)]);
    } else if (/^[1-9]$/.test(e.key) && hand[Number(e.key) - 1]) {
      e.preventDefault();
      this.playTile(c, hand[Number(e.key) - 1]);
    } else if (e.key === "p" && c.msg.legal.includes("pass")) {
      e.preventDefault();
      this.send("pass");
    } else if (e.key === "d" && c.msg.legal.includes("draw")) {
      e.preventDefault();
      this.send("draw");
    }
  }

  private myTiles(c: Ctx): string[] {
    if (c.me === null) return [];
    const list = c.family === "dice-and-dominoes" ? c.v.players : c.v.hands;
    return (list && list[c.me] && list[c.me].tiles) || [];
  }

  // ----------------------------------------------------------- drawing

  render() {
    if (!this.msg || this.closed) return;
    const c = this.ctx();
    this.laidWidth = c.width;
    const wrap = this.build(c);
    const live = this.root.firstElementChild;
    // The first paint, or a new page: draw; afterwards patch what changed, so
    // the nodes under a finger, the focus and the scroll stay.
    if (
      live &&
      live.classList.contains("table") &&
      live.nodeName === wrap.nodeName &&
      this.root.childElementCount === 1
    )
      patch(live, wrap);
    else {
      clear(this.root);
      this.root.appendChild(wrap);
    }
    // The board lays its tiles out for the width it was given: once the page
    // shows another (the first paint guessed, the layout moved), again.
    if (!this.relaid && Math.abs(this.boardWidth() - c.width) > 1) {
      this.relaid = true;
      this.render();
      this.relaid = false;
      return;
    }
    // A dialog that just opened takes the focus, so Enter answers it.
    // Once it closes, the focus goes back where it was (the log, a tile).
    const dlg = this.root.querySelector<HTMLElement>(".overlay .dialog");
    if (dlg && !this.dialogFocused && !dlg.contains(document.activeElement)) {
      this.focusBefore = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dlg.querySelector<HTMLElement>("button.primary, button")?.focus();
    }
    if (!dlg && this.dialogFocused) {
      if (this.focusBefore?.isConnected && !this.root.contains(document.activeElement)) this.focusBefore.focus();
      this.focusBefore = null;
    }
    this.dialogFocused = !!dlg;
    if (!this.firstPaint) {
      this.firstPaint = true;
      (window as unknown as Record<string, number>).__firstTablePaint = performance.now();
    }
  }

  private build(c: Ctx): HTMLElement {
    const wrap = h("div", {
      class: `table fam-${c.family || "waiting"} seats-${c.n}`,
      "data-version": c.msg.version,
      "data-status": c.msg.status,
      "data-to-act": c.msg.to_act ? "1" : "0",
    });
    const top = this.topbar(c);
    const nb = this.nameBar(c); // in the top bar: the table's grid stays as it is
    if (nb) top.appendChild(nb);
    wrap.appendChild(top);
    if (this.flash) wrap.appendChild(h("div", { class: "flash", role: "alert" }, this.flash));
    if (c.msg.status === "broken") {
      wrap.appendChild(h("div", { class: "card" }, t("table.broken"), " ", c.msg.error || ""));
      return wrap;
    }
    if (c.msg.status === "waiting" || !c.msg.view) {
      wrap.appendChild(this.waiting(c));
      return wrap;
    }
    const felt = h("div", { class: "felt" });
    wrap.appendChild(felt);
    felt.appendChild(this.opponents(c));
    const board = h("div", { class: "board" }, BOARDS[c.family]?.draw(c));
    felt.appendChild(board);
    // The last tile played, marked where it lies.
    const lastTile = [...(c.msg.log || [])].reverse().find((e) => e.kind === "move" && e.move && TILE_RE.test(e.move));
    if (lastTile) {
      const m = TILE_RE.exec(lastTile.move!)!;
      const el = board.querySelector(`[data-tile="${m[1]}-${m[2]}"], [data-tile="${m[2]}-${m[1]}"]`);
      el?.classList.add("last");
    }
    wrap.appendChild(this.turnBar(c));
    wrap.appendChild(this.handArea(c));
    wrap.appendChild(this.logPanel(c));
    if (this.chat) wrap.appendChild(this.chat.build(c.msg, (k) => this.seatName(c, k)));
    if (this.chooser) wrap.appendChild(this.chooserDialog(c));
    if (this.showShare) wrap.appendChild(this.shareDialog(c));
    const hf = c.msg.hands_finished ?? 0;
    if (this.still) return wrap;
    if (this.showLeave) wrap.appendChild(this.leaveDialog());
    if (c.msg.status === "over") {
      if (!this.hideOver) wrap.appendChild(this.summary(c, true));
    } else if (this.seen !== null && hf > this.seen) wrap.appendChild(this.summary(c, false));
    return wrap;
  }

  private topbar(c: Ctx): HTMLElement {
    const v = c.v || {};
    const scores = h("div", { class: "scores" });
    if (c.msg.view) {
      if (c.family === "dice-and-dominoes") {
        v.players.forEach((p: View, k: number) =>
          scores.appendChild(this.scoreChip(c, this.seatName(c, k), (p.chips > 0 ? "+" : "") + p.chips, k === c.me)),
        );
        scores.appendChild(h("span", { class: "score pot" }, t("dd.pot"), h("b", null, v.pot)));
      } else {
        const s: number[] = v.scores || c.msg.scores || [];
        s.forEach((x, side) =>
          scores.appendChild(
            this.scoreChip(
              c,
              this.sideName(c, side),
              String(x),
              c.me !== null && (c.family === "mexican-train" || !c.teams ? side === c.me : side === c.me % 2),
            ),
          ),
        );
        if (v.target) scores.appendChild(h("span", { class: "score target" }, t("table.target", { n: v.target })));
        if (c.family === "mexican-train") scores.appendChild(h("span", { class: "score target" }, t("mt.lowest_wins")));
      }
    }
    const hand =
      c.family === "mexican-train"
        ? t("table.round", { n: v.round, of: v.rounds })
        : c.family === "dice-and-dominoes"
          ? t("table.hand_of", { n: v.hand_number, of: v.hands })
          : v.hand_number
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
            this.leave(c);
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
      this.still
        ? null
        : this.shareLinks(c).length
          ? h(
              "button",
              {
                class: "share-btn",
                onclick: () => {
                  this.showShare = true;
                  this.render();
                },
              },
              t("table.share"),
            )
          : null,
      this.still
        ? null
        : h(
            "span",
            {
              class: "conn " + (this.connected ? "on" : "off"),
              title: t(this.connected ? "table.online" : "table.offline"),
            },
            t(this.connected ? "table.online" : "table.offline"),
          ),
      this.still
        ? null
        : h(
            "button",
            {
              class: "mute",
              id: "mute",
              "aria-pressed": muted() ? "true" : "false",
              title: t(muted() ? "sound.off" : "sound.on"),
              "aria-label": t(muted() ? "sound.off" : "sound.on"),
              onclick: () => {
                setMuted(!muted());
                this.render();
              },
            },
            speakerIcon(muted()),
          ),
      langPicker(() => this.render()),
    );
  }

  // Leaving a game in play: a bot takes the seat after a while; say so first.
  private leave(c: Ctx) {
    if (this.still || c.me === null || c.msg.status !== "playing") {
      this.close();
      this.go("/");
      return;
    }
    this.showLeave = true;
    this.render();
  }

  private leaveDialog(): HTMLElement {
    const stay = () => {
      this.showLeave = false;
      this.render();
    };
    return h(
      "div",
      {
        class: "overlay",
        onclick: (e: Event) => {
          if (e.target === e.currentTarget) stay();
        },
      },
      h(
        "div",
        { class: "dialog leave", role: "dialog", "aria-modal": "true" },
        h("h3", null, t("leave.title")),
        h("p", null, t("leave.text")),
        h(
          "div",
          { class: "choices" },
          h("button", { class: "primary", id: "leave-stay", onclick: stay }, t("leave.stay")),
          h(
            "button",
            {
              class: "action",
              id: "leave-go",
              onclick: () => {
                this.close();
                this.go("/");
              },
            },
            t("leave.go"),
          ),
        ),
      ),
    );
  }

  private scoreChip(_c: Ctx, name: string, value: string, mine: boolean) {
    return h("span", { class: "score" + (mine ? " mine" : "") }, name, h("b", null, value));
  }

  private shareLinks(c: Ctx): [string, string, string][] {
    const saved = savedTables().find((x) => x.id === this.id && x.token === this.token);
    if (!saved) return [];
    const out: [string, string, string][] = [];
    for (const k of Object.keys(saved.invites || {}))
      out.push([
        t("table.invite_for", { who: this.seatName(c, Number(k)) }),
        tableUrl(this.id, saved.invites[k], true),
        "invite-" + k,
      ]);
    if (saved.spectate) out.push([t("table.spectate_link"), tableUrl(this.id, saved.spectate, true), "spectate"]);
    return out;
  }

  private shareDialog(c: Ctx): HTMLElement {
    const close = () => {
      this.showShare = false;
      this.render();
    };
    return h(
      "div",
      {
        class: "overlay",
        onclick: (e: Event) => {
          if (e.target === e.currentTarget) close();
        },
      },
      h(
        "div",
        { class: "dialog", role: "dialog", "aria-modal": "true" },
        h("h3", null, t("table.share_title")),
        this.shareLinks(c).map(([label, url, id]) => this.linkRow(label, url, "share-" + id)),
        h("div", { class: "choices" }, h("button", { class: "primary", onclick: close }, t("common.close"))),
      ),
    );
  }

  private waiting(c: Ctx): HTMLElement {
    const saved = savedTables().find((x) => x.id === this.id && x.token === this.token);
    const box = h("section", { class: "card waiting" }, h("h2", null, t("table.waiting")));
    const missing = c.msg.waiting_for || [];
    box.appendChild(h("p", null, t("table.waiting_for", { who: missing.map((k) => this.seatName(c, k)).join(", ") })));
    const invites = saved?.invites || {};
    for (const k of Object.keys(invites))
      if (missing.includes(Number(k)))
        box.appendChild(
          this.linkRow(
            t("table.invite_for", { who: t("seat.n", { n: Number(k) + 1 }) }),
            tableUrl(this.id, invites[k], true),
            "invite-" + k,
          ),
        );
    if (saved?.spectate)
      box.appendChild(this.linkRow(t("table.spectate_link"), tableUrl(this.id, saved.spectate, true), "spectate"));
    return box;
  }

  private linkRow(label: string, url: string, id: string): HTMLElement {
    const input = h("input", {
      readonly: true,
      value: url,
      id: "link-" + id,
      onclick: (e: Event) => (e.target as HTMLInputElement).select(),
    }) as HTMLInputElement;
    const btn = h(
      "button",
      {
        // The live nodes, not these: an update patches the page in place.
        class: "small",
        onclick: async (e: Event) => {
          const b = e.currentTarget as HTMLElement,
            field = document.getElementById("link-" + id) as HTMLInputElement | null;
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            field?.select();
            document.execCommand("copy");
          }
          b.textContent = t("table.copied");
        },
      },
      t("table.copy"),
    );
    return h(
      "div",
      { class: "link-row" },
      h("label", { for: "link-" + id }, label),
      h("div", { class: "link-input" }, input, btn),
    );
  }

  private opponents(c: Ctx): HTMLElement {
    const box = h("div", { class: "opponents " + (c.me === null ? "spect" : "n" + c.n) });
    const me = c.me ?? 0;
    const actor = this.actorSeat(c.msg);
    const waiting: number[] = c.v.waiting_for || [];
    for (let r = c.me === null ? 0 : 1; r < c.n; r++) {
      const k = (me + r) % c.n;
      const pos = c.n === 4 && c.me !== null ? ["", "right", "top", "left"][r] : "top";
      const list = c.family === "dice-and-dominoes" ? c.v.players : c.v.hands;
      const count: number = list?.[k]?.count ?? 0;
      const backs = h("div", { class: "backs" });
      const shown: string[] | undefined = list?.[k]?.tiles;
      if (shown && shown.length) backs.classList.add("faceup");
      if (shown && shown.length)
        for (const x of shown)
          backs.appendChild(tileFrom(x, { vertical: true, size: window.innerWidth < 600 ? 11 : 14 }));
      else
        for (let i = 0; i < Math.min(count, 10); i++)
          backs.appendChild(tileSvg(0, 0, { vertical: true, faceDown: true, size: 11 }));
      const extra: (HTMLElement | null)[] = [];
      const turn = actor === k || waiting.includes(k);
      const bub = this.bubbles.get(k);
      if (bub && bub.until > Date.now() && bub.lang === currentLang())
        extra.unshift(h("span", { class: "bubble" }, bub.text));
      extra.push(...(BOARDS[c.family]?.seatTags?.(c, k) ?? []));
      const clock = clockTag(c.msg, k);
      if (clock) extra.push(clock);
      box.appendChild(
        h(
          "div",
          { class: `opp pos-${pos}` + (turn ? " turn" : ""), "data-seat": k, "data-key": "seat-" + k },
          h(
            "div",
            { class: "opp-name" },
            h("span", { class: "dot " + (c.msg.seats[k]?.connected === false ? "off" : "on") }),
            this.seatName(c, k),
          ),
          // At a live table a bot stays marked on a phone too (not in a replay, where the line needs the room).
          h(
            "div",
            { class: "opp-kind" + (!this.still && c.msg.seats[k]?.player.startsWith("bot:") ? " bot" : "") },
            this.seatKind(c, k),
          ),
          h("div", { class: "opp-tiles" }, backs, h("span", { class: "count" }, t("table.tiles", { n: count }))),
          extra.length ? h("div", { class: "tags" }, extra) : null,
        ),
      );
    }
    return box;
  }

  private turnBar(c: Ctx): HTMLElement {
    const a = this.actorSeat(c.msg);
    let text: string;
    if (c.msg.status === "over") text = t("table.game_over");
    else if (c.msg.to_act) text = this.promptFor(c);
    else if (c.v.actor === "simultaneous") text = t("dd.waiting_others");
    else if (a !== null) text = t("table.turn_of", { who: this.seatName(c, a) });
    else text = t("table.dealing");
    return h(
      "div",
      { class: "turnbar" + (c.msg.to_act ? " mine" : ""), role: "status", "aria-live": "polite" },
      text,
      c.me !== null && !this.still ? clockTag(c.msg, c.me) : null,
      c.msg.status === "over" && this.hideOver && !this.still
        ? h(
            "button",
            {
              class: "action small",
              id: "show-result",
              onclick: () => {
                this.hideOver = false;
                this.render();
              },
            },
            t("summary.show_result"),
          )
        : null,
    );
  }

  private promptFor(c: Ctx): string {
    const v = c.v;
    const special = BOARDS[c.family]?.prompt?.(c);
    if (special) return special;
    if (c.msg.legal.length === 1 && c.msg.legal[0] === "pass") return t("table.must_pass");
    if (c.msg.legal.every((m) => !TILE_RE.test(m)) && c.msg.legal.includes("draw")) return t("table.must_draw");
    return t("table.your_turn");
  }

  private handArea(c: Ctx): HTMLElement {
    const area = h("div", { class: "hand-area" });
    if (c.me === null) {
      if (!this.still) area.appendChild(h("p", { class: "spectating" }, t("table.spectating")));
      return area;
    }
    const buttons = h("div", { class: "actions" });
    const others = c.msg.legal.filter((m) => !TILE_RE.test(m));
    if (c.msg.to_act && c.msg.legal.length > 1)
      buttons.appendChild(
        h(
          "button",
          { class: "action hint-btn", id: "hint", disabled: this.hintBusy, onclick: () => this.askHint() },
          t(this.hintBusy ? "hint.thinking" : "hint.button"),
        ),
      );
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
            title: num ? this.moveLabel(c, mv) : null,
            "aria-label": num ? this.moveLabel(c, mv) : null,
            onclick: () => this.send(mv),
          },
          num ? num[1] : this.moveLabel(c, mv),
        ),
      );
    }
    const tiles = this.myTiles(c);
    const hand = h("div", { class: "hand", role: "list", "aria-label": t("table.your_hand") });
    // On a phone a long hand wraps to two rows rather than shrink under 26 px (double-twelve pips).
    const size = c.small ? (tiles.length > 8 || window.innerHeight < 500 ? 26 : 32) : tiles.length > 15 ? 30 : 36;
    const board = BOARDS[c.family];
    if (board?.hand) {
      board.hand(
        c,
        { selected: this.selected, redraw: () => this.render(), send: (mv) => this.send(mv) },
        size,
        hand,
        buttons,
        area,
      );
    } else {
      const moves = this.tileMoves(c);
      const playable = tiles.filter((x) => moves.has(x));
      const focusTile = playable[Math.min(this.focus, playable.length - 1)];
      tiles.forEach((tile) => {
        const legal = moves.has(tile);
        hand.appendChild(
          h(
            "button",
            {
              class:
                "htile" +
                (legal ? " legal" : c.msg.to_act ? " dim" : "") +
                (legal && tile === focusTile ? " focus" : ""),
              "data-tile": tile,
              "data-key": "h-" + tile,
              role: "listitem",
              disabled: !legal,
              "aria-label": tile,
              onclick: () => this.playTile(c, tile),
            },
            tileFrom(tile, { vertical: true, size }),
          ),
        );
      });
    }
    area.appendChild(buttons);
    if (this.hint && this.hint.legal === c.msg.legal.join("|") && c.msg.to_act) area.appendChild(this.hintPanel(c));
    area.appendChild(hand);
    if (c.family === "line" && c.msg.to_act) area.appendChild(h("p", { class: "keys" }, t("line.keys")));
    return area;
  }

  private async askHint() {
    this.hintBusy = true;
    this.render();
    try {
      const r = await api.hint(this.id, this.token);
      // Asked of one state: it holds only if the moves it values are still mine.
      const legal = this.msg?.legal.join("|") ?? "";
      this.hint = r.moves.every((m) => this.msg?.legal.includes(m.move)) ? { legal, moves: r.moves } : null;
    } catch (e) {
      this.onError(String((e as Error).message));
    }
    this.hintBusy = false;
    this.render();
  }

  private hintPanel(c: Ctx): HTMLElement {
    const moves = this.hint!.moves;
    if (!moves.length) return h("p", { class: "hint-text" }, t("hint.none"));
    const best = moves[0].value,
      worst = moves[moves.length - 1].value;
    const span = best - worst || 1;
    return h(
      "div",
      { class: "hints", "aria-label": t("hint.title") },
      h("span", { class: "hint-title" }, t("hint.title")),
      moves.slice(0, 5).map((m, i) => {
        // Every tile of the move (Dice & Dominoes lays two).
        const tiles = m.move.match(/\d+-\d+/g);
        const label = tiles
          ? [tiles.map((x) => tileFrom(x, { size: 18 })), /:/.test(m.move) ? " " + this.moveLabel(c, m.move) : ""]
          : [this.moveLabel(c, m.move)];
        return h(
          "button",
          { class: "hint" + (i === 0 ? " best" : ""), onclick: () => this.send(m.move), title: m.value.toFixed(3) },
          label,
          h("span", { class: "bar", style: `width:${Math.round(8 + (52 * (m.value - worst)) / span)}px` }),
          h("small", null, m.value.toFixed(2)),
        );
      }),
    );
  }

  private chooserDialog(c: Ctx): HTMLElement {
    const ch = this.chooser!;
    return h(
      "div",
      {
        class: "overlay",
        onclick: (e: Event) => {
          if (e.target === e.currentTarget) {
            this.chooser = null;
            this.render();
          }
        },
      },
      h(
        "div",
        { class: "dialog chooser", role: "dialog", "aria-modal": "true" },
        h("h3", null, t(c.family === "mexican-train" ? "mt.which_train" : "line.which_end")),
        tileFrom(ch.tile, { size: 40 }),
        h(
          "div",
          { class: "choices" },
          ch.moves.map((mv, i) =>
            h(
              "button",
              { class: "action", "data-move": mv, onclick: () => this.send(mv) },
              h("kbd", null, mv.endsWith(":L") ? "L" : mv.endsWith(":R") ? "R" : String(i + 1)),
              " ",
              this.moveLabel(c, mv),
            ),
          ),
        ),
        h(
          "button",
          {
            class: "link",
            onclick: () => {
              this.chooser = null;
              this.render();
            },
          },
          t("common.cancel"),
        ),
      ),
    );
  }

  private logPanel(c: Ctx): HTMLElement {
    const entries = this.still ? c.msg.log || [] : [...this.served.values()].sort((a, b) => a.n - b.n);
    const served = entries.map((e) => this.entryText(c, e)).filter((e): e is Ev => e !== null);
    const first = served.length ? served[0].at : 0;
    // Local notices (presence, tricks) among the server's entries, by version.
    const all = [...served, ...this.log.filter((e) => e.at >= first)]
      .map((e, i) => ({ e, i }))
      .sort((x, y) => x.e.at - y.e.at || x.i - y.i)
      .map((x) => x.e);
    const items = all.slice(-40).reverse();
    return h(
      "aside",
      { class: "log", tabindex: "0", "aria-label": t("table.last_moves") },
      h("h4", null, t("table.last_moves")),
      items.length
        ? h(
            "ol",
            null,
            items.map((e) => h("li", { class: e.cls || "" }, e.text)),
          )
        : h("p", { class: "muted" }, t("table.no_moves")),
    );
  }

  // ----------------------------------------------------------- boards

  // ----------------------------------------------------------- end of hand

  // A replay's hand result: the board's own summary of the step shown, in
  // the user's language and the app's seat numbers (the record's text is
  // the engine's English, seats from 0). Null when the board has none.
  handSummary(n: number): HTMLElement | null {
    if (!this.msg?.view) return null;
    const body = h("div", { class: "replay-hand" });
    BOARDS[this.ctx().family]?.summary(this.ctx(), body);
    return body.childElementCount ? h("div", null, h("h4", null, t("table.hand", { n })), body) : null;
  }

  private summary(c: Ctx, over: boolean): HTMLElement {
    const v = c.v;
    const body = h("div", { class: "summary-body" });
    BOARDS[c.family]?.summary(c, body);
    let title = t("summary.hand_over");
    if (over) {
      const w: number[] = v.winners ?? (v.winner_side !== undefined ? [v.winner_side] : []);
      const names = w.map((s) =>
        c.family === "line" || c.family === "texas-42" ? this.sideName(c, s) : this.seatName(c, s),
      );
      title = t("summary.game_over", { who: names.join(", ") });
    }
    const hf = c.msg.hands_finished ?? 0;
    // The next hand goes on behind the summary: its opening, as it happens.
    const next = over
      ? []
      : (c.msg.log || [])
          .filter((e) => e.hand > hf && e.kind !== "deal" && e.kind !== "chance")
          .map((e) => this.entryText(c, e))
          .filter((e): e is Ev => e !== null);
    if (next.length)
      body.appendChild(
        h(
          "section",
          { class: "meanwhile" },
          h("h4", null, t("summary.meanwhile", { n: hf + 1 })),
          h(
            "ol",
            null,
            next.map((e) => h("li", null, e.text)),
          ),
        ),
      );
    // A spectator may review any seat once the game is over (the server says so too).
    if ((c.me !== null || over) && hf > 0)
      body.appendChild(this.reviewPanel(c, Math.min(this.reviewHand ?? hf, hf), hf));
    if (over && this.fairness) body.appendChild(this.fairness);
    const actions = over
      ? h(
          "div",
          { class: "choices" },
          c.me !== null
            ? h("button", { class: "primary", id: "rematch", onclick: () => this.playAgain() }, t("summary.play_again"))
            : null,
          h(
            "button",
            {
              class: c.me !== null ? "action" : "primary",
              onclick: () => {
                this.close();
                this.go("/");
              },
            },
            t("summary.new_game"),
          ),
          h(
            "button",
            {
              class: "action",
              id: "replay",
              onclick: () => {
                this.close();
                this.go(replayUrl(this.id));
              },
            },
            t("replay.open"),
          ),
          h("button", { class: "action", id: "verify", onclick: () => this.showFairness() }, t("summary.verify")),
          h(
            "button",
            {
              class: "action",
              id: "see-board",
              onclick: () => {
                this.hideOver = true;
                this.render();
              },
            },
            t("summary.see_board"),
          ),
        )
      : h(
          "div",
          { class: "choices" },
          h(
            "button",
            {
              class: "primary",
              id: "continue",
              onclick: () => {
                this.review = null;
                this.reviewHand = null;
                this.setSeen(hf);
                this.render();
              },
            },
            t("summary.continue"),
          ),
        );
    return h(
      "div",
      { class: "overlay" },
      h("div", { class: "dialog summary", role: "dialog", "aria-modal": "true" }, h("h2", null, title), body, actions),
    );
  }

  // ----------------------------------------------------------- review

  private reviewPanel(c: Ctx, hand: number, hands: number): HTMLElement {
    const r = this.review && this.review.hand === hand ? this.review : null;
    const box = h("section", {
      class: "review",
      id: "review",
      "data-state": !r || !r.open ? "closed" : r.busy ? "busy" : r.error ? "error" : "done",
    });
    // Any finished hand may be reviewed, the last one first.
    if (hands > 1)
      box.appendChild(
        h(
          "label",
          { class: "review-hand" },
          t("review.which_hand"),
          " ",
          h(
            "select",
            {
              id: "review-hand",
              onchange: (e: Event) => {
                this.reviewHand = Number((e.target as HTMLSelectElement).value);
                this.review = null;
                this.render();
              },
            },
            Array.from({ length: hands }, (_, i) =>
              h("option", { value: String(i + 1), selected: i + 1 === hand }, t("table.hand", { n: i + 1 })),
            ),
          ),
        ),
      );
    if (c.me === null)
      // a spectator: one button per seat
      box.appendChild(
        h(
          "div",
          { class: "choices review-seats" },
          Array.from({ length: c.n }, (_, k) =>
            h(
              "button",
              {
                class: "action" + (r?.seat === k ? " primary" : ""),
                id: "review-seat-" + k,
                onclick: () => this.askReview(hand, k),
              },
              t("review.seat_button", { who: this.seatName(c, k) }),
            ),
          ),
        ),
      );
    if (!r || !r.open) {
      if (c.me !== null)
        box.appendChild(
          h(
            "button",
            { class: "action", id: "review-btn", onclick: () => this.askReview(hand, null) },
            t("review.button"),
          ),
        );
      return box;
    }
    box.appendChild(
      h(
        "h4",
        null,
        r.seat === null
          ? t("review.title", { n: hand })
          : t("review.title_seat", { who: this.seatName(c, r.seat), n: hand }),
      ),
    );
    if (r.busy) {
      box.appendChild(h("p", { class: "muted" }, t("review.thinking")));
      return box;
    }
    if (r.error) {
      box.appendChild(h("p", { class: "error" }, r.error));
      return box;
    }
    const d = r.data!;
    const unit = t("unit." + d.unit);
    // The grade is what the seat could know (deals sampled from its view);
    // the face-up line (every hand known) is shown apart, never the grade.
    box.appendChild(
      h(
        "p",
        { class: "review-how" },
        d.samples
          ? t("review.sampled", { n: d.samples })
          : d.hands_known
            ? t("review.hands_known")
            : t("review.own_view"),
      ),
    );
    box.appendChild(
      h(
        "p",
        { class: "review-scale" },
        t("review.scale", {
          unit,
          good: d.thresholds.good,
          inaccuracy: d.thresholds.inaccuracy,
          mistake: d.thresholds.mistake,
        }),
      ),
    );
    if (!d.moves.length) box.appendChild(h("p", { class: "muted" }, t("review.none")));
    else {
      const tbl = h(
        "table",
        { class: "review-moves" },
        h(
          "tr",
          null,
          h("th", null, t("review.grade")),
          h("th", null, t("review.played")),
          h("th", null, t("review.best")),
          h("th", null, t("review.lost", { unit })),
        ),
      );
      for (const m of d.moves) {
        tbl.appendChild(
          h(
            "tr",
            { class: "g-" + m.grade, "data-grade": m.grade },
            h("td", null, h("span", { class: "grade g-" + m.grade }, t("grade." + m.grade))),
            h("td", null, this.moveShort(c, m.played)),
            h("td", null, m.grade === "best" ? "—" : this.moveShort(c, m.best)),
            h(
              "td",
              { class: "num" },
              (m.loss ? (m.bound ? "≥ " : "") + fmtNum(m.loss) : "0") + (m.se ? " ± " + fmtNum(m.se) : ""),
            ),
          ),
        );
        const f = m.face_up;
        if (f && f.best !== m.played && f.loss > 0)
          tbl.appendChild(
            h(
              "tr",
              { class: "face-up" },
              h(
                "td",
                { colspan: 4, class: "muted" },
                t("review.face_up", { more: (f.bound ? "≥ " : "") + fmtNum(f.loss), unit }),
                " ",
                this.moveShort(c, f.best),
              ),
            ),
          );
      }
      box.appendChild(tbl);
    }
    if (d.forced) box.appendChild(h("p", { class: "muted" }, t("review.forced", { n: d.forced })));
    if (d.unsolved) box.appendChild(h("p", { class: "muted" }, t("review.unsolved", { n: d.unsolved })));
    return box;
  }

  // A move for a list: its tiles drawn, the end or train as a short tag.
  private moveShort(c: Ctx, mv: string): HTMLElement {
    const tiles = mv.match(/\d+-\d+/g);
    if (!tiles) return h("span", { class: "mv" }, this.moveLabel(c, mv));
    const m = /:(L|R|M|T(\d+))$/.exec(mv);
    const where = !m
      ? ""
      : m[1] === "L"
        ? t("review.left")
        : m[1] === "R"
          ? t("review.right")
          : this.trainName(c, m[1] === "M" ? "M" : Number(m[2]));
    return h(
      "span",
      { class: "mv", title: mv },
      tiles.map((x) => tileFrom(x, { size: 18 })),
      where ? h("span", null, where) : null,
    );
  }

  private async askReview(hand: number, seat: number | null) {
    this.review = { hand, seat, open: true, busy: true, data: null, error: "" };
    this.render();
    const mine = () => this.review?.hand === hand && this.review?.seat === seat;
    try {
      const r = await api.review(this.id, this.token, hand, seat);
      if (mine()) this.review = { hand, seat, open: true, busy: false, data: r as unknown as Review, error: "" };
    } catch (e) {
      if (mine())
        this.review = { hand, seat, open: true, busy: false, data: null, error: String((e as Error).message) };
    }
    this.render();
  }

  private async showFairness() {
    try {
      const f = await api.fairness(this.id);
      // Check the commitment here too: SHA-256 of the secret's bytes.
      let verdict = t("fair.unavailable"),
        ok = false;
      const secret = String(f.secret ?? "");
      if (globalThis.crypto?.subtle && /^[0-9a-f]+$/.test(secret) && secret.length % 2 === 0) {
        const bytes = new Uint8Array(secret.match(/../g)!.map((x) => parseInt(x, 16)));
        const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        ok = Array.from(d, (x) => x.toString(16).padStart(2, "0")).join("") === String(f.commitment);
        verdict = t(ok ? "fair.ok" : "fair.bad");
      }
      // A table made with a fixed seed (tests, study): its secret could be
      // guessed from the seed, so the check proves nothing about the deal.
      if (f.provably_fair === false) {
        ok = false;
        verdict = t("fair.seeded");
      }
      this.fairness = h(
        "div",
        { class: "fairness" },
        h("h4", null, t("fair.title")),
        h("p", null, t("fair.explain")),
        h("p", { class: "verdict " + (ok ? "good" : "bad"), id: "verdict" }, verdict),
        h(
          "dl",
          null,
          h("dt", null, t("fair.commitment")),
          h("dd", null, String(f.commitment)),
          h("dt", null, t("fair.secret")),
          h("dd", null, String(f.secret ?? "")),
          h("dt", null, t("fair.seed")),
          h("dd", { id: "seed" }, String(f.seed_text ?? f.seed ?? "")),
        ),
        h(
          "p",
          null,
          h("a", { href: `/api/tables/${this.id}/record`, download: `boneyard-${this.id}.json` }, t("fair.record")),
          " · ",
          t("fair.cli"),
        ),
      );
      this.render();
    } catch (e) {
      this.onError(String((e as Error).message));
    }
  }
}
