// Table chat (docs/server.md, "Chat"): the seats talk among themselves, the
// spectators apart. Quick phrases travel as ids and are worded in each
// viewer's language; free text is shown as text, never as HTML. Lines go
// over the table's WebSocket while it is open, else by POST. Muting a
// seat is this viewer's own choice, remembered per table in this browser.
import { h } from "./dom";
import { t } from "./i18n";
import { api, StateMsg } from "./api";
import { isBlocked } from "./friends";

export interface ChatLine {
  n: number;
  seat: number | null;
  text?: string;
  phrase?: string;
  at: number;
}
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

export class ChatBox {
  private draft = "";
  private busy = false;
  private muted: Set<number>;
  private key: string;
  // viaSocket: sends a line over the table's open WebSocket (false when it is
  // not open: then the line goes by POST). Its errors come back on the socket.
  constructor(
    private id: string,
    private token: string,
    private onError: (e: string) => void,
    private redraw: () => void,
    private viaSocket: (line: { text?: string; phrase?: string }) => boolean = () => false,
  ) {
    this.key = `boneyard.mute.${id}`;
    let saved: number[] = [];
    try {
      saved = JSON.parse(localStorage.getItem(this.key) || "[]");
    } catch {
      saved = [];
    }
    this.muted = new Set(Array.isArray(saved) ? saved.filter((x) => typeof x === "number") : []);
  }

  private async say(body: { text?: string; phrase?: string }) {
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
    for (const l of lines) {
      if (l.seat !== null && this.muted.has(l.seat)) continue;
      // A player I block: their lines are hidden for me (friends.ts).
      if (l.seat !== null && isBlocked(m.seats[l.seat]?.player_id)) continue;
      const who = l.seat === null ? t("chat.spectator") : seatName(l.seat);
      const words = l.phrase ? t("chat.phrase." + l.phrase) : l.text || "";
      list.appendChild(
        h(
          "li",
          { "data-key": "chat-" + l.n, "data-n": l.n, class: l.phrase ? "phrase" : "text" },
          h("b", null, who),
          " ",
          h("span", { class: "chat-text" }, words),
        ),
      );
    }
    const input = h("input", {
      id: "chat-input",
      type: "text",
      maxlength: 200,
      value: this.draft,
      placeholder: t("chat.placeholder"),
      "aria-label": t("chat.placeholder"),
      oninput: (e: Event) => {
        this.draft = (e.target as HTMLInputElement).value;
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
      PHRASES.map((p) =>
        h(
          "button",
          { type: "button", class: "small phrase", "data-phrase": p, onclick: () => this.say({ phrase: p }) },
          t("chat.phrase." + p),
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
      phrases,
      form,
      mutes,
    );
  }
}
