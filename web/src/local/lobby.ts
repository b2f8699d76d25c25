// The lobby's games against the computer on this device (no server needed):
// the card the lobby shows beside the online games, and the whole lobby
// when no server answers (offline, or the app served by a static host).
import { h, clear } from "../dom";
import { t, hasKey } from "../i18n";
import { gameName, rulesUrl } from "../links";
import { badOption, optionField, optionKeys, seatCount } from "../options";
import { boardOf, FAMILIES, QUICK_GAMES } from "../boards/registry";
import { localGames, savedLocalGame, forgetLocalGame } from "./game";
import { LOCAL_SETUP_URL, LOCAL_URL, LocalGameInfo, startLocalGame } from "./play";

const LEVELS = ["beginner", "casual", "strong", "expert"];

type Info = LocalGameInfo & { catalogue: Record<string, unknown>; seats: number; summary: string };

function defaults(g: Info): Record<string, string> {
  const o: Record<string, string> = {};
  for (const k in g.options) o[k] = String(g.options[k]);
  return o;
}

// Starting replaces the game kept on this device: said before, not found out after.
function replacesNote(): HTMLElement[] {
  const kept = savedLocalGame();
  return kept?.moves.length
    ? [h("p", { class: "muted local-replaces" }, t("local.replaces", { game: gameName(kept.game) }))]
    : [];
}

// The kept game to go back to, and one click to a game of each family.
export function localCard(go: (url: string) => void, status: HTMLElement): HTMLElement {
  const card = h(
    "section",
    { class: "card local", id: "local-card" },
    h("h2", null, t("local.title")),
    h("p", { class: "muted" }, t("local.about")),
  );
  const kept = savedLocalGame();
  if (kept)
    card.appendChild(
      h(
        "p",
        { class: "local-resume" },
        h(
          "button",
          { class: "primary", id: "local-resume", onclick: () => go(LOCAL_URL) },
          t("local.resume", { game: gameName(kept.game) }),
        ),
        " ",
        h(
          "button",
          {
            class: "link",
            id: "local-forget",
            onclick: () => {
              forgetLocalGame();
              card.querySelector(".local-resume")?.remove();
              for (const e of document.querySelectorAll(".local-replaces")) e.remove();
            },
          },
          t("local.forget"),
        ),
      ),
    );
  const row = h("div", { class: "quick-row" });
  for (const name of QUICK_GAMES)
    row.appendChild(
      h(
        "button",
        {
          class: "quick-btn",
          "data-local": name,
          onclick: async () => {
            try {
              const g = (await localGames()).find((x) => x.name === name)!;
              const opts = defaults(g);
              const n = seatCount(g, opts);
              status.textContent = await startLocalGame(g, opts, ["you", ...Array(n - 1).fill("casual")], go);
            } catch (e) {
              status.textContent = String((e as Error).message);
            }
          },
        },
        h("strong", null, gameName(name)),
        h("span", null, t("local.quick")),
      ),
    );
  card.append(row, ...replacesNote());
  // With a server, the whole choice (every preset, option and level) is a page of its own.
  if (!document.getElementById("offline-note"))
    card.appendChild(
      h(
        "a",
        {
          class: "rules-link",
          id: "local-setup",
          href: LOCAL_SETUP_URL,
          onclick: (e: Event) => {
            e.preventDefault();
            go(LOCAL_SETUP_URL);
          },
        },
        t("local.setup"),
      ),
    );
  return card;
}

// The lobby with no server: what needs a connection, said plainly; the
// games against the computer, with every preset, option and bot level.
// online: opened from the lobby of a server that answers (LOCAL_SETUP_URL).
export async function renderLocalLobby(main: HTMLElement, go: (url: string) => void, online = false) {
  // A player's page and password, and the games to watch, live on a server: not offered here.
  for (const e of main.querySelectorAll("#my-page, #you-open, #you-panel, #watch-link")) e.remove();
  const status = h("p", { class: "error", role: "alert" });
  if (online)
    main.append(
      h(
        "a",
        { class: "rules-link", href: "/", onclick: (e: Event) => (e.preventDefault(), go("/")) },
        "‹ ",
        t("table.lobby"),
      ),
      status,
    );
  else
    main.append(
      h("p", { class: "notice offline-note", id: "offline-note", role: "status" }, t("local.offline_note")),
      status,
    );
  let all: Info[];
  try {
    all = await localGames();
  } catch (e) {
    status.textContent = t("local.no_engine", { error: String((e as Error).message) });
    return;
  }
  if (!online) main.appendChild(localCard(go, status));
  const form = h("section", { class: "card create" }, h("h2", null, t("local.setup")));
  main.appendChild(form);
  let game = all.find((g) => g.name === "latin") || all[0];
  let opts = defaults(game);
  let seats: string[] = [];
  const optBox = h("div", { class: "options" });
  const seatBox = h("div", { class: "seats" });
  const rules = h("a", { class: "rules-link", id: "preset-rules" });
  const pick = h(
    "select",
    {
      id: "local-game",
      "aria-label": t("lobby.game"),
      onchange: (e: Event) => {
        game = all.find((g) => g.name === (e.target as HTMLSelectElement).value)!;
        opts = defaults(game);
        startStatus.textContent = ""; // what was wrong with the last game's options is not this one's
        draw(true);
      },
    },
    FAMILIES.map((f) =>
      h(
        "optgroup",
        { label: t("family." + f) },
        all
          .filter((g) => g.family === f)
          .map((g) => h("option", { value: g.name, selected: g === game ? "" : null }, gameName(g.name))),
      ),
    ),
  );
  const draw = (reset: boolean) => {
    rules.setAttribute("href", rulesUrl(game.family, game.name));
    rules.textContent = t("rules.this_game", { game: gameName(game.name) });
    rules.onclick = (e: Event) => {
      e.preventDefault();
      go(rules.getAttribute("href")!);
    };
    clear(optBox);
    for (const k of optionKeys(game.family, game.options)) {
      const cat = game.catalogue[k];
      const onchange = (v: string) => {
        opts[k] = v;
        if (k === "players") draw(false);
      };
      optBox.appendChild(optionField(k, cat, opts, onchange));
    }
    const n = seatCount(game, opts);
    if (reset || seats.length !== n) seats = ["you", ...Array(n - 1).fill("casual")];
    clear(seatBox);
    const teams = !!boardOf(game.family).partnership?.(opts);
    seats.forEach((s, k) =>
      seatBox.appendChild(
        h(
          "div",
          { class: "seat-row" },
          h(
            "span",
            { class: "seat-label" },
            t("seat.n", { n: k + 1 }),
            teams ? h("small", null, " · ", t(k % 2 ? "team.b" : "team.a")) : null,
          ),
          k === 0
            ? h("span", null, t("seatkind.you"))
            : h(
                "select",
                { "data-seat": k, onchange: (ev: Event) => (seats[k] = (ev.target as HTMLSelectElement).value) },
                LEVELS.map((c) => h("option", { value: c, selected: c === s ? "" : null }, t("seatkind." + c))),
              ),
        ),
      ),
    );
  };
  const startStatus = h("p", { class: "error", role: "alert", id: "local-start-error" });
  const start = async () => {
    startStatus.textContent = badOption(optBox);
    if (!startStatus.textContent) startStatus.textContent = await startLocalGame(game, opts, seats, go);
  };

  form.append(
    h("h3", null, t("lobby.game")),
    pick,
    " ",
    rules,
    h("details", { class: "opt-details" }, h("summary", null, t("lobby.options")), optBox),
    h("h3", null, t("lobby.seats")),
    seatBox,
    ...replacesNote(),
    h("button", { class: "primary big", id: "local-start", onclick: start }, t("local.start")),
    startStatus,
  );
  draw(true);
}
