// Dice & Dominoes: match points on two dice, two tiles laid face down by
// everyone at once, a pot of chips.
import { h } from "../dom";
import { t, hasKey } from "../i18n";
import { tileFrom, tileSvg, dieSvg, parseTile } from "../tiles";
import { Board, Ctx, HandUi, LogSink, scoreChip } from "./board";
import type { DiceDominoesView } from "./view";

// "wild", "perfect", "W-perfect" in the user's words.
function special(x: string): string {
  return hasKey("special." + x) ? t("special." + x) : x;
}

export const diceDominoesBoard: Board<DiceDominoesView> = {
  optionOrder: ["players", "hands", "single_hand", "ante", "sets"],
  laysFaceDown: true,
  quick: "dice-and-dominoes",
  seatHands: (v) => v.players,
  noTileMoves: true, // tiles are laid by the hand's own picker (hand below)
  // Each seat's chips won or lost so far (said so: a bare "-2" explains
  // nothing). The pot is the board's, beside the dice: here as well, it
  // pushed the bar to a second row on a desktop.
  scores: (c) => [
    ...c.v.players.map((p, k) => scoreChip(c.f.seatName(c, k), (p.chips > 0 ? "+" : "") + p.chips, k === c.me)),
    h("span", { class: "score target chips-note" }, t("dd.chips_note")),
  ],
  // Which round of the hand too: the board names its dice by round.
  handLabel: (v) =>
    v.round > 0
      ? t("dd.hand_round", { n: v.hand_number, of: v.hands, r: v.round })
      : t("table.hand_of", { n: v.hand_number, of: v.hands }),
  listScores: () => null, // the view's chips are this hand's; the message's scores are the game's
  draw(c: Ctx<DiceDominoesView>) {
    const v = c.v,
      out: HTMLElement[] = [];
    const top = h("div", { class: "dice-row" });
    const mp = v.match_points;
    // The dice are this round's, named so: the last round's result below has dice of its own.
    if (mp)
      top.append(
        h("span", { class: "label" }, t("dd.match_points_round", { n: v.round })),
        dieSvg(mp[0]),
        dieSvg(mp[1]),
      );
    else top.append(h("span", { class: "muted" }, t("dd.no_dice")));
    top.append(
      h("span", { class: "pot-big" }, t("dd.pot"), h("b", null, v.pot)),
      h("span", { class: "boneyard" }, t("table.boneyard", { n: v.boneyard })),
    );
    out.push(top);
    // What the match points mean, in this round's numbers.
    if (mp)
      out.push(
        h(
          "p",
          { class: "match-help" },
          mp[0] === mp[1] ? t("dd.match_help_same", { a: mp[0] }) : t("dd.match_help", { a: mp[0], b: mp[1] }),
          " ",
          // The aim, or "discarded" reads as a loss (a fresh pair of eyes).
          h("b", null, t("dd.aim")),
        ),
      );
    const lr = v.last_round;
    if (lr) {
      const rev = h(
        "div",
        { class: "reveal" },
        h("h4", null, t("dd.reveal_title", { n: lr.number, a: lr.match_points[0], b: lr.match_points[1] })),
      );
      if (lr.top_special)
        rev.appendChild(
          h(
            "p",
            { class: "why" },
            t("dd.top_special", { who: c.f.seatName(c, lr.top_seat ?? 0), special: special(lr.top_special) }),
          ),
        );
      const grid = h("div", { class: "reveal-grid" });
      for (const s of lr.seats) {
        grid.appendChild(
          h(
            "div",
            { class: "reveal-seat" + (s.out ? " out" : "") },
            h("span", { class: "who" }, c.f.seatName(c, s.seat)),
            h(
              "span",
              { class: "tiles" },
              s.discarded.map((x: string) =>
                h("span", { class: "counted", title: t("dd.counted") }, tileFrom(x, { size: 20 })),
              ),
              s.sent_back.map((x: string) =>
                h("span", { class: "sentback", title: t("dd.sent_back") }, tileFrom(x, { size: 20 })),
              ),
              s.face_down.map((x: string | null) =>
                h(
                  "span",
                  { class: "facedown", title: t("dd.face_down") },
                  x ? tileFrom(x, { size: 20 }) : tileSvg(0, 0, { faceDown: true, size: 20 }),
                ),
              ),
            ),
            h(
              "span",
              { class: "what" },
              [s.special ? special(s.special) : null, s.drew ? t("dd.drew") : null, s.out ? t("dd.out") : null]
                .filter(Boolean)
                .join(" · "),
            ),
          ),
        );
      }
      rev.appendChild(grid);
      rev.appendChild(
        h(
          "p",
          { class: "legend" },
          h("span", { class: "counted" }, t("dd.counted")),
          " ",
          h("span", { class: "sentback" }, t("dd.sent_back")),
          " ",
          // My own face-down tiles are shown to me, faint: said, as they match no other sample.
          h("span", { class: "facedown" }, t("dd.face_down_legend")),
        ),
      );
      out.push(rev);
    }
    return out;
  },

  diff(c: Ctx<DiceDominoesView>, pv: DiceDominoesView, v: DiceDominoesView, _actor: number | null, log: LogSink) {
    const who = (k: number | null) => (k === null ? "?" : c.f.seatName(c, k));
    // In the order they happened: the lays, the reveal, then the next round's
    // dice (one update may carry all three).
    v.players.forEach((p, k) => {
      if (p.submitted && pv.players[k] && !pv.players[k].submitted) log.push(t("log.laid_down", { who: who(k) }), k);
    });
    const lr = v.last_round;
    if (lr && (!pv.last_round || lr.number !== pv.last_round.number || v.hand_number !== pv.hand_number)) {
      const discards = lr.seats
        .filter((s) => s.discarded.length)
        .map((s) => `${who(s.seat)} ${s.discarded.map((x: string) => x.replace("-", "|")).join(" ")}`);
      const [a, b] = lr.match_points;
      log.push(
        t("log.revealed", { n: lr.number, a, b, what: discards.join(", ") || t("log.none_discarded") }),
        null,
        "hand",
        "roll",
      );
    }
    // A new round's dice, even when they repeat the last round's numbers.
    const rolled =
      v.round !== pv.round ||
      v.hand_number !== pv.hand_number ||
      JSON.stringify(v.match_points) !== JSON.stringify(pv.match_points);
    if (v.match_points && rolled)
      log.push(t("log.rolled", { a: v.match_points[0], b: v.match_points[1] }), v.roller, "chance");
  },

  summary(c: Ctx<DiceDominoesView>, body: HTMLElement) {
    const v = c.v,
      lh = v.last_hand;
    if (!lh) return;
    const winners = lh.winners.map((k: number) => c.f.seatName(c, k)).join(", ");
    body.appendChild(
      h(
        "p",
        { class: "how" },
        t("dd.how_" + lh.how, {
          who: winners,
          pot: lh.pot,
          share: lh.share,
          special: lh.winning_special ? special(lh.winning_special) : "",
        }),
      ),
    );
    const tbl = h(
      "table",
      { class: "points" },
      h("tr", null, h("th", null, t("summary.seat")), h("th", null, t("dd.this_hand")), h("th", null, t("dd.chips"))),
    );
    lh.net.forEach((x: number, k: number) =>
      tbl.appendChild(
        h(
          "tr",
          null,
          h("td", null, c.f.seatName(c, k)),
          h("td", null, (x > 0 ? "+" : "") + x),
          h("td", null, h("b", null, v.players[k].chips)),
        ),
      ),
    );
    body.appendChild(tbl);
  },

  prompt(c: Ctx<DiceDominoesView>) {
    return t(c.v.phase === "reroll_or_keep" ? "dd.reroll_prompt" : "dd.choose_prompt");
  },

  hand(c: Ctx<DiceDominoesView>, ui: HandUi, size: number, hand: HTMLElement, buttons: HTMLElement, area: HTMLElement) {
    const tiles: string[] = (c.me !== null && c.v.players?.[c.me]?.tiles) || [];
    const choosing = c.msg.to_act && c.v.phase === "choose";
    // Any two tiles may be laid; gold marks those these dice would discard
    // (a die's number, or the wild 0|0): every tile gold read as "all fit".
    const mp = c.v.match_points;
    const fits = (tile: string) => {
      const [a, b] = parseTile(tile);
      return (a === 0 && b === 0) || (!!mp && [a, b].some((x) => x === mp[0] || x === mp[1]));
    };
    tiles.forEach((tile, i) => {
      const order = ui.selected.indexOf(i);
      const fit = choosing && fits(tile);
      hand.appendChild(
        h(
          "button",
          {
            class: "htile" + (choosing ? " legal" + (fit ? " fits" : " no-fit") : "") + (order >= 0 ? " picked" : ""),
            "data-tile": tile,
            "data-key": "h-" + tile,
            role: "listitem",
            disabled: !choosing,
            "aria-label": fit ? `${tile}, ${t("dd.fits")}` : tile,
            "aria-pressed": order >= 0 ? "true" : "false",
            onclick: () => {
              if (order >= 0) ui.selected.splice(order, 1);
              else if (ui.selected.length < 2) ui.selected.push(i);
              ui.redraw();
            },
          },
          tileFrom(tile, { vertical: true, size }),
          order >= 0 ? h("span", { class: "order" }, String(order + 1)) : null,
        ),
      );
    });
    if (choosing) {
      const want = tiles.length === 1 ? 1 : 2;
      // Either order of tapping works: the server lists a pair once (higher
      // first) unless the order changes what is revealed.
      let text = ui.selected.map((i) => tiles[i]).join(",");
      const reverse = ui.selected
        .map((i) => tiles[i])
        .reverse()
        .join(",");
      if (!c.msg.legal.includes(text) && c.msg.legal.includes(reverse)) text = reverse;
      const ok = ui.selected.length === want && c.msg.legal.includes(text);
      buttons.prepend(
        h(
          "button",
          { class: "action primary", id: "lay", disabled: !ok, onclick: () => ui.send(text) },
          t(want === 1 ? "dd.lay_one" : "dd.lay_two"),
        ),
      );
      area.appendChild(
        h(
          "p",
          { class: "hint-text", id: "lay-help" },
          ok ? t("dd.ready") : ui.selected.length === 1 && want === 2 ? t("dd.pick_second") : t("dd.choose_help"),
          " ",
          t("dd.fits_legend", { n: tiles.filter(fits).length }),
        ),
      );
    }
    const mine = c.me !== null ? c.v.players[c.me] : null;
    if (mine?.submission)
      area.appendChild(
        h(
          "div",
          { class: "submitted" },
          t("dd.your_submission"),
          (mine.submission as string).split(",").map((x) => tileFrom(x, { size: 18 })),
        ),
      );
  },

  seatTags(c: Ctx<DiceDominoesView>, k: number) {
    const p = c.v.players[k];
    return c.v.phase === "choose"
      ? [h("span", { class: "tag" + (p.submitted ? " gold" : "") }, t(p.submitted ? "dd.laid" : "dd.choosing"))]
      : [];
  },
};
