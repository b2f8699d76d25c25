// A table: the live table's controller (lichess's ui/round is split the same
// way): the state, the connection and the fetches here; the views are
// functions of it (table/view.ts, table/dialogs.ts), the end of a hand and
// its review in table/end.ts, the keyboard in table/keys.ts, the words in
// table/words.ts, each family's board in boards/. No rules here: what may
// be played comes from the server's "legal" list.
import { Live, StateMsg, LogEntry, saveTable, savedTables, api, ApiError, Player, Rematch } from "./api";
import { myPlayer, saveMyPlayer, forgetMyPlayer } from "./api";
import { h, clear, drawnFor } from "./dom";
import { t, currentLang } from "./i18n";
import { inviteUrl, replayUrl, tableUrl } from "./links";
import { Ctx } from "./boards/board";
import { boardOf, handKey } from "./boards/registry";
import { sound, muted, setMuted, speakerIcon } from "./sound";
import { clockTag, stampClock } from "./clock";
import { ChatBox } from "./chat";
import { Attention } from "./attention";
import { actorSeat, entryText, Ev, words } from "./table/words";
import { BoardSize, felt, handArea, Hint, logPanel, makeCtx, paint, PlayUi } from "./table/view";
import { hintOf, tableWrap, tileMoves, topbar, turnBar } from "./table/view";
import { chooserDialog, invites, leaveDialog, nameBar, Naming, shareDialog, waitingRoom } from "./table/dialogs";
import { EndOfHand } from "./table/end";
import { KeyCtl, onKey } from "./table/keys";
import { downloadRecord, LocalLink } from "./local/game";
import { abortedCard, Strangers } from "./table/strangers";
import { tableTerms } from "./terms";

// A table link that leads nowhere: what is wrong, and the way to the lobby.
export function badLink(root: HTMLElement, why: string, go: (url: string) => void, title = "link.bad_title") {
  clear(root);
  root.appendChild(
    h(
      "section",
      { class: "card bad-link", role: "alert" },
      h("h2", null, t(title)),
      h("p", null, t(why)),
      h("button", { class: "primary", id: "to-lobby", onclick: () => go("/") }, t("link.to_lobby")),
    ),
  );
}

// A seat as the live table sees it: a bot, someone away, someone here.
function seatKind(c: Ctx, k: number): string {
  const s = c.msg.seats[k];
  if (!s) return "";
  if (s.player.startsWith("bot:")) return t("bot." + s.player.slice(4));
  if (s.autopilot) return t("seat.autopilot");
  if (!s.joined) return t("seat.not_joined");
  if (!s.connected) return t("seat.away");
  return t("seat.person");
}

export class Table implements PlayUi, KeyCtl {
  private live: Live | null = null;
  msg: StateMsg | null = null;
  private prev: StateMsg | null = null;
  private log: Ev[] = []; // local notices (presence, tricks), among the server's entries
  // The server's public log as received: it sends the hand in play only, so
  // the earlier hands' entries seen here are kept (by event index).
  private served = new Map<string, LogEntry>();
  // The deals in the log the page opened on: the ends of their hands were
  // never seen live, so "The hand is over" is said from them (logEntries).
  private history = new Set<string>();
  private connected = false;
  selected: number[] = []; // dice & dominoes: chosen tiles (indices in hand)
  focus = 0; // keyboard: index among playable tiles
  chooser: { tile: string; moves: string[] } | null = null;
  private seenKey: string;
  private seen: number | null = null;
  private pendingClick = 0;
  private flash = "";
  private showShare = false;
  // The hint holds while my legal moves are the same (in Dice & Dominoes the
  // others lay tiles, and the version moves, while I choose).
  hint: Hint | null = null;
  hintBusy = false;
  get lost(): boolean {
    return !this.local && !this.connected;
  }
  private bubbles = new Map<number, { text: string; until: number; lang: string }>();
  private firstPaint = false;
  private keyHandler = (e: KeyboardEvent) => onKey(this, e);
  private resizeTimer = 0;
  private relaid = false; // drawing again for the board's measured width
  private size = new BoardSize();
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
  private naming: Naming = { busy: false, error: "", sat: false, taken: "" };
  private following = false; // on the way to the rematch
  private chat: ChatBox;
  private end: EndOfHand;
  private strangers: Strangers; // rematch by consent, ratings, abort (table/strangers.ts)
  private attention = new Attention();

  // local: a game against the computer on this device (local/game.ts),
  // answered by the engine in the browser instead of the server.
  constructor(
    private root: HTMLElement,
    private id: string,
    private token: string,
    private go: (url: string) => void,
    private local: LocalLink | null = null,
  ) {
    window.addEventListener("resize", this.resizeHandler);
    this.seenKey = `boneyard.seen.${id}.${token.slice(0, 8)}`;
    const s = localStorage.getItem(this.seenKey);
    this.seen = s === null ? null : Number(s);
    clear(root);
    root.appendChild(h("div", { class: "loading" }, t(local ? "local.starting" : "table.connecting")));
    this.end = new EndOfHand(
      id,
      token,
      () => this.render(),
      (e) => this.onError(e),
      local ? (hand, seat) => local.review(hand, seat) : undefined,
    );
    this.chat = new ChatBox(
      id,
      token,
      (e) => this.onError(e),
      () => this.render(),
      (line) => this.live?.chat(line) ?? false,
    );
    this.strangers = new Strangers(
      id,
      token,
      () => this.render(),
      (e) => this.onError(e),
      (r) => this.follow(r),
    );
    document.addEventListener("keydown", this.keyHandler);
    if (local) {
      this.connected = true;
      this.naming.sat = true;
      local.open({ state: (m) => this.onState(m), error: (e) => this.onError(e) });
      return;
    }
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
        // Status 0: no answer at all (offline, server down): the socket goes on
        // trying and says so; the link itself may be fine.
        if (this.closed || !(e instanceof ApiError) || e.status === 429 || e.status >= 500) return;
        if (e.status === 0) {
          const wait = this.msg ? null : root.querySelector(".loading");
          if (wait) wait.textContent = t("table.unreachable");
          return;
        }
        this.close();
        badLink(root, e.status === 404 ? "link.no_table" : e.status === 403 ? "link.bad_key" : "link.damaged", go);
      },
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
  }

  close() {
    this.closed = true; // a closing socket or a timer must not draw over the next page
    this.live?.close();
    this.local?.close();
    document.removeEventListener("keydown", this.keyHandler);
    window.removeEventListener("resize", this.resizeHandler);
    this.attention.close();
    this.chat.close();
    delete this.root.dataset.drawnFor; // #app goes on as the next page
  }

  private onError(e: string) {
    if (this.local && !this.msg) {
      badLink(this.root, "local.broken", this.go); // the game could not be opened
      return;
    }
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
    if (!this.prev) for (const e of m.log || []) if (e.kind === "deal") this.history.add(`${e.n}:${e.kind}`);
    const last = fresh.filter((e) => e.kind === "move" || e.kind === "laid").pop();
    if (this.prev && (m.hands_finished ?? 0) > (this.prev.hands_finished ?? 0)) sound("hand");
    else if (last) sound(last.move === "pass" ? "pass" : last.move === "draw" ? "draw" : "play");
    this.attention.state(!!this.prev?.to_act, !!m.to_act);
    if (this.served.size > 200)
      for (const k of [...this.served.keys()].slice(0, this.served.size - 200)) this.served.delete(k);
    if (this.prev) this.diff(this.prev, m);
    if (this.seen === null && m.hands_finished !== undefined) this.setSeen(m.hands_finished);
    if (!this.prev && !this.local) {
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

  private setSeen(n: number) {
    this.seen = n;
    localStorage.setItem(this.seenKey, String(n));
  }

  send(move: string) {
    this.pendingClick = performance.now();
    this.chooser = null;
    this.selected = [];
    if (!(this.local ? this.local.move(move) : this.live?.move(move))) this.onError(t("table.offline"));
  }

  ctx(): Ctx {
    return makeCtx(this.msg!, this.size.width(this.root));
  }

  redraw() {
    this.render();
  }

  // ----------------------------------------------------------- people

  // A state's people: the rematch to follow, this browser's player to seat.
  // True when the page leaves for the rematch.
  private people(m: StateMsg): boolean {
    if (this.closed || this.local) return false;
    // Only a seat that accepted goes along (strangers.ts): nobody else is pulled away.
    if (m.rematch && m.rematch.token && m.seat !== null && m.status === "over" && !this.following) {
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
    // Kept in this browser as a table made here is: "Share" offers its spectator link.
    if (r.token && r.spectate)
      saveTable({
        id: r.table,
        token: r.token,
        game: this.msg?.game ?? "",
        seat: r.seat ?? -1,
        created: Date.now(),
        invites: {},
        spectate: r.spectate,
      });
    this.close();
    this.go(tableUrl(r.table, r.token ?? ""));
  }

  private async playAgain() {
    if (this.local) {
      this.local.again();
      this.following = true;
      this.close();
      this.go("/?local=" + Date.now().toString(36));
      return;
    }
    await this.strangers.offer(); // an offer: it starts when the others accept
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

  private diff(a: StateMsg, b: StateMsg) {
    const c = this.ctx();
    const name = (k: number) => words.seatName(c, k);
    // Presence: bots taking over for someone away, and people coming back.
    b.seats.forEach((s, k) => {
      const o = a.seats[k];
      if (!o) return;
      // My own seat in my own words ("You are back", not "You is back").
      const you = k === c.me ? "_you" : "";
      if (!o.autopilot && s.autopilot) this.push(t("log.autopilot_on" + you, { who: name(k) }), k, "notice");
      if (o.autopilot && !s.autopilot) this.push(t("log.autopilot_off" + you, { who: name(k) }), k, "notice");
      else if (o.connected && !s.connected && !s.player.startsWith("bot"))
        this.push(t("log.disconnected", { who: name(k) }), k, "notice");
      if (!o.joined && s.joined && k !== c.me) this.push(t("log.joined", { who: name(k) }), k, "notice");
    });
    const pv = a.view,
      v = b.view;
    if (!pv || !v) return;
    const actor = actorSeat(a);
    // With the server's public log, moves come from it; the boards add only
    // what they work out (a trick's winner, a round revealed).
    const served = Array.isArray(b.log);
    const hb = boardOf(v.family);
    const handOf = (x: typeof v) => (hb.handNumber ? hb.handNumber(x) : "hand_number" in x ? x.hand_number : 0);
    // Without the server's log (a game on this device) the next hand's deal
    // is said here, after the last hand's end below (it came before it).
    const dealt = !served && handOf(v) !== handOf(pv);
    const board = boardOf(c.family);
    if (pv.family === v.family)
      board.diff(c, pv, v, actor, {
        push: (x, k, cls, before) => {
          if (served && cls !== "hand" && !(cls === "chance" && this.local)) return;
          const next = before ? (b.log || []).find((e) => e.kind === before && e.n >= a.version) : undefined;
          if (next) this.log.push({ text: x, seat: k, cls, at: next.n });
          else this.push(x, k, cls);
        },
        bubble: (k, x) => this.bubble(k, x),
      });
    // A hand's end, placed before the next hand's deal (the deal is at n + 1).
    if ((b.hands_finished ?? 0) > (a.hands_finished ?? 0)) {
      this.bubbles.clear(); // a "Pass" said in the hand that ended is not said in the next
      const deal = (b.log || []).find((e) => e.kind === "deal" && e.n >= a.version);
      const at = deal ? deal.n : b.version;
      if (pv.family === v.family)
        board.handEnd?.(c, v, {
          push: (text, seat, cls) => this.log.push({ text, seat, cls, at }),
          bubble: (k, x) => this.bubble(k, x),
        });
      this.log.push({ text: t(handKey(c.family, "log.hand_over")), seat: null, cls: "hand", at });
    }
    if (dealt) this.push(t(handKey(c.family, "log.new_hand"), { n: handOf(v) }), null, "hand");
  }

  // The server's entries as received and the local notices, by version.
  private logEntries(c: Ctx): Ev[] {
    const entries = [...this.served.values()].sort((a, b) => a.n - b.n);
    const served: Ev[] = [];
    for (const e of entries) {
      const ev = entryText(c, e);
      if (!ev) continue;
      // A later hand's first deal in the history opened on (a reload): the
      // last hand's end, said live by diff(), is said before it too.
      const again = entries.some((x) => x.kind === "deal" && x.hand === e.hand && x.n < e.n);
      if (e.kind === "deal" && e.hand > 1 && !again && this.history.has(`${e.n}:${e.kind}`))
        served.push({ text: t(handKey(c.family, "log.hand_over")), seat: null, cls: "hand", at: ev.at });
      served.push(ev);
    }
    const first = served.length ? served[0].at : 0;
    return [...served, ...this.log.filter((e) => e.at >= first)]
      .map((e, i) => ({ e, i }))
      .sort((x, y) => x.e.at - y.e.at || x.i - y.i)
      .map((x) => x.e);
  }

  // ----------------------------------------------------------- input

  playTile(c: Ctx, tile: string) {
    const moves = tileMoves(c).get(tile);
    if (!moves || !moves.length) return;
    if (moves.length === 1) this.send(moves[0]);
    else {
      this.chooser = { tile, moves };
      this.render();
    }
  }

  async askHint() {
    this.hintBusy = true;
    this.render();
    try {
      const r = await (this.local ? this.local.hint() : api.hint(this.id, this.token));
      // Asked of one state: it holds only if the moves it values are still mine.
      this.hint = this.msg ? hintOf(this.ctx(), r) : null;
    } catch (e) {
      this.onError(String((e as Error).message));
    }
    this.hintBusy = false;
    this.render();
    // The hint's rows push the hand down: on a phone it is brought back into
    // sight, its bottom at the screen's (the moves the hint marks are there).
    if (this.hint) document.querySelector(".hand")?.scrollIntoView({ block: "nearest" });
  }

  // A dialog over the table (a hand's summary, the game's end, the links):
  // while it is open the keys belong to it, never to the hand behind it.
  dialogOpen(): boolean {
    const m = this.msg;
    if (!m) return false;
    return (
      this.showShare ||
      this.showLeave ||
      (m.status === "over" && !this.hideOver) ||
      (m.status !== "over" && this.seen !== null && (m.hands_finished ?? 0) > this.seen)
    );
  }

  closeDialog(): boolean {
    if (!this.showShare && !this.showLeave) return false;
    this.showShare = this.showLeave = false;
    return true;
  }

  // Leaving a game in play: a bot takes the seat after a while; say so first.
  private leave(c: Ctx) {
    if (!this.asksBeforeLeaving(c)) this.toLobby();
  }

  // True when leaving needs the question: it is shown. The browser's Back
  // asks it too (main.ts), as the ‹ Lobby link does.
  asksBeforeLeaving(c: Ctx | null = this.msg ? this.ctx() : null): boolean {
    if (!c || this.closed || this.local || c.me === null || c.msg.status !== "playing") return false;
    this.showLeave = true;
    this.render();
    return true;
  }

  private toLobby() {
    this.close();
    this.go("/");
  }

  private shareLinks(c: Ctx): [string, string, string][] {
    const saved = savedTables().find((x) => x.id === this.id && x.token === this.token);
    if (!saved) return [];
    const out: [string, string, string][] = [];
    // An invitation already taken is no longer offered (its link is void).
    for (const k of Object.keys(saved.invites || {}))
      if (!c.msg.seats[Number(k)]?.joined)
        out.push([
          t("table.invite_for", { who: words.seatName(c, Number(k)) }),
          inviteUrl(this.id, saved.invites[k]),
          "invite-" + k,
        ]);
    if (saved.spectate) out.push([t("table.spectate_link"), tableUrl(this.id, saved.spectate, true), "spectate"]);
    return out;
  }

  // ----------------------------------------------------------- drawing

  render() {
    if (!this.msg || this.closed) return;
    const c = this.ctx();
    this.size.laid = c.width;
    paint(this.root, this.build(c));
    // The board lays its tiles out for the width it was given: once the page
    // shows another (the first paint guessed, the layout moved), again.
    if (!this.relaid && Math.abs(this.size.width(this.root) - c.width) > 1) {
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
    drawnFor(this.root);
    if (!this.firstPaint) {
      this.firstPaint = true;
      (window as unknown as Record<string, number>).__firstTablePaint = performance.now();
    }
  }

  private build(c: Ctx): HTMLElement {
    const wrap = tableWrap(c);
    if (!this.local && !this.connected && c.msg.status !== "over") wrap.classList.add("lost");
    const top = this.topbar(c);
    // In the top bar: the table's grid stays as it is.
    const nb = this.local ? null : nameBar(c, this.naming, !!myPlayer(), (name) => this.saveName(name));
    if (nb) top.appendChild(nb);
    wrap.appendChild(top);
    if (this.flash) wrap.appendChild(h("div", { class: "flash", role: "alert" }, this.flash));
    if (c.msg.status === "aborted") {
      wrap.appendChild(abortedCard(() => this.toLobby()));
      return wrap;
    }
    if (c.msg.status === "broken") {
      wrap.appendChild(h("div", { class: "card" }, t("table.broken"), " ", c.msg.error || ""));
      return wrap;
    }
    if (c.msg.status === "waiting" || !c.msg.view) {
      const saved = savedTables().find((x) => x.id === this.id && x.token === this.token);
      wrap.appendChild(
        waitingRoom(
          c,
          saved?.invites || {},
          saved?.spectate || "",
          (tok) => inviteUrl(this.id, tok),
          (tok) => tableUrl(this.id, tok, true),
        ),
      );
      return wrap;
    }
    wrap.appendChild(
      felt(c, {
        kind: seatKind,
        bubbles: this.bubbles,
        markBots: true,
        clock: (k) => clockTag(c.msg, k),
      }),
    );
    wrap.appendChild(this.turnBar(c));
    wrap.appendChild(handArea(c, this));
    wrap.appendChild(logPanel(this.logEntries(c)));
    if (!this.local) {
      wrap.appendChild(this.chat.build(c.msg, (k) => words.seatName(c, k)));
      const badge = this.chat.badge();
      if (badge) wrap.appendChild(badge);
    }
    const redraw = () => this.render();
    if (this.chooser)
      wrap.appendChild(
        chooserDialog(
          c,
          this.chooser,
          (mv) => this.send(mv),
          () => {
            this.chooser = null;
            redraw();
          },
        ),
      );
    if (this.showShare)
      wrap.appendChild(
        shareDialog(this.shareLinks(c), () => {
          this.showShare = false;
          redraw();
        }),
      );
    if (this.showLeave)
      wrap.appendChild(
        leaveDialog(
          () => {
            this.showLeave = false;
            redraw();
          },
          () => this.toLobby(),
        ),
      );
    const hf = c.msg.hands_finished ?? 0;
    const over = c.msg.status === "over";
    if ((over && !this.hideOver) || (!over && this.seen !== null && hf > this.seen)) {
      const dlg = this.end.summary(c, over, {
        playAgain: () => this.playAgain(),
        toLobby: () => this.toLobby(),
        toReplay: () => {
          this.close();
          this.go(replayUrl(this.id, this.msg?.seat ?? null));
        },
        download: this.local ? () => downloadRecord(this.local!).catch((e) => this.onError(String(e))) : undefined,
        seeBoard: () => {
          this.hideOver = true;
          redraw();
        },
        nextHand: (n) => {
          this.end.reset();
          this.setSeen(n);
          redraw();
        },
      });
      if (over && !this.local) this.strangers.decorate(dlg, c);
      wrap.appendChild(dlg);
    }
    return wrap;
  }

  private topbar(c: Ctx): HTMLElement {
    const links = this.shareLinks(c);
    return topbar(
      c,
      () => this.leave(c),
      () => this.render(),
      [
        this.local ? null : tableTerms(c.msg, (k) => words.seatName(c, k)), // rated, clock
        links.length
          ? h(
              "button",
              {
                class: "share-btn",
                onclick: () => {
                  this.showShare = true;
                  this.render();
                },
              },
              // "Invite" only where a seat waits for someone.
              t(invites(links) ? "table.share" : "table.share_watch"),
            )
          : null,
        h(
          "span",
          {
            class: "conn " + (this.connected ? "on" : "off"),
            title: t(this.local ? "local.on_device" : this.connected ? "table.online" : "table.offline"),
          },
          t(this.local ? "local.on_device" : this.connected ? "table.online" : "table.offline"),
        ),
        h(
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
      ],
    );
  }

  private turnBar(c: Ctx): HTMLElement {
    const lost = !this.local && !this.connected;
    return turnBar(
      c,
      [
        ...(this.local ? [c.me !== null ? clockTag(c.msg, c.me) : null] : this.strangers.turnExtras(c)),
        c.msg.status === "over" && this.hideOver
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
      ],
      lost,
    );
  }
}
