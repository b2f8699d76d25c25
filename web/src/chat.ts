// Table chat (docs/server.md, "Chat"): the seats talk among themselves, the
// spectators apart. Quick phrases travel as ids and are worded in each
// viewer's language; free text is shown as text, never as HTML. Lines go
// over the table's WebSocket while it is open, else by POST. Muting a
// seat is this viewer's own choice, remembered per table in this browser.
// Emotes are quick reactions (a fixed set the server checks, counted as chat
// lines); lines from others that came while the chat was out of sight are
// counted on a badge that leads to it.
import { h } from "./dom";
import { t } from "./i18n";
import { api, StateMsg } from "./api";
import { isBlocked } from "./friends";
import { emoteIcon } from "./icons";

export interface ChatLine {
  n: number;
  seat: number | null;
  text?: string;
  phrase?: string;
  emote?: string;
  at: number;
}
// The server's set (chat.cpp, chat_emotes), each drawn in SVG (icons.ts).
export const EMOTES = ["thumbs_up", "clap", "laugh", "wow", "sad", "thinking"];
type Said = { text?: string; phrase?: string; emote?: string };
export const PHRASES = [
  "hello",
  "buena",
  "capicua",
  "paso",
  "good_game",
  "well_played",
  "thanks",
  "oops",
  "hurry",
  "bye",
];
// A player's own words, not a spectator's: the spectators talk among
// themselves, where "I pass" or "Your turn!" would mean nothing.
const PLAYERS_ONLY = ["paso", "hurry"];

export class ChatBox {
  private draft = "";
  private busy = false;
  private muted: Set<number>;
  private key: string;
  // The unread badge: the newest line seen (-1: none drawn yet, so the lines
  // a page opens on are not news), the newest line, the unread count, and
  // whether the chat is in sight (an IntersectionObserver's word).
  private seenN = -1;
  private topN = 0;
  private unread = 0;
  private inSight = false;
  private watched: Element | null = null;
  private sight: IntersectionObserver | null = null;
  private onVisible = () => this.markSeen();
  // viaSocket: sends a line over the table's open WebSocket (false when it is
  // not open: then the line goes by POST). Its errors come back on the socket.
  constructor(
    private id: string,
    private token: string,
    private onError: (e: string) => void,
    private redraw: () => void,
    private viaSocket: (line: Said) => boolean = () => false,
  ) {
    document.addEventListener("visibilitychange", this.onVisible);
    this.key = `boneyard.mute.${id}`;
    let saved: number[] = [];
    try {
      saved = JSON.parse(localStorage.getItem(this.key) || "[]");
    } catch {
      saved = [];
    }
    this.muted = new Set(Array.isArray(saved) ? saved.filter((x) => typeof x === "number") : []);
  }

  close() {
    this.sight?.disconnect();
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  // The chat is read while it is in sight in a visible tab: no badge.
  private markSeen() {
    if (!this.inSight || document.visibilityState !== "visible" || this.seenN >= this.topN) return;
    this.seenN = this.topN;
    if (this.unread) this.redraw();
  }

  // Watches the chat drawn on the page (a new element after a page change);
  // a line that comes while it is in sight is read at once.
  private watch() {
    const e = document.getElementById("chat");
    if (e === this.watched) return this.markSeen();
    if (!e || typeof IntersectionObserver === "undefined") return;
    this.sight?.disconnect();
    this.watched = e;
    this.sight = new IntersectionObserver((es) => {
      this.inSight = es[es.length - 1].isIntersecting;
      this.markSeen();
    });
    this.sight.observe(e);
  }

  // "2 new messages": a button to the chat while some are unread.
  badge(): HTMLElement | null {
    if (!this.unread) return null;
    return h(
      "button",
      {
        type: "button",
        class: "chat-badge",
        id: "chat-badge",
        "data-key": "chat-badge",
        onclick: () => {
          const chat = document.getElementById("chat");
          chat?.scrollIntoView({ block: "end" });
          (document.getElementById("chat-input") as HTMLInputElement | null)?.focus({ preventScroll: true });
          this.inSight = true;
          this.markSeen();
        },
      },
      t(this.unread === 1 ? "chat.unread_one" : "chat.unread", { n: this.unread }),
    );
  }

  private async say(body: Said) {
    if (this.busy) return;
    this.busy = true;
    try {
      if (!this.viaSocket(body)) await api.chat(this.id, this.token, body);
      if (body.text !== undefined) this.draft = "";
    } catch (e) {
      this.onError(String((e as Error).message));
    } finally {
      this.busy = false;
      this.redraw();
    }
  }

  private toggleMute(k: number) {
    if (this.muted.has(k)) this.muted.delete(k);
    else this.muted.add(k);
    localStorage.setItem(this.key, JSON.stringify([...this.muted]));
    this.redraw();
  }

  build(m: StateMsg, seatName: (k: number) => string): HTMLElement {
    const lines: ChatLine[] = (m as unknown as { chat?: ChatLine[] }).chat || [];
    const list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    // A player I block: their lines are hidden for me (friends.ts), like a muted seat's.
    const heard = lines.filter(
      (l) => l.seat === null || (!this.muted.has(l.seat) && !isBlocked(m.seats[l.seat]?.player_id)),
    );
    this.topN = lines.length ? lines[lines.length - 1].n : 0;
    if (this.seenN < 0) this.seenN = this.topN;
    this.unread = heard.filter((l) => l.n > this.seenN && (m.seat === null || l.seat !== m.seat)).length;
    queueMicrotask(() => this.watch());
    for (const l of heard) {
      const who = l.seat === null ? t("chat.spectator") : seatName(l.seat);
      const emote = l.emote && EMOTES.includes(l.emote) ? l.emote : null;
      const words = l.phrase ? t("chat.phrase." + l.phrase) : l.text || "";
      list.appendChild(
        h(
          "li",
          { "data-key": "chat-" + l.n, "data-n": l.n, class: emote ? "emote" : l.phrase ? "phrase" : "text" },
          h("b", null, who),
          " ",
          emote
            ? h(
                "span",
                { class: "chat-text chat-emote", role: "img", "aria-label": t("chat.emote." + emote) },
                emoteIcon(emote),
              )
            : h("span", { class: "chat-text" }, words),
        ),
      );
    }
    // Near the server's limit the field counts down, and at it says so: a
    // longer paste was cut there without a word.
    const left = h("p", { id: "chat-left", class: "chat-left", "aria-live": "polite" }, leftText(this.draft));
    const input = h("input", {
      id: "chat-input",
      type: "text",
      maxlength: CHAT_CHARS,
      value: this.draft,
      placeholder: t("chat.placeholder"),
      "aria-label": t("chat.placeholder"),
      oninput: (e: Event) => {
        this.draft = (e.target as HTMLInputElement).value;
        // The live element: patch() keeps the one shown, not this build's.
        const shown = document.getElementById("chat-left");
        if (shown) shown.textContent = leftText(this.draft);
      },
    });
    const form = h(
      "form",
      {
        class: "chat-form",
        onsubmit: (e: Event) => {
          e.preventDefault();
          const text = ((document.getElementById("chat-input") as HTMLInputElement | null)?.value ?? this.draft).trim();
          if (text) this.say({ text });
        },
      },
      input,
      h("button", { type: "submit", class: "small", id: "chat-send" }, t("chat.send")),
    );
    const phrases = h(
      "div",
      { class: "chat-phrases" },
      PHRASES.filter(
        (p) =>
          (m.seat !== null || !PLAYERS_ONLY.includes(p)) && (p !== "capicua" || !m.view || m.view.family === "line"), // a line game's word only
      ).map((p) =>
        h(
          "button",
          { type: "button", class: "small phrase", "data-phrase": p, onclick: () => this.say({ phrase: p }) },
          t("chat.phrase." + p),
        ),
      ),
    );
    const emotes = h(
      "div",
      { class: "chat-emotes" },
      EMOTES.map((id) =>
        h(
          "button",
          {
            type: "button",
            class: "small emote",
            "data-emote": id,
            title: t("chat.emote." + id),
            "aria-label": t("chat.emote." + id),
            onclick: () => this.say({ emote: id }),
          },
          emoteIcon(id),
        ),
      ),
    );
    const mutes =
      m.seat === null
        ? null
        : h(
            "div",
            { class: "chat-mutes" },
            m.seats
              .filter((s) => s.player === "human" && s.seat !== m.seat)
              .map((s) =>
                h(
                  "button",
                  {
                    type: "button",
                    class: "small mute-seat",
                    "data-mute": s.seat,
                    "aria-pressed": this.muted.has(s.seat) ? "true" : "false",
                    onclick: () => this.toggleMute(s.seat),
                  },
                  t(this.muted.has(s.seat) ? "chat.unmute" : "chat.mute", { who: seatName(s.seat) }),
                ),
              ),
          );
    return h(
      "section",
      { class: "chat", id: "chat", "data-key": "chat" },
      h("h3", null, t(m.seat === null ? "chat.spectators" : "chat.title")),
      list,
      emotes,
      phrases,
      form,
      left,
      mutes,
    );
  }
}

// The server's limit on a free-text line (chat.h, kChatChars).
export const CHAT_CHARS = 200;

function leftText(draft: string): string {
  const n = CHAT_CHARS - draft.length;
  if (n > 40) return "";
  return n > 0 ? t("chat.left", { n }) : t("chat.full", { n: CHAT_CHARS });
}
