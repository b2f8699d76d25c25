// Playing with strangers at a live table (issue 34): the rematch by
// consent (offer, accept, decline; nobody is moved without accepting), the
// ratings and their changes in the game-over dialog, the abort of a game
// that never really started, and my own clock beside my own name.
import { api, Rematch } from "../api";
import { h } from "../dom";
import { t } from "../i18n";
import { clockTag } from "../clock";
import { ratingChanges, ratingTag } from "../terms";
import type { Ctx } from "../boards/board";
import { words } from "./words";

export class Strangers {
  private asked = false; // this page offered or accepted a rematch
  private declined = false; // an offer this page took part in ended
  private busy = false;

  constructor(
    private id: string,
    private token: string,
    private redraw: () => void,
    private onError: (e: string) => void,
    private follow: (r: Rematch) => void,
  ) {}

  // "Play again" and "Accept": the same request; the answer is the new
  // table once everyone accepted, else the offer as it stands.
  async offer() {
    if (this.busy) return;
    this.busy = true;
    try {
      const r = await api.rematch(this.id, this.token);
      this.asked = true;
      this.declined = false;
      if ("table" in r && r.token && r.seat !== null) this.follow(r);
    } catch (e) {
      this.onError(String((e as Error).message));
    }
    this.busy = false;
    this.redraw();
  }

  async decline() {
    try {
      await api.rematch(this.id, this.token, false);
    } catch (e) {
      this.onError(String((e as Error).message));
    }
    this.redraw();
  }

  async abort() {
    try {
      await api.abort(this.id, this.token);
    } catch (e) {
      this.onError(String((e as Error).message));
    }
  }

  // The game-over dialog, as end.ts built it: the ratings' changes (or why
  // the game was not rated) first, and "Play again" as a rematch offer.
  decorate(dialog: HTMLElement, c: Ctx) {
    const body = dialog.querySelector(".summary-body");
    const rc = ratingChanges(c.msg, (k) => words.seatName(c, k));
    if (rc && body) body.prepend(rc);
    const btn = dialog.querySelector<HTMLButtonElement>("#rematch");
    const m = c.msg;
    const note = (text: string, id: string) => h("p", { class: "rematch-note", id, role: "status" }, text);
    if (this.asked && !m.rematch_offer && !m.rematch) this.declined = true;
    if (this.declined && !m.rematch_offer) this.asked = false;
    let box: HTMLElement | null = null;
    if (m.rematch && !(m.rematch.token && m.seat !== null)) {
      // Made without me (I did not accept), or I only watch: never pulled away.
      box = note(t("rematch.started"), "rematch-started");
      if (m.seat === null && m.rematch.token)
        box.appendChild(
          h(
            "button",
            { class: "action", id: "watch-rematch", onclick: () => this.follow(m.rematch!) },
            t("watch.rematch"),
          ),
        );
      btn?.remove();
    } else if (m.rematch_offer && c.me !== null) {
      const yes = m.rematch_offer.accepted;
      if (yes.includes(c.me)) {
        box = note(t("rematch.waiting"), "rematch-waiting");
        if (btn) btn.disabled = true;
      } else {
        const who = yes.map((k) => words.seatName(c, k)).join(", ");
        box = note(t("rematch.offer", { who }), "rematch-offer");
        if (btn) btn.textContent = t("rematch.accept");
        btn?.after(
          h("button", { class: "action", id: "rematch-decline", onclick: () => this.decline() }, t("rematch.decline")),
        );
      }
    } else if (this.declined) box = note(t("rematch.declined"), "rematch-declined");
    if (box && body) body.prepend(box);
  }

  // Beside the turn's words: my own clock under my own name, never beside
  // another's; and the abort of a game that never really started.
  turnExtras(c: Ctx): (HTMLElement | null)[] {
    const out: (HTMLElement | null)[] = [];
    if (c.me !== null) {
      const mine = clockTag(c.msg, c.me);
      const rating = ratingTag(c.msg.seats[c.me]?.rated ?? c.msg.seats[c.me]?.rating);
      if (mine || rating)
        out.push(
          h(
            "span",
            { class: "my-seat", "data-seat": c.me },
            // "You: extra time 30 s" (bare, "You extra time 30 s" read as one broken phrase).
            h("span", { class: "my-seat-name" }, words.seatName(c, c.me) + ":"),
            rating ? " " : null,
            rating,
            mine ? " " : null,
            mine,
          ),
        );
    }
    const ab = c.msg.abortable;
    if (ab && c.me !== null && c.me !== ab.idle_seat && c.msg.status === "playing")
      out.push(
        h(
          "span",
          { class: "abort-box" },
          h("span", { class: "abort-why" }, t("abort.why", { who: words.seatName(c, ab.idle_seat) })),
          " ",
          h("button", { class: "action small", id: "abort", onclick: () => this.abort() }, t("abort.button")),
        ),
      );
    return out;
  }
}

// An aborted table: why, and the way back.
export function abortedCard(toLobby: () => void): HTMLElement {
  return h(
    "div",
    { class: "card aborted", id: "aborted", role: "status" },
    h("p", null, t("abort.done")),
    h("button", { class: "primary", onclick: toLobby }, t("link.to_lobby")),
  );
}
