// Mexican Train: an engine, a train per player and the Mexican train.
import { h } from "../dom";
import { t } from "../i18n";
import { tileFrom, tileSvg, parseTile } from "../tiles";
import { Board, Ctx, LogSink } from "./board";
import type { MexicanTrainView } from "./view";

// A train's marker: "open", with what that means (a fresh pair of eyes
// never learnt it at the table).
function markerTag(): HTMLElement {
  return h(
    "span",
    { class: "tag marker", title: t("mt.marker_help"), "aria-label": t("mt.marker_help") },
    t("mt.marker"),
  );
}

export const mexicanTrainBoard: Board<MexicanTrainView> = {
  optionOrder: [
    "players",
    "rounds",
    "single_hand",
    "set",
    "hand_size",
    "engine",
    "multiple_doubles",
    "blank_double_50",
  ],
  roundsNotHands: true,
  quick: "mexican-train",
  seatScores: true, // four seats play each for themselves
  scoreNote: () => t("mt.lowest_wins"),
  handLabel: (v) => t("table.round", { n: v.round, of: v.rounds }),
  handNumber: (v) => v.round,
  whichPlace: "mt.which_train",
  // Spec Setup: the start player places the engine from their hand (drawing
  // until they hold a double), or the round's double is set out (round_doubles).
  dealNote(c: Ctx<MexicanTrainView>, round: number) {
    const v = c.v;
    if (!v.engine || v.round !== round || v.phase === "deal") return null;
    const tile = v.engine.replace("-", "|");
    if (v.engine_seat === null || v.engine_seat === undefined) return t("log.engine_is", { tile });
    const who = c.f.seatName(c, v.engine_seat);
    return v.engine_draws
      ? t("log.engine_placed_drew", { who, n: v.engine_draws, tile })
      : t("log.engine_placed", { who, tile });
  },
  draw(c: Ctx<MexicanTrainView>) {
    const v = c.v;
    // 24 px on a phone: at 22 the ten-to-twelve-pip halves were hard to count.
    const size = c.small ? 24 : 26;
    if (!v.trains || !v.engine) {
      // A game over with no trains (a game that ended before any round was laid): the last round's result.
      if (v.phase === "game_over" && v.last_round) {
        const body = h("div", { class: "final-round" });
        mexicanTrainBoard.summary(c, body);
        return [h("h3", null, t("mt.final_round", { n: v.last_round.round })), body];
      }
      return [h("p", { class: "muted" }, t("table.dealing"))];
    }
    const station = h(
      "div",
      { class: "station" },
      h("span", null, t("mt.engine")),
      tileFrom(v.engine, { vertical: true, size: size + 4 }),
      h("span", { class: "boneyard" }, t("table.boneyard", { n: v.boneyard })),
    );
    const trains = h("div", { class: "trains" });
    const order = [...v.trains].sort((a, b) => (a.train === c.me ? -1 : b.train === c.me ? 1 : 0));
    const legalTrains = new Set(c.msg.legal.map((m) => /:(M|T\d+)$/.exec(m)?.[1]).filter(Boolean));
    for (const tr of order) {
      const key = tr.train === "M" ? "M" : "T" + tr.train;
      const row = h(
        "div",
        {
          class:
            "train" +
            (tr.train === c.me ? " mine" : "") +
            (tr.train === "M" ? " mexican" : "") +
            (legalTrains.has(key) ? " playable" : ""),
          "data-train": key,
          "data-key": "train-" + key,
        },
        h(
          "div",
          { class: "train-label" },
          c.f.trainName(c, tr.train),
          tr.marker ? markerTag() : null,
          tr.open_double
            ? h(
                "span",
                { class: "tag red", title: t("mt.open_double_help"), "aria-label": t("mt.open_double_help") },
                t("mt.open_double"),
              )
            : null,
        ),
      );
      const tiles = h("div", { class: "train-tiles" });
      if (!tr.tiles.length)
        tiles.appendChild(
          h(
            "span",
            { class: "muted" },
            tr.train === "M" && !tr.started ? t("mt.not_started") : t("mt.empty", { pip: tr.end }),
          ),
        );
      // The newest tiles a row holds beside its label (one line), the rest counted.
      // Beside the label column (style.css: 86 px on a phone, else 160), the gap, the padding and "N earlier".
      const fit = Math.max(3, Math.floor((c.width - (c.screen.w <= 700 ? 86 : 160) - 100) / (2 * size + 2)));
      const shown = tr.tiles.length > fit ? tr.tiles.slice(-(fit - 1)) : tr.tiles;
      if (shown.length < tr.tiles.length)
        tiles.appendChild(h("span", { class: "more" }, t("mt.earlier", { n: tr.tiles.length - shown.length })));
      for (const tile of shown) {
        const [a, b] = parseTile(tile);
        tiles.appendChild(h("span", { class: "tt", "data-tile": tile }, tileSvg(a, b, { vertical: a === b, size })));
      }
      row.appendChild(tiles);
      trains.appendChild(row);
    }
    return [station, trains];
  },

  diff(c: Ctx<MexicanTrainView>, pv: MexicanTrainView, v: MexicanTrainView, actor: number | null, log: LogSink) {
    const who = (k: number | null) => (k === null ? "?" : c.f.seatName(c, k));
    if (pv.trains && v.trains && pv.round === v.round)
      v.trains.forEach((tr, i) => {
        const old = pv.trains?.[i];
        if (old && tr.tiles.length > old.tiles.length)
          for (const tile of tr.tiles.slice(old.tiles.length))
            log.push(
              t("log.laid_on", {
                who: who(actor),
                tile: tile.replace("-", "|"),
                train: c.f.trainName(c, tr.train, true),
              }),
              actor,
            );
        // A marker comes only when nothing fitted (even the tile drawn): the
        // public log says "drew 1" and no more, so the board says why the
        // turn ended (kept beside the served log, as a trick's winner is).
        if (old && tr.marker && !old.marker && tr.train !== "M")
          log.push(t("log.train_open", { train: c.f.trainName(c, tr.train, true) }), Number(tr.train), "hand");
      });
    if (pv.round === v.round)
      v.hands.forEach((hh, k) => {
        const d = hh.count - pv.hands[k].count;
        if (d > 0) {
          log.push(t("log.drew", { who: who(k), n: d }), k);
          log.bubble(k, t("bubble.drew", { n: d }));
        }
      });
  },

  summary(c: Ctx<MexicanTrainView>, body: HTMLElement) {
    const v = c.v,
      lr = v.last_round;
    if (!lr) return;
    body.appendChild(
      h(
        "p",
        { class: "how" },
        lr.end === "domino"
          ? lr.out_seat === c.me
            ? t("mt.end_domino_you")
            : t("mt.end_domino", { who: c.f.seatName(c, lr.out_seat ?? 0) })
          : t("mt.end_blocked"),
      ),
    );
    const tbl = h(
      "table",
      { class: "points" },
      h(
        "tr",
        null,
        h("th", null, t("summary.seat")),
        h("th", null, t("mt.tiles_left")),
        h("th", null, t("mt.penalty")),
        h("th", null, t("summary.game_score")),
      ),
    );
    lr.penalty.forEach((p: number, k: number) =>
      tbl.appendChild(
        h(
          "tr",
          null,
          h("td", null, c.f.seatName(c, k)),
          h("td", null, lr.tiles_left[k]),
          h("td", null, p),
          h("td", null, h("b", null, v.scores[k])),
        ),
      ),
    );
    body.appendChild(tbl);
  },

  prompt(c: Ctx<MexicanTrainView>) {
    // An open double comes first (spec Play 5); in the opening turn only one
    // on my own train binds me (the others' chains wait for their turns).
    const open = c.v.open_doubles || [];
    if (open.length && (!c.v.opening_turn || open.includes(c.me ?? -1)))
      return t("mt.cover_prompt", { train: c.f.trainName(c, c.v.opening_turn ? (c.me ?? 0) : open[0], true) });
    if (!c.v.opening_turn) return null;
    // The opening turn's one move left: a draw (nothing fits), or its end.
    const only = c.msg.legal.length === 1 ? c.msg.legal[0] : "";
    return t(only === "draw" ? "mt.opening_draw" : only === "end_opening" ? "mt.opening_done" : "mt.opening_prompt");
  },

  seatTags(c: Ctx<MexicanTrainView>, k: number) {
    const tr = c.v.trains?.find((x) => x.train === k);
    return tr?.marker ? [markerTag()] : [];
  },
};
