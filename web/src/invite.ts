// An invitation link (/?t=ID&i=TOKEN): the seat is claimed for this browser
// alone (the server gives it a token of its own; the link is used up), and
// a person without a saved name is asked for one before sitting down, so
// the others see who came and a rated table can count the game.
import { api, savedTables, myPlayer, saveMyPlayer, ApiError } from "./api";
import { badLink } from "./table";
import { gameName, tableUrl } from "./links";
import { h, clear } from "./dom";
import { t } from "./i18n";

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
  try {
    const r = await api.claim(id, invite);
    history.replaceState(null, "", tableUrl(id, r.token)); // a reload keeps the seat
    if (myPlayer()) return route();
    // The game's name in the title: the table's state, now this seat's to ask.
    const game = await api.state(id, r.token).then(
      (m) => m.game,
      () => "",
    );
    askName(root, game, route);
  } catch (e) {
    const status = e instanceof ApiError ? e.status : 0;
    const why =
      status === 404
        ? "link.no_table"
        : status === 403 || status === 409 // 409: the seat's player has joined already
          ? "link.invite_used"
          : status === 400
            ? "link.damaged"
            : "link.try_again";
    badLink(root, why, go);
  }
}

// "Your name" before the table (the game may start, clock and all, as soon
// as this seat joins); or sit down without one.
function askName(root: HTMLElement, game: string, route: () => void) {
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
                route();
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
        h("button", { type: "button", class: "link", id: "invite-guest", onclick: () => route() }, t("invite.guest")),
      ),
    ),
  );
  input.focus();
}
