// The lobby's "Your tables": the tables opened in this browser, each with
// where it stands, asked of the server.

import { api, savedTables, forgetTable, type StateMsg } from "./api";
import { h } from "./dom";
import { currentLang, t } from "./i18n";
import { boardOf } from "./boards/registry";
import { makeCtx } from "./table/view";
import { words } from "./table/words";
import { gameName, tableUrl } from "./links";

// Your tables, each with where it stands (asked of the server): high in the
// lobby, where a player coming back to a game looks first.
export function myTablesCard(go: (url: string) => void, redraw: () => void): HTMLElement | null {
  const mine = savedTables();
  if (mine.length) {
    const list = h("ul", { class: "my-tables" });
    for (const s of mine)
      list.appendChild(
        h(
          "li",
          null,
          h(
            "a",
            {
              href: tableUrl(s.id, s.token),
              onclick: (ev: Event) => {
                ev.preventDefault();
                go(tableUrl(s.id, s.token));
              },
            },
            gameName(s.game),
            " · ",
            s.seat >= 0 ? t("lobby.my_seat", { n: s.seat + 1 }) : t("table.spectator"),
          ),
          h(
            "span",
            { class: "when" },
            new Date(s.created).toLocaleString(currentLang(), { dateStyle: "medium", timeStyle: "short" }),
          ),
          tableStatus(s.id, s.token),
          h(
            "button",
            {
              class: "link",
              onclick: () => {
                forgetTable(s.id);
                redraw();
              },
            },
            t("lobby.forget"),
          ),
        ),
      );
    return h("section", { class: "card my-tables-card" }, h("h2", null, t("lobby.my_tables")), list);
  }
  return null;
}

// "In play · hand 3 · 120–85", "Over: you won", "Waiting for players", or why
// the table cannot be reached; filled in when the server answers.
function tableStatus(id: string, token: string): HTMLElement {
  const el = h("span", { class: "status", "data-table": id }, "…");
  api.state(id, token).then(
    (m) => {
      const board = m.view ? boardOf(m.view.family) : null;
      const own =
        m.view && board
          ? board.listScores
            ? board.listScores(m.view)
            : "scores" in m.view
              ? m.view.scores
              : null
          : null;
      // Each score with whose it is ("Us 120, Them 85", "Ann 3, Bob 5"; a
      // spectator's "Team A"): a bare "120, 85" said nothing of whose.
      // Commas, not dashes: a score may be negative (Dice & Dominoes' chips).
      const c = makeCtx(m, 0);
      const all: number[] = own || m.scores || [];
      const scores = words
        .sideOrder(c, all.length)
        .map((k) => `${words.sideName(c, k)} ${all[k]}`)
        .join(", ");
      // A bot plays the seat of who left; a game it finished says so: it
      // is not a win or a loss of your own play.
      const away = m.seat !== null && m.seats[m.seat]?.autopilot;
      if (m.status === "waiting") el.textContent = t("mine.waiting");
      else if (m.status === "broken") el.textContent = t("mine.broken");
      else if (m.status === "over") {
        const r = m.returns || [];
        const key = (r[m.seat ?? -1] ?? 0) > 0 ? "won" : "lost";
        el.textContent =
          m.seat !== null && r.length
            ? t(away ? `mine.${key}_by_bot` : `mine.${key}`, { scores })
            : t("mine.over", { scores });
      } else {
        el.textContent = t(away ? "mine.bot_plays" : "mine.playing", { n: (m.hands_finished ?? 0) + 1, scores });
      }
      el.classList.add(m.status);
    },
    () => {
      el.textContent = t("mine.gone");
      el.classList.add("gone");
    },
  );
  return el;
}

// A game of mine in play, in a bar at the foot of the screen: on a phone
// "Your tables" lies a screen or two below, and a seat's clock may be
// running. The newest few seats are asked; the banner stays empty unless one
// is in play. It floats over the lobby (css/base.css): it fills in late.
export function inPlayBanner(go: (url: string) => void): HTMLElement {
  const box = h("div", { class: "in-play", id: "in-play", role: "status" });
  const seats = savedTables()
    .filter((s) => s.seat >= 0)
    .slice(0, 5);
  Promise.all(
    seats.map((s) =>
      api.state(s.id, s.token).then(
        (m) => ({ s, m }),
        () => null,
      ),
    ),
  ).then((all) => {
    const live = all.filter((x) => x && x.m.status === "playing") as { s: (typeof seats)[0]; m: StateMsg }[];
    const pick = live.find((x) => x.m.to_act) ?? live[0];
    if (!pick) return;
    const url = tableUrl(pick.s.id, pick.s.token);
    box.append(
      h("span", null, t(pick.m.to_act ? "mine.banner_turn" : "mine.banner", { game: gameName(pick.s.game) })),
      " ",
      h(
        "span",
        { class: "in-play-actions" },
        h("button", { class: "primary", id: "in-play-open", onclick: () => go(url) }, t("mine.back")),
        // It floats over the lobby's foot: one tap puts it away for this visit.
        h(
          "button",
          { class: "link", id: "in-play-hide", onclick: () => box.classList.remove("shown") },
          t("mine.hide"),
        ),
      ),
    );
    box.classList.add("shown");
  });
  return box;
}
