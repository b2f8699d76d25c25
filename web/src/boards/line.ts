// The line games (Latin dominoes, block, draw, all-fives...): one line of
// play with two open ends.
import { h } from "../dom";
import { t, hasKey, optValue } from "../i18n";
import { tileSvg, parseTile } from "../tiles";
import { Board, Ctx, drawsText, glossary, LogSink } from "./board";
import type { LineView } from "./view";

// What this table's rules give a tied block (the view's block_tie), in words.
function tieRule(c: Ctx<LineView>): string {
  const rule = String(c.v.block_tie || "");
  const key = rule === "closest_to_leader" && c.teams ? "tie.closest_to_leader_teams" : "tie." + rule;
  return hasKey(key) ? t(key) : "";
}

// Why this hand's leader leads, when a draw chose it (latin's draw before
// the deal): "Drawn for the lead: You 5|3, Seat 2 6|4, …. The most pips
// leads: Seat 2. …".
function leadDraws(c: Ctx<LineView>): string | null {
  if (!c.v.lead_draws) return null;
  const draws = drawsText(c, c.v.lead_draws, c.v.leader);
  // After the deal (draw_after_deal) the tiles drawn sleep; before it, they
  // went back into the shuffle, so a seat may hold one another drew.
  return t(c.v.drawn_for_lead ? "line.lead_draws_out" : "line.lead_draws", draws);
}

// The line laid as players lay it: the opening tile near the middle, each
// arm running to the table's edge, turning there (the turning tile stands
// across, as players turn it) and coming back the other way; the right arm
// turns down, the left arm up; doubles lie crosswise. Pure geometry in px.
export interface Laid {
  x: number;
  y: number;
  w: number;
  h: number;
  a: number;
  b: number;
  vertical: boolean;
  turn: boolean;
}
export function snake(
  tiles: [number, number][],
  opening: number,
  width: number,
  s: number,
): { laid: Laid[]; height: number } {
  const laid: Laid[] = new Array(tiles.length);
  const gap = Math.round(s * 0.25),
    pitch = 2 * s + gap; // row to row: a crosswise double and a little felt
  const [oa, ob] = tiles[opening];
  const od = oa === ob,
    ow = od ? s : 2 * s;
  const ox = Math.round((width - ow) / 2);
  laid[opening] = { x: ox, y: od ? -s : -s / 2, w: ow, h: od ? 2 * s : s, a: oa, b: ob, vertical: od, turn: false };
  // One arm: tiles in the order they lie away from the opening tile, each
  // as [near pip, far pip]; dir: +1 starts rightwards (turns down), -1 leftwards (turns up).
  const arm = (order: number[], near: (i: number) => [number, number], dir: number) => {
    let x = dir > 0 ? ox + ow : ox,
      row = 0,
      d = dir,
      afterTurn = false;
    const v = dir; // the right arm goes down, the left arm up
    for (const i of order) {
      const [p, q] = near(i);
      const dbl = p === q,
        w = dbl ? s : 2 * s,
        y = row * pitch;
      const fits = d > 0 ? x + w <= width - s : x - w >= s; // a tile's width kept free at the edge for the turn
      if (fits) {
        let left = d > 0 ? x : x - w;
        // A double just after a turn stands beside the turning tile, not under it.
        if (dbl && afterTurn) left = d > 0 ? x + s : x - 2 * s;
        laid[i] = dbl
          ? { x: left, y: y - s, w: s, h: 2 * s, a: p, b: q, vertical: true, turn: false }
          : { x: left, y: y - s / 2, w: 2 * s, h: s, a: d > 0 ? p : q, b: d > 0 ? q : p, vertical: false, turn: false };
        x = d > 0 ? left + w : left;
        afterTurn = false;
      } else {
        // The turn: the tile stands across the row's end, half in this row, half towards the next.
        const left = d > 0 ? x : x - s;
        laid[i] = {
          x: left,
          y: v > 0 ? y - s / 2 : y - 1.5 * s,
          w: s,
          h: 2 * s,
          a: v > 0 ? p : q,
          b: v > 0 ? q : p,
          vertical: true,
          turn: true,
        };
        row += v;
        d = -d;
        x = d > 0 ? left : left + s; // the next row starts under (or over) the turning tile
        afterTurn = true;
      }
    }
    return row;
  };
  const right: number[] = [],
    leftArm: number[] = [];
  for (let i = opening + 1; i < tiles.length; i++) right.push(i);
  for (let i = opening - 1; i >= 0; i--) leftArm.push(i);
  arm(right, (i) => [tiles[i][0], tiles[i][1]], 1);
  arm(leftArm, (i) => [tiles[i][1], tiles[i][0]], -1);
  const top = Math.min(...laid.map((t) => t.y)),
    bottom = Math.max(...laid.map((t) => t.y + t.h));
  for (const t of laid) t.y = Math.round(t.y - top);
  return { laid, height: Math.ceil(bottom - top) };
}

export const lineBoard: Board<LineView> = {
  // A redeal (five doubles) keeps the leader: said once, with the first deal.
  dealNote: (c, hand, again) => (c.v.hand_number === hand && !again ? leadDraws(c) : null),
  optionOrder: [
    "players",
    "target",
    "scoring",
    "single_hand",
    "set",
    "hand_size",
    "undealt",
    "first_leader",
    "next_leader",
    "block_winner",
    "block_tie",
    "bonuses",
  ],
  quick: "latin",
  teams: (v) => Array.isArray(v.hands) && v.hands.some((x) => x.side !== x.seat),
  partnership: (o) => o.players === "teams",
  sideWinners: true,
  scoreNote: (c) => (c.v.single_hand ? t("table.one_hand") : c.v.target ? t("table.target", { n: c.v.target }) : null),
  keys: (c) => t(c.v.boneyard > 0 ? "line.keys" : "line.keys_no_draw"),
  whichPlace: "line.which_end",
  // What a preset's options change (teams, set, target, scoring, tie).
  about(o) {
    const parts: string[] = [optValue(String(o.players ?? "teams") === "teams" ? "teams" : String(o.players))];
    if (/^\d+$/.test(String(o.players))) parts[0] = t("lobby.n_players", { n: String(o.players) });
    if (o.set && o.set !== "double-six") parts.push(optValue(String(o.set)));
    const sc = String(o.scoring ?? "");
    const n = String(o.target ?? "");
    parts.push(
      t(
        sc === "wins"
          ? "about.target_wins"
          : sc === "losers_own_pips"
            ? "about.target_lose"
            : sc === "cuban_tens"
              ? "about.target_tens"
              : "about.target_points",
        { n },
      ),
    );
    if (sc && sc !== "wins") parts.push(t("about.scoring", { what: optValue(sc).toLowerCase() }));
    if (o.block_tie) parts.push(t("about.tie", { what: optValue(String(o.block_tie)).toLowerCase() }));
    return parts.join(" · ");
  },
  draw(c: Ctx<LineView>) {
    const v = c.v;
    const tiles: [number, number][] = v.line.map((x: string) => parseTile(x));
    const n = tiles.length;
    const width = Math.max(160, Math.floor(c.width));
    const o =
      v.opening !== undefined && Number.isInteger(v.opening) && v.opening >= 0 && v.opening < n
        ? v.opening
        : Math.floor((n - 1) / 2);
    // The largest tiles whose snake fits the room the board has (about half
    // the screen's height), never under 16 px nor so big a row holds fewer than 4.
    const room = Math.max(120, c.screen.h * (c.small ? 0.38 : 0.45));
    let lay = { laid: [] as Laid[], height: 0 };
    let size = 16;
    if (n)
      for (size = Math.min(c.small ? 28 : 34, Math.floor(width / 10)); size >= 16; size -= 2) {
        lay = snake(tiles, o, width, size);
        if (lay.height <= room || size <= 16) break;
      }
    const line = h("div", {
      class: "line",
      "aria-label": t("line.the_line"),
      style: n ? `height:${lay.height}px` : "",
    });
    const why = n ? null : leadDraws(c);
    if (!n)
      line.appendChild(
        h(
          "p",
          { class: "muted" },
          v.must_lead ? t("line.must_lead", { tile: v.must_lead.replace("-", "|") }) : t("line.empty"),
          why ? [h("br"), why] : null,
        ),
      );
    lay.laid.forEach((p, i) => {
      const tile = v.line[i];
      line.appendChild(
        h(
          "span",
          {
            class:
              "lt" +
              (p.a === p.b ? " double" : "") +
              (p.turn ? " turn" : "") +
              (i === o ? " opening" : "") +
              (i === 0 ? " left-end" : "") +
              (i === n - 1 ? " right-end" : ""),
            "data-tile": tile,
            "data-key": "lt-" + tile,
            style: `left:${p.x}px;top:${p.y}px`,
          },
          tileSvg(p.a, p.b, { vertical: p.vertical, size }),
        ),
      );
    });
    const info = h("div", { class: "board-info" });
    if (v.ends) info.appendChild(h("span", null, t("line.ends", { l: v.ends[0], r: v.ends[1] })));
    if (v.boneyard > 0 || v.sleeping > 0)
      info.appendChild(h("span", { class: "boneyard" }, t("table.boneyard", { n: v.boneyard })));
    if (v.passes_in_row > 0) info.appendChild(h("span", { class: "tag" }, t("line.passes", { n: v.passes_in_row })));
    return [line, info];
  },

  diff(c: Ctx<LineView>, pv: LineView, v: LineView, actor: number | null, log: LogSink) {
    const who = (k: number | null) => (k === null ? "?" : c.f.seatName(c, k));
    if (v.line.length > pv.line.length && pv.hand_number === v.hand_number) {
      // Named as its move names it (higher number first), not as it lies in
      // the line: the log rebuilt from the moves after a reload says the same.
      const [a, b] = parseTile(v.line[0] !== pv.line[0] ? v.line[0] : v.line[v.line.length - 1]);
      log.push(t("log.played", { who: who(actor), tile: `${Math.max(a, b)}|${Math.min(a, b)}` }), actor);
    } else if (v.passes_in_row > pv.passes_in_row) {
      log.push(t("log.passed", { who: who(actor) }), actor, "pass");
      log.bubble(actor, t("move.pass"));
    }
    v.hands.forEach((hh, k) => {
      const d = hh.count - pv.hands[k].count;
      if (d > 0 && pv.hand_number === v.hand_number) {
        log.push(t("log.drew", { who: who(k), n: d }), k);
        log.bubble(k, t("bubble.drew", { n: d }));
      }
    });
  },

  summary(c: Ctx<LineView>, body: HTMLElement) {
    const v = c.v,
      lh = v.last_hand;
    if (!lh) return;
    const you = lh.last_placer === c.me ? "_you" : "";
    body.appendChild(
      h(
        "p",
        { class: "how" },
        // "You …" in the listener's grammar ("te quedaste", not "Tú se quedó").
        lh.end === "domino"
          ? t((lh.capicua ? "line.end_capicua" : "line.end_domino") + you, { who: c.f.seatName(c, lh.last_placer) })
          : t("line.end_block" + you, { who: c.f.seatName(c, lh.last_placer) }) +
              (lh.tied ? " " + t("line.tied") + " " + tieRule(c) : ""),
      ),
    );
    // The regional word just used, said in players' words, with its rules.
    const word = lh.end === "block" ? "tranque" : lh.capicua ? "capicua" : null;
    if (word) body.appendChild(glossary(word, "line", word === "tranque" ? "end" : "bonuses"));
    body.appendChild(
      h(
        "p",
        null,
        lh.winner_side === null
          ? t("summary.nobody")
          : t("summary.wins_hand", { who: c.f.sideName(c, lh.winner_side) }),
      ),
    );
    const tbl = h(
      "table",
      { class: "pips" },
      h("tr", null, h("th", null, t("summary.seat")), h("th", null, t("summary.pips_left"))),
    );
    // Who went out says so: a 0 alone is also a hand holding just 0|0.
    lh.pips.forEach((p: number, k: number) =>
      tbl.appendChild(
        h(
          "tr",
          null,
          h("td", null, c.f.seatName(c, k)),
          h("td", null, lh.end === "domino" && k === lh.last_placer ? t("summary.went_out") : p),
        ),
      ),
    );
    body.appendChild(tbl);
    // The hand's points (how they came, their sum) beside the running game score.
    const game: number[] = v.scores || c.msg.scores || [];
    const pts = h(
      "table",
      { class: "points" },
      h(
        "tr",
        null,
        h("th", null, t("summary.side")),
        h("th", null, t("summary.scored_for")),
        h("th", null, t("summary.hand_total")),
        h("th", null, t("summary.game_score")),
      ),
    );
    c.f.sideOrder(c, lh.total.length).forEach((s) => {
      const tot: number = lh.total[s];
      const parts: string[] = [];
      if (lh.pip_points[s])
        parts.push(t(v.scoring === "wins" ? "summary.wins_n" : "summary.for_pips", { n: lh.pip_points[s] }));
      for (const b of lh.bonuses)
        if (b.side === s)
          parts.push(
            t("summary.bonus", { n: b.points, name: hasKey("bonus." + b.bonus) ? t("bonus." + b.bonus) : b.bonus }),
          );
      pts.appendChild(
        h(
          "tr",
          null,
          h("td", null, c.f.sideName(c, s)),
          h("td", null, parts.join(" + ") || "—"),
          h("td", { class: "num" }, tot),
          h("td", { class: "num game-score" }, h("b", null, game[s] ?? "")),
        ),
      );
    });
    body.appendChild(pts);
  },

  prompt(c: Ctx<LineView>) {
    if (c.v.phase === "redeal") return t("line.redeal_prompt");
    if (c.v.phase === "choose_leader") return t("line.leader_prompt");
    return null;
  },
};
