// Watch (docs/server.md, "Watch") at /?watch: the games being played that
// anyone may watch, best rated first, each opened as a spectator (who sees
// what spectators see: no hand). Refreshed every few seconds. Every name is
// text, never markup.
import { api, ApiError } from "./api";
import { h, clear } from "./dom";
import { t, langPicker } from "./i18n";
import { gameName, playerUrl } from "./links";

export interface WatchSeat {
  seat: number;
  name: string | null;
  player_id?: string;
  bot?: string;
  rating?: number;
  provisional?: boolean;
}
export interface WatchGame {
  table: string;
  game: string;
  spectate: string;
  watch_page: string;
  rated: boolean;
  clock_s: number | null;
  seats: WatchSeat[];
}

export const WATCH_URL = "/?watch";
const EVERY_MS = 5000;

// A link that stays in the app (go) instead of reloading the page.
export function appLink(
  href: string,
  go: (url: string) => void,
  attrs: Record<string, unknown>,
  ...kids: (Node | string)[]
) {
  return h(
    "a",
    {
      ...attrs,
      href,
      onclick: (e: Event) => {
        e.preventDefault();
        go(href);
      },
    },
    ...kids,
  );
}

// "Ann 1612" ("1612?" while provisional), "Casual bot", "Guest".
function seatLabel(s: WatchSeat, go: (url: string) => void): Node {
  if (s.bot) return h("span", { class: "seat-chip bot" }, t("seatkind." + s.bot));
  const name = h("bdi", null, s.name || t("watch.guest"));
  const rating =
    s.rating !== undefined
      ? h(
          "span",
          { class: "rating", title: s.provisional ? t("board.provisional") : null },
          ` ${s.rating}${s.provisional ? "?" : ""}`,
        )
      : null;
  return s.player_id
    ? appLink(playerUrl(s.player_id), go, { class: "seat-chip" }, name, ...(rating ? [rating] : []))
    : h("span", { class: "seat-chip" }, name, rating);
}

export function watchRow(g: WatchGame, go: (url: string) => void): HTMLElement {
  return h(
    "li",
    { "data-table": g.table },
    h(
      "div",
      { class: "watch-head" },
      h("strong", null, gameName(g.game)),
      g.rated ? h("span", { class: "badge rated" }, t("watch.rated")) : null,
      g.clock_s ? h("span", { class: "badge" }, t("watch.clock", { s: g.clock_s })) : null,
    ),
    h(
      "div",
      { class: "watch-seats" },
      g.seats.map((s) => seatLabel(s, go)),
    ),
    appLink(g.watch_page, go, { class: "watch-open button-link" }, t("watch.open")),
  );
}

export class WatchPage {
  private timer = 0;
  private list = h("ol", { class: "watch-list", "aria-live": "polite" });
  private status = h("p", { class: "muted" });
  constructor(
    private root: HTMLElement,
    private go: (url: string) => void,
  ) {
    this.render();
    this.timer = window.setInterval(() => this.load(), EVERY_MS);
  }
  close() {
    window.clearInterval(this.timer);
  }
  render() {
    clear(this.root);
    const main = h(
      "main",
      { class: "lobby watch-page" },
      h(
        "header",
        { class: "lobby-top" },
        appLink("/", this.go, { class: "rules-link" }, "‹ ", t("table.lobby")),
        " ",
        langPicker(),
      ),
      h("h1", null, t("watch.title")),
      h("p", { class: "muted" }, t("watch.intro")),
      h("section", { class: "card" }, this.status, this.list),
    );
    this.root.appendChild(main);
    this.load();
  }
  private async load() {
    try {
      const games = ((await api.watch()).games || []) as WatchGame[];
      clear(this.list);
      for (const g of games) this.list.appendChild(watchRow(g, this.go));
      this.status.className = "muted";
      this.status.textContent = games.length ? t("watch.count", { n: games.length }) : t("watch.none");
    } catch (e) {
      // No game server here (a static host answers 404, offline nothing): said as such.
      const away = e instanceof ApiError && (e.status === 0 || e.status === 404);
      this.status.className = "error";
      this.status.textContent = away
        ? t("error.unreachable")
        : t("watch.error", { error: String((e as Error).message) });
    }
  }
}
