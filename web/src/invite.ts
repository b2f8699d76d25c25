// An invitation link (/?t=ID&i=TOKEN): the seat is claimed for this browser
// alone when its person sits down (the server gives it a token of its own;
// the link is used up), not when the link is opened: a look at the page, or
// a name asked and not given, must not spend the invitation. A person
// without a saved name is asked for one first, so the others see who came
// and a rated table can count the game.
import { api, savedTables, saveTable, myPlayer, saveMyPlayer, ApiError } from "./api";
import { badLink } from "./table";
import { gameName, tableUrl } from "./links";
import { h, clear } from "./dom";
import { t } from "./i18n";

function whyBad(e: unknown): string {
  const status = e instanceof ApiError ? e.status : 0;
  return status === 404
    ? "link.no_table"
    : status === 403 || status === 409 // 409: the seat's player has joined already
      ? "link.invite_used"
      : status === 400
        ? "link.damaged"
        : "link.try_again";
}

// route: shows the page the address now names.
export async function openInvite(
  root: HTMLElement,
  id: string,
  invite: string,
  go: (url: string) => void,
  route: () => void,
) {
  // A browser that holds a seat here already (its maker, or the friend
  // opening the link again) goes to that seat.
  const mine = savedTables().find((x) => x.id === id && x.seat >= 0);
  if (mine) {
    history.replaceState(null, "", tableUrl(id, mine.token));
    return route();
  }
  // The seat's view by the invitation itself, which spends nothing: the
  // game's name for the title, and whether the link still holds a seat.
  let game = "";
  try {
    const m = await api.state(id, invite);
    if (m.seat == null || m.seat < 0) return badLink(root, "link.invite_used", go);
    game = m.game;
  } catch (e) {
    return badLink(root, whyBad(e), go);
  }
  let sitting = false; // one claim: a second (a double click) would find the link spent
  const sitDown = async () => {
    if (sitting) return;
    sitting = true;
    try {
      const r = await api.claim(id, invite);
      // Kept at once: opened again in this browser, the link leads to the seat.
      saveTable({ id, token: r.token, game, seat: r.seat, created: Date.now(), invites: {}, spectate: "" });
      history.replaceState(null, "", tableUrl(id, r.token)); // a reload keeps the seat
      route();
    } catch (e) {
      badLink(root, whyBad(e), go);
    }
  };
  if (myPlayer()) return sitDown();
  askName(root, game, sitDown);
}

// "Your name" before the table (the game may start, clock and all, as soon
// as this seat joins); or sit down without one.
function askName(root: HTMLElement, game: string, sitDown: () => Promise<void>) {
  clear(root);
  const input = h("input", {
    id: "invite-name",
    maxlength: "32",
    autocomplete: "nickname",
    required: true,
  }) as HTMLInputElement;
  const err = h("p", { class: "error", role: "alert" });
  const sit = h("button", { class: "primary", id: "invite-sit" }, t("invite.sit")) as HTMLButtonElement;
  root.appendChild(
    h(
      "main",
      { class: "lobby" },
      h(
        "section",
        { class: "card invite" },
        h("h2", null, game ? t("invite.title_game", { game: gameName(game) }) : t("invite.title")),
        h(
          "form",
          {
            class: "qm-name",
            onsubmit: async (e: Event) => {
              e.preventDefault();
              if (sit.disabled) return;
              sit.disabled = true;
              try {
                saveMyPlayer(await api.createPlayer(input.value));
                await sitDown();
              } catch (x) {
                err.textContent = String((x as Error).message);
                sit.disabled = false;
              }
            },
          },
          h("label", { for: "invite-name" }, t("invite.name")),
          input,
          sit,
        ),
        err,
        h("button", { type: "button", class: "link", id: "invite-guest", onclick: () => sitDown() }, t("invite.guest")),
      ),
    ),
  );
  input.focus();
}
