// The live table's own views: the name asked when sitting down, the links
// to share, "leave the table?", which end or train, the waiting room. Pure
// functions of what the controller (table.ts) hands them.
import { h } from "../dom";
import { t } from "../i18n";
import { tileFrom } from "../tiles";
import { Ctx } from "../boards/board";
import { boardOf } from "../boards/registry";
import { chooserKey } from "./keys";
import { isolate, words } from "./words";

// A dialog over the table; a click beside it closes it.
function overlay(close: (() => void) | null, dialog: HTMLElement): HTMLElement {
  return h(
    "div",
    {
      class: "overlay",
      onclick: (e: Event) => {
        if (close && e.target === e.currentTarget) close();
      },
    },
    dialog,
  );
}

export interface Naming {
  busy: boolean;
  error: string;
  sat: boolean;
  taken: string; // the name typed, when the server gave another
}

// Sitting down: a name is asked once per browser (then remembered);
// afterwards the seat shows whose it is. Null when there is nothing to say.
export function nameBar(c: Ctx, naming: Naming, remembered: boolean, save: (name: string) => void): HTMLElement | null {
  if (c.me === null) return null;
  const name = c.msg.seats[c.me]?.name;
  if (name)
    return h(
      "p",
      { class: "my-name", id: "my-name" },
      t("name.playing_as", { name: isolate(name) }),
      naming.taken
        ? h("span", { class: "muted name-taken" }, " ", t("name.taken", { typed: isolate(naming.taken) }))
        : null,
    );
  if (c.msg.status === "over") return null; // a finished game's names stay as they were
  // Alone with bots nobody reads the name (my seat says "You"): the form
  // would only take a phone's room above the game.
  if (c.msg.seats.every((s, k) => k === c.me || s.player.startsWith("bot"))) return null;
  if (remembered && naming.sat && !naming.error) return null;
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
        save((field ?? input).value);
      },
    },
    h("label", { for: "name-input" }, t("name.label")),
    input,
    h("button", { class: "small", id: "name-save", type: "submit", disabled: naming.busy }, t("name.save")),
    naming.error ? h("span", { class: "error", role: "alert" }, naming.error) : null,
  );
}

// A link to copy: an invitation, the spectators' link.
export function linkRow(label: string, url: string, id: string): HTMLElement {
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

// Whether the share links hold an invitation (a seat that waits for
// someone), not the watching link alone: the button and its dialog say so.
export function invites(links: [string, string, string][]): boolean {
  return links.some(([, , id]) => id.startsWith("invite"));
}

export function shareDialog(links: [string, string, string][], close: () => void): HTMLElement {
  return overlay(
    close,
    h(
      "div",
      { class: "dialog", role: "dialog", "aria-modal": "true" },
      // With no seat left to invite to (a table of bots), the dialog is the
      // watching link's alone, and says so.
      h("h3", null, t(invites(links) ? "table.share_title" : "table.share_watch_title")),
      links.map(([label, url, id]) => linkRow(label, url, "share-" + id)),
      h("div", { class: "choices" }, h("button", { class: "primary", onclick: close }, t("common.close"))),
    ),
  );
}

// Leaving a game in play: a bot takes the seat after a while; said first.
export function leaveDialog(stay: () => void, go: () => void): HTMLElement {
  return overlay(
    stay,
    h(
      "div",
      { class: "dialog leave", role: "dialog", "aria-modal": "true" },
      h("h3", null, t("leave.title")),
      h("p", null, t("leave.text")),
      h(
        "div",
        { class: "choices" },
        h("button", { class: "primary", id: "leave-stay", onclick: stay }, t("leave.stay")),
        h("button", { class: "action", id: "leave-go", onclick: go }, t("leave.go")),
      ),
    ),
  );
}

// Which end (a line game) or which train (Mexican Train) a tile goes on.
export function chooserDialog(
  c: Ctx,
  ch: { tile: string; moves: string[] },
  send: (mv: string) => void,
  cancel: () => void,
): HTMLElement {
  return overlay(
    cancel,
    h(
      "div",
      { class: "dialog chooser", role: "dialog", "aria-modal": "true" },
      h("h3", null, t(boardOf(c.family).whichPlace ?? "line.which_end")),
      tileFrom(ch.tile, { size: 40 }),
      h(
        "div",
        { class: "choices" },
        ch.moves.map((mv, i) =>
          h(
            "button",
            { class: "action", "data-move": mv, onclick: () => send(mv) },
            h("kbd", null, chooserKey(c, mv, i)),
            " ",
            words.moveLabel(c, mv),
          ),
        ),
      ),
      h("button", { class: "link", onclick: cancel }, t("common.cancel")),
    ),
  );
}

// A table still waiting for people: who, and the links to send them.
export function waitingRoom(
  c: Ctx,
  invites: Record<string, string>,
  spectate: string,
  invite: (token: string) => string,
  url: (token: string) => string,
): HTMLElement {
  const box = h("section", { class: "card waiting" }, h("h2", null, t("table.waiting")));
  const missing = c.msg.waiting_for || [];
  box.appendChild(h("p", null, t("table.waiting_for", { who: missing.map((k) => words.seatName(c, k)).join(", ") })));
  for (const k of Object.keys(invites))
    if (missing.includes(Number(k)))
      box.appendChild(
        linkRow(t("table.invite_for", { who: t("seat.n", { n: Number(k) + 1 }) }), invite(invites[k]), "invite-" + k),
      );
  if (spectate) box.appendChild(linkRow(t("table.spectate_link"), url(spectate), "spectate"));
  return box;
}
