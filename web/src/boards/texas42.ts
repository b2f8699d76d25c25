// Texas 42: bidding, trumps, tricks of four, two teams.
import { h } from "../dom";
import { t } from "../i18n";
import { tileFrom } from "../tiles";
import { Board, Ctx, drawsText, glossary, LogSink, seatPlaces } from "./board";
import type { Texas42View } from "./view";

function highBidText(v: Texas42View): string {
  const hb = v.high_bid as number;
  if (!v.bids || v.declarer === null) return String(hb);
  return v.bids[v.declarer] ?? String(hb);
}

// A seat's name under its place in the trick: short ("Partner", not
// "Partner (seat 3)"), since the circle's places are small.
function slotName(c: Ctx<Texas42View>, k: number): string {
  if (c.me !== null && k !== c.me && k === (c.me + 2) % 4 && !c.msg.seats[k]?.name) return t("seat.partner_short");
  return c.f.seatName(c, k);
}

// "Seat 2 won the trick": said as a trick is taken, or after the hand for its last.
function trickWon(c: Ctx<Texas42View>, log: LogSink, seat: number) {
  log.push(t("log.trick_won", { who: c.f.seatName(c, seat) }), seat, "hand");
}

export const texas42Board: Board<Texas42View> = {
  clockwise: true,
  // Why the first dealer deals (the tiles drawn for it, said with hand 1),
  // and why a hand is dealt again (all four passed).
  dealNote: (c, hand, again) =>
    again
      ? t("t42.all_passed")
      : hand === 1 && c.v.first_dealer_draw && c.v.dealer !== null
        ? t("t42.dealer_draws", drawsText(c, c.v.first_dealer_draw, c.v.dealer))
        : null,
  optionOrder: [
    "scoring",
    "target_marks",
    "target_points",
    "single_hand",
    "stop_when_decided",
    "forced_bid",
    "open_two_marks",
    "made_scores_taken",
    "nello",
    "plunge",
    "splash",
    "sevens",
    "tricks_face_down",
  ],
  quick: "texas-42",
  teams: () => true,
  partnership: () => true,
  sideWinners: true,
  // "to 7 marks": the target in the scoring's unit (marks or points).
  scoreNote: (c) =>
    c.v.single_hand
      ? t("table.one_hand")
      : c.v.target
        ? t("table.target_unit", { n: c.v.target, unit: t(c.v.scoring === "marks" ? "unit.marks" : "unit.points") })
        : null,
  draw(c: Ctx<Texas42View>) {
    const v = c.v,
      out: HTMLElement[] = [];
    const info = h("div", { class: "bidbox" });
    if (v.declarer !== null && v.declarer !== undefined)
      info.appendChild(
        h(
          "div",
          { class: "contract" },
          t("t42.contract", { who: c.f.seatName(c, v.declarer), bid: c.f.bidText(highBidText(v)) }),
          v.trumps
            ? h("span", { class: "tag gold trumps" }, t("t42.trumps_are", { trumps: c.f.trumpName(v.trumps) }))
            : h("span", { class: "tag" }, t("t42.no_trumps_yet")),
        ),
      );
    if (v.phase === "bidding" || v.phase === "trumps") {
      // In bidding order: from the dealer's left round to the dealer.
      const bids = h("div", { class: "bids" });
      for (let i = 1; i <= 4; i++) {
        const k = ((v.dealer ?? 3) + i) % 4;
        const b = v.bids[k];
        bids.appendChild(
          h(
            "span",
            { class: "bid" + (v.actor === k ? " turn" : ""), "data-seat": k },
            c.f.seatName(c, k),
            b === null
              ? h("i", null, t(v.actor === k ? "t42.bidding_now" : "t42.yet_to_bid"))
              : h("b", null, c.f.bidText(b)),
          ),
        );
      }
      info.appendChild(bids);
    }
    out.push(info);
    // The trick in progress, each tile at its player's place, named: on a
    // phone the seats sit in a row above, not around the circle.
    const trick = h("div", { class: "trick" });
    const me = c.me ?? 0;
    const playing = v.phase !== "bidding" && v.phase !== "trumps" && typeof v.actor === "number" ? v.actor : null;
    for (let r = 0; r < 4; r++) {
      const k = (me + r) % 4;
      const p = v.trick.find((x) => x.seat === k);
      trick.appendChild(
        h(
          "div",
          {
            class: "trick-slot pos-" + seatPlaces(texas42Board)[r] + (playing === k ? " turn" : ""),
            "data-seat": k,
          },
          p
            ? h(
                "span",
                { class: "tt", "data-tile": p.tile },
                tileFrom(p.tile, { vertical: true, size: c.small ? 22 : 30 }),
              )
            : null,
          h("span", { class: "who" }, slotName(c, k)),
        ),
      );
    }
    out.push(trick);
    const sides = h("div", { class: "taken" });
    for (const s of c.f.sideOrder(c, 2))
      sides.appendChild(
        h(
          "span",
          { class: "score" + (c.me !== null && s === c.me % 2 ? " mine" : "") },
          c.f.sideName(c, s),
          h("b", null, t("t42.taken", { points: t("t42.points", { n: v.points_taken[s] }), n: v.tricks_taken[s] })),
        ),
      );
    out.push(sides);
    // The last trick stays in sight while the next is played: a bot's lead
    // took it away within a second and a half.
    const last = v.tricks[v.tricks.length - 1];
    if (last && last.tiles)
      out.push(
        h(
          "div",
          { class: "last-trick" },
          t("t42.last_trick", { who: c.f.seatName(c, last.winner) }),
          // The four tiles keep together when the row wraps on a phone.
          h(
            "span",
            { class: "last-tiles" },
            last.tiles.map((x: string) => tileFrom(x, { size: c.small ? 22 : 26 })),
          ),
        ),
      );
    return out;
  },

  diff(c: Ctx<Texas42View>, pv: Texas42View, v: Texas42View, _actor: number | null, log: LogSink) {
    const who = (k: number | null) => (k === null ? "?" : c.f.seatName(c, k));
    v.bids.forEach((bid: string | null, k: number) => {
      if (bid !== null && pv.bids[k] === null) {
        log.push(t("log.bid", { who: who(k), bid: c.f.bidText(bid) }), k);
        // While the bidding goes on, the seat's tag says the bid ("passed"):
        // a bubble would say it twice. The last bid's tag goes with the bidding.
        if (v.phase !== "bidding") log.bubble(k, c.f.bidText(bid));
      }
    });
    // Everyone passed: the deal is thrown in (the server's log says it; a game on this device, here).
    if ((v.redeals ?? 0) > (pv.redeals ?? 0)) log.push(t("log.dealt_again", { n: v.hand_number }), null);
    if (v.trumps && !pv.trumps)
      log.push(t("log.trumps", { who: who(v.declarer), trumps: c.f.trumpName(v.trumps) }), v.declarer);
    if (v.trick.length > pv.trick.length)
      for (const p of v.trick.slice(pv.trick.length))
        log.push(t("log.played", { who: who(p.seat), tile: p.tile.replace("-", "|") }), p.seat);
    if (v.tricks.length > pv.tricks.length) trickWon(c, log, v.tricks[v.tricks.length - 1].winner);
  },

  // The trick that ends a hand reaches us with the next deal, so diff never
  // sees it taken: the last hand names who took it.
  handEnd(c: Ctx<Texas42View>, v: Texas42View, log: LogSink) {
    if (v.tricks.length) return; // the game's last hand stays on the table: diff saw its trick taken
    const w = v.last_hand?.last_trick_winner;
    if (typeof w === "number" && w >= 0) trickWon(c, log, w);
  },

  summary(c: Ctx<Texas42View>, body: HTMLElement) {
    const v = c.v,
      lh = v.last_hand;
    if (!lh) return;
    body.appendChild(
      h(
        "p",
        { class: "how" },
        // "You … was set": the declarer's own words when it is me.
        t(lh.made ? "t42.made" : lh.declarer === c.me ? "t42.set_you" : "t42.set", {
          who: c.f.seatName(c, lh.declarer),
          bid: c.f.bidText(lh.bid_text),
          trumps: c.f.trumpName(lh.trumps),
        }),
      ),
    );
    if (lh.stopped_early)
      body.appendChild(
        h("p", { class: "how stopped" }, t(lh.made ? "t42.stopped_made" : "t42.stopped_set", { n: lh.tricks_played })),
      );
    const tbl = h(
      "table",
      { class: "points" },
      h(
        "tr",
        null,
        h("th", null, t("summary.side")),
        h("th", null, t("t42.count")),
        h("th", null, t("t42.tricks")),
        // Marks scoring: the hand's gain and the game are in marks, the taken count in points.
        h("th", null, t(v.scoring === "marks" ? "t42.hand_marks" : "summary.hand_total")),
        h("th", null, t(v.scoring === "marks" ? "t42.game_marks" : "summary.game_score")),
      ),
    );
    for (const s of c.f.sideOrder(c, 2))
      tbl.appendChild(
        h(
          "tr",
          null,
          h("td", null, c.f.sideName(c, s)),
          h("td", null, lh.points[s]),
          h("td", null, lh.tricks[s]),
          h("td", null, "+" + lh.gained[s]),
          h("td", null, h("b", null, v.scores[s])),
        ),
      );
    body.appendChild(tbl);
    // "Marks" is the game's own word: said once more where the marks are counted.
    if (v.scoring === "marks") body.appendChild(glossary("mark", "texas-42", "t42-scoring", { n: v.target }));
  },

  prompt(c: Ctx<Texas42View>) {
    return t(c.v.phase === "bidding" ? "t42.your_bid" : c.v.phase === "trumps" ? "t42.name_trumps" : "table.your_turn");
  },

  turnOf(c: Ctx<Texas42View>, who: string) {
    return c.v.phase === "bidding"
      ? t("t42.turn_bid", { who })
      : c.v.phase === "trumps"
        ? t("t42.turn_trumps", { who })
        : null;
  },

  seatTags(c: Ctx<Texas42View>, k: number) {
    const out: HTMLElement[] = [];
    const bid = c.v.bids?.[k];
    if (bid !== null && bid !== undefined && c.v.phase === "bidding")
      out.push(
        h("span", { class: "tag" }, bid === "pass" ? t("t42.passed_tag") : t("t42.bid_tag", { bid: c.f.bidText(bid) })),
      );
    if (c.v.declarer === k) out.push(h("span", { class: "tag gold" }, t("t42.declarer")));
    if (c.v.dealer === k) out.push(h("span", { class: "tag" }, t("t42.dealer")));
    return out;
  },
};
