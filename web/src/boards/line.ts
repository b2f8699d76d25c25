// The line games (Latin dominoes, block, draw, all-fives...): one line of
// play with two open ends.
import { View } from "../api";
import { h } from "../dom";
import { t, hasKey } from "../i18n";
import { tileSvg, parseTile } from "../tiles";
import { Board, Ctx, LogSink } from "./board";

// What this table's rules give a tied block (the view's block_tie), in words.
function tieRule(c: Ctx): string {
  const rule = String(c.v.block_tie || "");
  const key = rule === "closest_to_leader" && c.teams ? "tie.closest_to_leader_teams" : "tie." + rule;
  return hasKey(key) ? t(key) : "";
}

export const lineBoard: Board = {
  draw(c: Ctx) {
    const v = c.v;
    const size = c.small ? (v.line.length > 14 ? 16 : v.line.length > 8 ? 20 : 26) : v.line.length > 18 ? 26 : 32;
    const line = h("div", { class: "line", "aria-label": t("line.the_line") });
    if (!v.line.length) line.appendChild(h("p", { class: "muted" }, v.must_lead ? t("line.must_lead", { tile: v.must_lead.replace("-", "|") }) : t("line.empty")));
    v.line.forEach((tile: string, i: number) => {
      const [a, b] = parseTile(tile);
      line.appendChild(h("span", { class: "lt" + (a === b ? " double" : "") + (i === 0 ? " left-end" : "") + (i === v.line.length - 1 ? " right-end" : ""), "data-tile": tile, "data-key": "lt-" + tile },
        tileSvg(a, b, { vertical: a === b, size })));
    });
    const info = h("div", { class: "board-info" });
    if (v.ends) info.appendChild(h("span", null, t("line.ends", { l: v.ends[0], r: v.ends[1] })));
    if (v.boneyard > 0 || v.sleeping > 0) info.appendChild(h("span", { class: "boneyard" }, t("table.boneyard", { n: v.boneyard })));
    if (v.passes_in_row > 0) info.appendChild(h("span", { class: "tag" }, t("line.passes", { n: v.passes_in_row })));
    return [line, info];
  },

  diff(c: Ctx, pv: View, v: View, actor: number | null, log: LogSink) {
    const who = (k: number | null) => (k === null ? "?" : c.f.seatName(c, k));
    if (v.line.length > pv.line.length && pv.hand_number === v.hand_number) {
      const tile = v.line[0] !== pv.line[0] ? v.line[0] : v.line[v.line.length - 1];
      log.push(t("log.played", { who: who(actor), tile: tile.replace("-", "|") }), actor);
    } else if (v.passes_in_row > pv.passes_in_row) {
      log.push(t("log.passed", { who: who(actor) }), actor, "pass");
      log.bubble(actor, t("move.pass"));
    }
    v.hands.forEach((hh: View, k: number) => {
      const d = hh.count - pv.hands[k].count;
      if (d > 0 && pv.hand_number === v.hand_number) {
        log.push(t("log.drew", { who: who(k), n: d }), k);
        log.bubble(k, t("bubble.drew", { n: d }));
      }
    });
  },

  summary(c: Ctx, body: HTMLElement) {
    const v = c.v, lh = v.last_hand;
    if (!lh) return;
    body.appendChild(h("p", { class: "how" }, lh.end === "domino"
      ? t(lh.capicua ? "line.end_capicua" : "line.end_domino", { who: c.f.seatName(c, lh.last_placer) })
      : t("line.end_block", { who: c.f.seatName(c, lh.last_placer) }) + (lh.tied ? " " + t("line.tied") + " " + tieRule(c) : "")));
    body.appendChild(h("p", null, lh.winner_side === null ? t("summary.nobody") : t("summary.wins_hand", { who: c.f.sideName(c, lh.winner_side) })));
    const tbl = h("table", { class: "pips" }, h("tr", null, h("th", null, t("summary.seat")), h("th", null, t("summary.pips_left"))));
    lh.pips.forEach((p: number, k: number) => tbl.appendChild(h("tr", null, h("td", null, c.f.seatName(c, k)), h("td", null, p))));
    body.appendChild(tbl);
    // The hand's points (how they came, their sum) beside the running game score.
    const game: number[] = v.scores || c.msg.scores || [];
    const pts = h("table", { class: "points" }, h("tr", null, h("th", null, t("summary.side")), h("th", null, t("summary.scored_for")), h("th", null, t("summary.hand_total")), h("th", null, t("summary.game_score"))));
    lh.total.forEach((tot: number, s: number) => {
      const parts: string[] = [];
      if (lh.pip_points[s]) parts.push(t(v.scoring === "wins" ? "summary.wins_n" : "summary.for_pips", { n: lh.pip_points[s] }));
      for (const b of lh.bonuses) if (b.side === s) parts.push(t("summary.bonus", { n: b.points, name: hasKey("bonus." + b.bonus) ? t("bonus." + b.bonus) : b.bonus }));
      pts.appendChild(h("tr", null, h("td", null, c.f.sideName(c, s)), h("td", null, parts.join(" + ") || "—"), h("td", { class: "num" }, tot), h("td", { class: "num game-score" }, h("b", null, game[s] ?? ""))));
    });
    body.appendChild(pts);
  },

  prompt(c: Ctx) {
    if (c.v.phase === "redeal") return t("line.redeal_prompt");
    if (c.v.phase === "choose_leader") return t("line.leader_prompt");
    return null;
  },
};
