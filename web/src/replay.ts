// A finished game, step by step: the server turns the record into steps
// (the full view after each event; every hand shown, the game being over)
// and the table's own views draw them (table/view.ts), driven by the
// replay's own controller (ReplayBoard): no connection, no input, every
// state given by show(). No rules here either.
import { api, ApiError, LogEntry, ReplayData, ReplayStep, StateMsg } from "./api";
import { h, clear, drawnFor } from "./dom";
import { t, langPicker } from "./i18n";
import { gameName } from "./links";
import { tileFrom } from "./tiles";
import { Ctx } from "./boards/board";
import { handKey } from "./boards/registry";
import { BoardSize, felt, handArea, logPanel, makeCtx, paint, tableWrap, topbar, turnBar } from "./table/view";
import { entryText, Ev } from "./table/words";
import { handSummary } from "./table/end";

// A seat in a record: a bot level, the record's own player name, a player.
function seatKind(c: Ctx, k: number): string {
  const s = c.msg.seats[k];
  if (!s) return "";
  if (s.player.startsWith("bot:")) return t("bot." + s.player.slice(4));
  if (s.player !== "human") return s.player; // a record's own player names (bots by name)
  return t("seat.in_record");
}

// The replay's board: the table's views for one step at a time.
class ReplayBoard {
  private msg: StateMsg | null = null;
  private size = new BoardSize();
  private relaid = false;
  private resizeTimer = 0;
  // Sizes follow the window (a phone turned, a window resized).
  private resizeHandler = () => {
    clearTimeout(this.resizeTimer);
    this.resizeTimer = window.setTimeout(() => this.render(), 80);
  };

  constructor(
    private root: HTMLElement,
    private back: () => void,
    private redraw: () => void,
  ) {
    window.addEventListener("resize", this.resizeHandler);
  }

  close() {
    clearTimeout(this.resizeTimer);
    window.removeEventListener("resize", this.resizeHandler);
  }

  private ctx(): Ctx {
    return makeCtx(this.msg!, this.size.width(this.root));
  }

  show(m: StateMsg) {
    this.msg = m;
    this.render();
  }

  // Draws again when the board's width is not the one it was laid out for
  // (a step is drawn before its page is in the document).
  fit() {
    if (this.msg && Math.abs(this.size.width(this.root) - this.size.laid) > 1) this.render();
  }

  // A move of this step in the log's words.
  words(e: LogEntry): string | null {
    return this.msg ? (entryText(this.ctx(), e)?.text ?? null) : null;
  }

  handSummary(n: number): HTMLElement | null {
    return this.msg ? handSummary(this.ctx(), n) : null;
  }

  private render() {
    if (!this.msg) return;
    const c = this.ctx();
    this.size.laid = c.width;
    const wrap = tableWrap(c);
    wrap.appendChild(topbar(c, this.back, this.redraw, []));
    if (c.msg.view) {
      wrap.appendChild(felt(c, { kind: seatKind, markBots: false }));
      wrap.appendChild(turnBar(c, []));
      wrap.appendChild(handArea(c, null));
      wrap.appendChild(logPanel((c.msg.log || []).map((e) => entryText(c, e)).filter((e): e is Ev => e !== null)));
    }
    paint(this.root, wrap);
    if (!this.relaid && Math.abs(this.size.width(this.root) - c.width) > 1) {
      this.relaid = true;
      this.render();
      this.relaid = false;
    }
    drawnFor(this.root);
  }
}

// A record chosen or dropped in the lobby, waiting for the replay page.
let pendingRecord: string | null = null;
export function openRecord(record: string, go: (url: string) => void) {
  pendingRecord = record;
  go("/?replay=file");
}

export class Replay {
  private data: ReplayData | null = null;
  private error = "";
  private i = 0;
  private board: ReplayBoard | null = null;
  private boardRoot = h("div", { class: "replay-board" });
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private closed = false;
  private as: number | null = null; // whose game it was (?as=N): named "You"

  constructor(
    private root: HTMLElement,
    private source: string,
    private go: (url: string) => void,
  ) {
    clear(root);
    root.appendChild(h("div", { class: "loading" }, t("replay.loading")));
    document.addEventListener("keydown", this.keyHandler);
    this.load();
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keyHandler);
    this.board?.close();
  }

  private async load() {
    try {
      if (this.source === "file") {
        if (pendingRecord === null) throw new Error(t("replay.no_file"));
        this.data = await api.replayRecord(pendingRecord);
      } else {
        this.data = await api.replay(this.source);
      }
      const url = new URLSearchParams(location.search);
      const q = url.get("step"),
        as = url.get("as");
      this.i = q !== null && /^\d+$/.test(q) ? Math.min(Number(q), this.data.steps.length - 1) : 0;
      this.as = as !== null && /^\d$/.test(as) && Number(as) < this.data.seats ? Number(as) : null;
    } catch (e) {
      // No such finished game (a mistyped link, a game still in play): said
      // in the player's words, not the server's "no table 'ffff'".
      // (A key, so that a change of language words it again.)
      this.error = e instanceof ApiError && e.status === 404 ? "replay.not_found" : String((e as Error).message);
    }
    this.render();
  }

  private onKey(e: KeyboardEvent) {
    if (
      !this.data ||
      ((e.target as HTMLElement)?.tagName === "INPUT" && (e.target as HTMLInputElement).type !== "range")
    )
      return;
    const last = this.data.steps.length - 1;
    let to = this.i;
    if (e.key === "ArrowRight") to = this.i + 1;
    else if (e.key === "ArrowLeft") to = this.i - 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = last;
    else if (e.key === "PageDown") to = this.handEnd(1);
    else if (e.key === "PageUp") to = this.handEnd(-1);
    else return;
    e.preventDefault();
    this.step(to);
  }

  // The next (dir 1) or previous (-1) step that ends a hand, its result
  // shown: a game of many hands is read a hand at a time. Past the last
  // such step, the game's end; before the first, its start.
  private handEnd(dir: 1 | -1): number {
    const steps = this.data!.steps;
    const ends = (j: number) => j > 0 && steps[j].hands_finished > steps[j - 1].hands_finished;
    for (let j = this.i + dir; j > 0 && j < steps.length; j += dir) if (ends(j)) return j;
    return dir > 0 ? steps.length - 1 : 0;
  }

  private step(to: number) {
    if (!this.data) return;
    this.i = Math.max(0, Math.min(this.data.steps.length - 1, to));
    this.render();
  }

  private msgFor(d: ReplayData, s: ReplayStep, i: number): StateMsg {
    return {
      type: "state",
      table: d.table || "",
      game: d.game,
      seat: this.as,
      status: s.over ? "over" : "playing",
      version: i,
      view: s.view,
      to_act: false,
      legal: [],
      scores: s.scores,
      hands_finished: s.hands_finished,
      seats: Array.from({ length: d.seats }, (_, k) => ({
        seat: k,
        player: d.players[k] || "human",
        joined: true,
        connected: true,
        autopilot: false,
        name: d.names?.[k] || null,
      })),
      notices: [],
      commitment: "",
    };
  }

  // The step in the log's words ("Seat 4: 12|1 on Seat 3's train", "Seat 2
  // bids 30"), not the record's move texts ("12-1:T2", "bid:30").
  private describe(s: ReplayStep, i: number): string {
    if (i === 0) return t("replay.start");
    if (s.chance) {
      const [w, ...rest] = (s.text || "").split(" ");
      return w === "deal"
        ? t("replay.deal")
        : w === "roll"
          ? t("replay.roll", { dice: rest.join(" ") })
          : w === "draw"
            ? t("replay.drawn", { tiles: rest.map((x) => x.replace("-", "|")).join(" ") })
            : t("replay.chance", { text: s.text || "" });
    }
    const said = this.board?.words({
      n: i - 1,
      hand: s.hands_finished + 1,
      kind: "move",
      seat: s.seat ?? 0,
      move: s.text || "",
    });
    // A line game's log leaves the end to the board; a step says it, by the
    // number it showed before (the line turns, so "left" can lie on the right).
    const end = /:(L|R)$/.exec(s.text || "");
    const before = i > 0 ? (this.data!.steps[i - 1].view as { ends?: number[] }).ends : undefined;
    const side =
      end && said && before && before.length === 2
        ? " " + t("move.on_end", { pip: before[end[1] === "L" ? 0 : 1] })
        : "";
    return said ? said + side : t("replay.move", { who: t("seat.n", { n: (s.seat ?? 0) + 1 }), move: s.text || "" });
  }

  // The step's words with its tiles drawn (the words stay as the title).
  private describeEl(s: ReplayStep, i: number): HTMLElement {
    const text = this.describe(s, i);
    const parts = text.split(/(\d+\|\d+)/);
    if (parts.length === 1 || i === 0) return h("b", null, text);
    return h(
      "b",
      { title: text, class: "replay-move" },
      parts.map((x, j) => (j % 2 ? tileFrom(x.replace("|", "-"), { size: 20 }) : x)),
    );
  }

  render() {
    if (this.closed) return; // the replay's answer came after leaving it
    const root = this.root;
    clear(root);
    const toLobby = (e: Event) => {
      e.preventDefault();
      this.close();
      this.go("/");
    };
    const back = h("a", { class: "back", href: "/", onclick: toLobby }, "‹ ", t("table.lobby"));
    if (!this.data) {
      root.appendChild(
        h(
          "main",
          { class: "replay" },
          h(
            "header",
            { class: "topbar" },
            back,
            h("div", { class: "title" }, h("strong", null, t("replay.title"))),
            langPicker(() => this.render()),
          ),
          h(
            "section",
            { class: "card replay-error", role: "alert" },
            h("h2", null, t("replay.unavailable")),
            h("p", null, this.error === "replay.not_found" ? t(this.error) : this.error || t("replay.loading")),
            this.error ? h("button", { class: "primary", id: "to-lobby", onclick: toLobby }, t("link.to_lobby")) : null,
          ),
        ),
      );
      return;
    }
    const d = this.data,
      s = d.steps[this.i],
      last = d.steps.length - 1;
    const btn = (id: string, label: string, to: number, disabled: boolean, title: string) =>
      h(
        "button",
        { class: "action step-btn", id, disabled, title, "aria-label": title, onclick: () => this.step(to) },
        label,
      );
    const slider = h("input", {
      type: "range",
      id: "replay-slider",
      min: 0,
      max: last,
      value: this.i,
      "aria-label": t("replay.step_label"),
      oninput: (e: Event) => this.step(Number((e.target as HTMLInputElement).value)),
    }) as HTMLInputElement;
    const controls = h(
      "div",
      { class: "replay-controls" },
      btn("replay-first", "|◀", 0, this.i === 0, t("replay.first")),
      btn("replay-prev", "◀", this.i - 1, this.i === 0, t("replay.prev")),
      h(
        "span",
        { class: "replay-pos", id: "replay-pos", "data-step": this.i },
        t("replay.step", { n: this.i, of: last }),
      ),
      btn("replay-next", "▶", this.i + 1, this.i === last, t("replay.next")),
      btn("replay-last", "▶|", last, this.i === last, t("replay.last")),
      // A hand at a time, either side of the slider (on a phone they share its row).
      btn("replay-prev-hand", "◀◀", this.handEnd(-1), this.i === 0, t(handKey(d.family, "replay.prev_hand"))),
      slider,
      btn("replay-next-hand", "▶▶", this.handEnd(1), this.i === last, t(handKey(d.family, "replay.next_hand"))),
    );
    if (!this.board)
      this.board = new ReplayBoard(
        this.boardRoot,
        () => {
          this.close();
          this.go("/");
        },
        () => this.render(),
      );
    this.board.show(this.msgFor(d, s, this.i));
    const what = h(
      "div",
      { class: "replay-what", role: "status", "aria-live": "polite" },
      this.describeEl(s, this.i),
      s.hand ? (this.board.handSummary(s.hands_finished) ?? h("pre", { class: "replay-hand" }, s.hand.text)) : null,
    );
    const head = h(
      "header",
      { class: "replay-head" },
      h(
        "div",
        { class: "title" },
        h("strong", null, t("replay.title")),
        " · ",
        gameName(d.game),
        h("span", { class: "muted" }, " ", t("replay.all_hands")),
      ),
      controls,
      what,
    );
    root.appendChild(h("main", { class: "replay" }, head, this.boardRoot));
    this.board.fit();
    (slider as HTMLInputElement).value = String(this.i);
  }
}
