// Ratings in the app (issue 25, 7): the lobby's "Best players" per family
// (players and the bot levels) and a player's page at /?player=ID: ratings
// per family with their course over the last games, and recent games with
// replay links. Every name is text, never markup.
import { api } from "./api";
import { h, clear } from "./dom";
import { t, langPicker, currentLang } from "./i18n";
import { gameName, playerUrl } from "./links";
import { familyName, FAMILIES } from "./boards/registry";
import { playerActions } from "./friends";
import { appLink } from "./watch";

export interface RatingInfo {
  rating: number;
  rd: number;
  provisional: boolean;
  games: number;
  history?: { table: string; rating: number; rd: number; at: number }[];
}
interface Board {
  family: string;
  players: (RatingInfo & { id: string; name: string })[];
  bots: (RatingInfo & { level: string })[];
  // Every bot level's published rating, measured in duplicate arenas.
  levels?: { level: string; bot: boolean; published_rating: number }[];
  ranked_after?: { games: number; recent_days: number }; // who is listed in players
}
interface PlayerPage {
  id: string;
  name: string;
  ratings: Record<string, RatingInfo>;
  games: {
    table: string;
    game: string;
    seat: number;
    over: boolean;
    created: number;
    replay_page?: string;
    result?: "won" | "lost" | "drawn";
  }[];
  stats?: { won: number; lost: number; drawn: number }; // over the last 500 games
  live?: { table: string; game: string; watch_page: string }[];
}

// "1612 ± 84", with "?" while provisional.
export function ratingText(r: RatingInfo): string {
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""} ± ${Math.round(r.rd)}`;
}

// The lobby's card: a family's best players, then its bot levels.
export function leaderboardCard(go: (url: string) => void): HTMLElement {
  const list = h("div", { class: "board-list", "aria-live": "polite" });
  const pick = h(
    "select",
    { id: "board-family", "aria-label": t("board.family"), onchange: () => load() },
    FAMILIES.map((f) => h("option", { value: f }, familyName(f))),
  ) as HTMLSelectElement;
  // How sure a rating is, said where ratings are listed (not under "Nobody
  // is ranked yet").
  const note = h("p", { class: "muted", hidden: true }, t("board.provisional"));
  const load = async () => {
    clear(list);
    note.hidden = true;
    try {
      const b = await fetchJson<Board>(`/api/leaderboard?game=${pick.value}`);
      // Who is ranked, said: a player after a first rated game looked for themselves in vain.
      const after = b.ranked_after ?? { games: 10, recent_days: 30 };
      if (!b.players.length)
        list.appendChild(h("p", { class: "muted" }, t("board.none", { n: after.games, days: after.recent_days })));
      else
        list.appendChild(
          h(
            "ol",
            { class: "ranking" },
            b.players.map((p, i) =>
              h(
                "li",
                null,
                h("span", { class: "rank" }, `${i + 1}.`),
                h(
                  "a",
                  {
                    href: playerUrl(p.id),
                    onclick: (e: Event) => {
                      e.preventDefault();
                      go(playerUrl(p.id));
                    },
                  },
                  h("bdi", null, p.name),
                ),
                h("span", { class: "rating", title: p.provisional ? t("board.provisional") : null }, ratingText(p)),
                h("small", null, t("board.games", { n: p.games })),
              ),
            ),
          ),
        );
      if (b.bots.length)
        list.appendChild(
          h(
            "p",
            { class: "muted bots-rated" },
            t("board.bots"),
            " ",
            b.bots.map((x) => h("span", { class: "seat-chip" }, `${t("seatkind." + x.level)} ${ratingText(x)}`)),
          ),
        );
      if (b.levels?.length)
        list.appendChild(
          h(
            "p",
            { class: "muted bot-levels" },
            t("board.levels"),
            " ",
            b.levels.map((x) =>
              h("span", { class: "seat-chip" }, `${t("seatkind." + x.level)} ${Math.round(x.published_rating)}`),
            ),
          ),
        );
      note.hidden = !b.players.length && !b.bots.length;
    } catch (e) {
      list.appendChild(h("p", { class: "error" }, String((e as Error).message)));
    }
  };
  load();
  return h(
    "section",
    { class: "card leaderboard" },
    h("h2", null, t("board.title")),
    h("label", null, t("board.family"), " ", pick),
    list,
    note,
  );
}

async function fetchJson<T>(path: string): Promise<T> {
  const r = await fetch(path);
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j as T;
}

// The rating's course, oldest game first: a small line.
function course(history: NonNullable<RatingInfo["history"]>): SVGElement | null {
  const pts = [...history].reverse().map((p) => p.rating);
  if (pts.length < 2) return null;
  const w = 240,
    ht = 60,
    lo = Math.min(...pts) - 10,
    hi = Math.max(...pts) + 10;
  const xy = pts.map((r, i) => `${(i * w) / (pts.length - 1)},${ht - ((r - lo) * ht) / (hi - lo)}`).join(" ");
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${ht}`);
  svg.setAttribute("class", "course");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("player.course"));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", xy);
  svg.appendChild(line);
  return svg;
}

export class PlayerView {
  constructor(
    private root: HTMLElement,
    private id: string,
    private go: (url: string) => void,
  ) {
    this.render();
  }
  close() {}
  async render() {
    clear(this.root);
    const main = h("main", { class: "lobby player-page" });
    this.root.appendChild(main);
    main.appendChild(
      h(
        "header",
        { class: "lobby-top" },
        h(
          "a",
          {
            href: "/",
            class: "rules-link",
            onclick: (e: Event) => {
              e.preventDefault();
              this.go("/");
            },
          },
          "‹ ",
          t("table.lobby"),
        ),
        " ",
        langPicker(),
      ),
    );
    let p: PlayerPage;
    try {
      p = await fetchJson<PlayerPage>(`/api/players/${encodeURIComponent(this.id)}`);
    } catch (e) {
      main.appendChild(h("p", { class: "error", role: "alert" }, String((e as Error).message)));
      return;
    }
    main.appendChild(h("h1", { class: "player-name" }, h("bdi", null, p.name)));
    // Wins and losses: a game is won by the best result (partners share it).
    const s = p.stats;
    if (s && s.won + s.lost + s.drawn > 0) {
      const n = s.won + s.lost + s.drawn;
      main.appendChild(
        h(
          "section",
          { class: "card player-stats" },
          h("h2", null, t("player.stats")),
          h(
            "p",
            null,
            t(n === 1 ? "player.record_one" : "player.record", {
              n,
              won: s.won,
              lost: s.lost,
              drawn: s.drawn,
              pct: new Intl.NumberFormat(currentLang(), { style: "percent" }).format(s.won / n),
            }),
          ),
        ),
      );
    }
    // Their game being played, to watch (watch.ts); what I may do about them (friends.ts).
    if (p.live?.length)
      main.appendChild(
        h(
          "section",
          { class: "card live-games" },
          h("h2", null, t("watch.playing_now")),
          p.live.map((g) =>
            h(
              "p",
              null,
              gameName(g.game),
              " ",
              appLink(g.watch_page, this.go, { class: "watch-open" }, t("watch.open")),
            ),
          ),
        ),
      );
    const known = await api.games().catch(() => ({ games: [] }));
    const actions = playerActions(p.id, p.name, known.games, p.games);
    if (actions) main.appendChild(actions);
    const ratings = h("section", { class: "card" }, h("h2", null, t("player.ratings")));
    const fams = Object.keys(p.ratings);
    if (!fams.length) ratings.appendChild(h("p", { class: "muted" }, t("player.unrated")));
    for (const f of fams) {
      const r = p.ratings[f];
      ratings.appendChild(
        h(
          "div",
          { class: "player-rating", "data-family": f },
          h("h3", null, familyName(f)),
          h(
            "p",
            null,
            h("strong", { class: "rating", title: r.provisional ? t("board.provisional") : null }, ratingText(r)),
            " · ",
            t("board.games", { n: r.games }),
          ),
          course(r.history || []),
        ),
      );
    }
    if (fams.length) ratings.appendChild(h("p", { class: "muted" }, t("board.provisional")));
    main.appendChild(ratings);
    const games = h("ul", { class: "my-tables" });
    for (const g of p.games)
      games.appendChild(
        h(
          "li",
          null,
          gameName(g.game),
          " · ",
          t("seat.n", { n: g.seat + 1 }),
          " · ",
          // The month by name: "12/8/2026" reads two ways.
          new Date(g.created * 1000).toLocaleDateString(currentLang(), { dateStyle: "medium" }),
          " ",
          g.result ? h("span", { class: "result r-" + g.result }, t("player." + g.result), " ") : null,
          g.over && g.replay_page
            ? h(
                "a",
                {
                  href: g.replay_page,
                  onclick: (e: Event) => {
                    e.preventDefault();
                    this.go(g.replay_page!);
                  },
                },
                t("replay.open"),
              )
            : h("span", { class: "muted" }, t("player.in_play")),
        ),
      );
    main.appendChild(
      h(
        "section",
        { class: "card" },
        h("h2", null, t("player.games")),
        p.games.length ? games : h("p", { class: "muted" }, t("player.no_games")),
      ),
    );
  }
}
