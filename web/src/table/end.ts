// The end of a hand and of the game: the summary dialog, the review of a
// hand's moves (fetched on demand) and the fairness check. A small
// controller (what was asked, what came back) and its views.
import { api } from "../api";
import { clockTag } from "../clock";
import { h } from "../dom";
import { t } from "../i18n";
import { tileFrom } from "../tiles";
import { Ctx } from "../boards/board";
import { boardOf, handKey } from "../boards/registry";
import { entryText, Ev, fmtNum, words } from "./words";
import { NOISE_SE } from "./view";

// The next hand's moves the end-of-hand box lists, the last ones.
const MEANWHILE_SHOWN = 6;

export interface ReviewMove {
  event: number;
  played: string;
  best: string;
  played_value: number;
  best_value: number;
  loss: number;
  grade: string;
  bound?: boolean;
  se?: number;
  samples?: number;
  face_up?: { best: string; loss: number; bound?: boolean };
}
export interface Review {
  hand: number;
  seat: number;
  hands_known: boolean;
  method: string;
  samples?: number;
  unit: string;
  thresholds: { good: number; inaccuracy: number; mistake: number };
  counts: Record<string, number>;
  forced: number;
  unsolved?: number;
  noise_se?: number; // the grade goes by the loss less this many standard errors
  moves: ReviewMove[];
}

// What the summary's buttons do (the live table's controller).
export interface SummaryActions {
  playAgain(): void;
  toLobby(): void;
  toReplay(): void;
  seeBoard(): void;
  nextHand(hf: number): void;
  // A game on this device: its record to download (no server's replay or fairness check).
  download?: () => void;
}

// A replay's hand result: the board's own summary of the step shown, in
// the user's language and the app's seat numbers (the record's text is
// the engine's English, seats from 0). Null when the board has none.
export function handSummary(c: Ctx, n: number): HTMLElement | null {
  if (!c.msg.view) return null;
  const body = h("div", { class: "replay-hand" });
  boardOf(c.family).summary(c, body);
  return body.childElementCount ? h("div", null, h("h4", null, t(handKey(c.family, "table.hand"), { n })), body) : null;
}

export class EndOfHand {
  private reviewHand: number | null = null; // the hand chosen for the review (null: the last)
  private fairness: HTMLElement | null = null; // the fairness check, once asked
  private review: {
    hand: number;
    seat: number | null;
    open: boolean;
    busy: boolean;
    data: Review | null;
    error: string;
  } | null = null;

  constructor(
    private id: string,
    private token: string,
    private redraw: () => void,
    private onError: (e: string) => void,
    // Where the review comes from: the server, or the engine on this device.
    private reviewOf: (hand: number, seat: number | null) => Promise<Record<string, unknown>> = (hand, seat) =>
      api.review(id, token, hand, seat),
  ) {}

  // The next hand: its review is another's.
  reset() {
    this.review = null;
    this.reviewHand = null;
  }

  summary(c: Ctx, over: boolean, act: SummaryActions): HTMLElement {
    const v = c.v;
    const body = h("div", { class: "summary-body" });
    boardOf(c.family).summary(c, body);
    let title = t(handKey(c.family, "summary.hand_over"));
    if (over) {
      const w: number[] = v.winners ?? (v.winner_side !== undefined ? [v.winner_side] : []);
      const names = w.map((s) => (boardOf(c.family).sideWinners ? words.sideName(c, s) : words.seatName(c, s)));
      title = t("summary.game_over", { who: names.join(", ") });
    }
    const hf = c.msg.hands_finished ?? 0;
    // The next hand goes on behind the summary: its opening, as it happens.
    const next = over
      ? []
      : (c.msg.log || [])
          .filter((e) => e.hand > hf && e.kind !== "deal" && e.kind !== "chance")
          .map((e) => entryText(c, e))
          .filter((e): e is Ev => e !== null);
    // Its last moves only: bots at speed can make dozens before the box is read.
    const earlier = Math.max(0, next.length - MEANWHILE_SHOWN);
    if (next.length)
      body.appendChild(
        h(
          "section",
          { class: "meanwhile" },
          h("h4", null, t(handKey(c.family, "summary.meanwhile"), { n: hf + 1 })),
          h(
            "ol",
            null,
            earlier ? h("li", { class: "earlier" }, t("summary.earlier", { n: earlier })) : null,
            next.slice(earlier).map((e) => h("li", null, e.text)),
          ),
        ),
      );
    // A spectator may review any seat once the game is over (the server says so too).
    if ((c.me !== null || over) && hf > 0)
      body.appendChild(this.reviewPanel(c, Math.min(this.reviewHand ?? hf, hf), hf));
    if (over && this.fairness) body.appendChild(this.fairness);
    const mine = !over && c.msg.to_act && c.me !== null ? clockTag(c.msg, c.me) : null;
    // At the end: what next (play again, the lobby), then, apart and
    // smaller, ways to look back, each named for what it shows (a player
    // took "Replay", "Review my moves" and "See the board" for one thing).
    const actions = over
      ? h(
          "div",
          { class: "game-over-actions" },
          h(
            "div",
            { class: "choices" },
            c.me !== null
              ? h(
                  "button",
                  { class: "primary", id: "rematch", onclick: () => act.playAgain() },
                  t("summary.play_again"),
                )
              : null,
            h(
              "button",
              { class: c.me !== null ? "action" : "primary", onclick: () => act.toLobby() },
              t("summary.new_game"),
            ),
          ),
          h(
            "div",
            { class: "choices look-back", role: "group", "aria-label": t("summary.look_back") },
            h("span", { class: "look-back-label" }, t("summary.look_back")),
            act.download
              ? h("button", { class: "link", id: "download", onclick: act.download }, t("local.download"))
              : h("button", { class: "link", id: "replay", onclick: () => act.toReplay() }, t("summary.replay")),
            act.download
              ? null
              : h("button", { class: "link", id: "verify", onclick: () => this.showFairness() }, t("fair.title")),
            h("button", { class: "link", id: "see-board", onclick: () => act.seeBoard() }, t("summary.see_board")),
          ),
        )
      : h(
          "div",
          { class: "choices" },
          // The next hand waits for no one: my turn in it, and my clock
          // running, are said where the eye is (a reader of the review ran
          // out of time unawares).
          c.msg.to_act && c.me !== null
            ? h(
                "p",
                { class: "turn-waiting", id: "turn-waiting" },
                t(
                  handKey(c.family, mine?.querySelector(".running") ? "summary.your_turn_clock" : "summary.your_turn"),
                  {
                    n: hf + 1,
                  },
                ),
                " ",
                mine,
              )
            : null,
          h(
            "button",
            { class: "primary", id: "continue", onclick: () => act.nextHand(hf) },
            t(handKey(c.family, "summary.continue")),
          ),
        );
    return h(
      "div",
      { class: "overlay" },
      h("div", { class: "dialog summary", role: "dialog", "aria-modal": "true" }, h("h2", null, title), body, actions),
    );
  }

  // ----------------------------------------------------------- review

  private reviewPanel(c: Ctx, hand: number, hands: number): HTMLElement {
    const r = this.review && this.review.hand === hand ? this.review : null;
    const box = h("section", {
      class: "review",
      id: "review",
      "data-state": !r || !r.open ? "closed" : r.busy ? "busy" : r.error ? "error" : "done",
    });
    // Any finished hand may be reviewed, the last one first.
    if (hands > 1)
      box.appendChild(
        h(
          "label",
          { class: "review-hand" },
          t(handKey(c.family, "review.which_hand")),
          " ",
          h(
            "select",
            {
              id: "review-hand",
              onchange: (e: Event) => {
                this.reviewHand = Number((e.target as HTMLSelectElement).value);
                this.review = null;
                this.redraw();
              },
            },
            Array.from({ length: hands }, (_, i) =>
              h(
                "option",
                { value: String(i + 1), selected: i + 1 === hand },
                t(handKey(c.family, "table.hand"), { n: i + 1 }),
              ),
            ),
          ),
        ),
      );
    if (c.me === null)
      // a spectator: one button per seat
      box.appendChild(
        h(
          "div",
          { class: "choices review-seats" },
          Array.from({ length: c.n }, (_, k) =>
            h(
              "button",
              {
                class: "action" + (r?.seat === k ? " primary" : ""),
                id: "review-seat-" + k,
                onclick: () => this.askReview(hand, k),
              },
              t("review.seat_button", { who: words.seatName(c, k) }),
            ),
          ),
        ),
      );
    if (!r || !r.open) {
      if (c.me !== null)
        box.appendChild(
          h(
            "button",
            { class: "action", id: "review-btn", onclick: () => this.askReview(hand, null) },
            t("review.button"),
          ),
        );
      return box;
    }
    box.appendChild(
      h(
        "h4",
        null,
        r.seat === null
          ? t(handKey(c.family, "review.title"), { n: hand })
          : t(handKey(c.family, "review.title_seat"), { who: words.seatName(c, r.seat), n: hand }),
      ),
    );
    if (r.busy) {
      box.appendChild(h("p", { class: "muted" }, t("review.thinking")));
      return box;
    }
    if (r.error) {
      box.appendChild(h("p", { class: "error" }, r.error));
      return box;
    }
    box.append(...reviewBody(c, r.data!));
    return box;
  }

  private async askReview(hand: number, seat: number | null) {
    this.review = { hand, seat, open: true, busy: true, data: null, error: "" };
    this.redraw();
    const mine = () => this.review?.hand === hand && this.review?.seat === seat;
    try {
      const r = await this.reviewOf(hand, seat);
      if (mine()) this.review = { hand, seat, open: true, busy: false, data: r as unknown as Review, error: "" };
    } catch (e) {
      if (mine())
        this.review = { hand, seat, open: true, busy: false, data: null, error: String((e as Error).message) };
    }
    this.redraw();
  }

  private async showFairness() {
    try {
      const f = await api.fairness(this.id);
      // Check the commitment here too: SHA-256 of the secret's bytes.
      let verdict = t("fair.unavailable"),
        ok = false;
      const secret = String(f.secret ?? "");
      if (globalThis.crypto?.subtle && /^[0-9a-f]+$/.test(secret) && secret.length % 2 === 0) {
        const bytes = new Uint8Array(secret.match(/../g)!.map((x) => parseInt(x, 16)));
        const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        ok = Array.from(d, (x) => x.toString(16).padStart(2, "0")).join("") === String(f.commitment);
        verdict = t(ok ? "fair.ok" : "fair.bad");
      }
      // A table made with a fixed seed (tests, study): its secret could be
      // guessed from the seed, so the check proves nothing about the deal.
      if (f.provably_fair === false) {
        ok = false;
        verdict = t("fair.seeded");
      }
      this.fairness = fairnessView(this.id, f, ok, verdict);
      this.redraw();
      // It opens below the dialog's fold: brought into sight, or the press seems to do nothing.
      document.querySelector(".summary .fairness")?.scrollIntoView({ block: "nearest" });
    } catch (e) {
      this.onError(String((e as Error).message));
    }
  }
}

// The graded moves of a review.
export function reviewBody(c: Ctx, d: Review): HTMLElement[] {
  const out: HTMLElement[] = [];
  const unit = t("unit." + d.unit);
  // The grade is what the seat could know (deals sampled from its view);
  // the face-up line (every hand known) is shown apart, never the grade.
  out.push(
    h(
      "p",
      { class: "review-how" },
      d.samples
        ? t("review.sampled", { n: d.samples })
        : d.hands_known
          ? t("review.hands_known")
          : t("review.own_view"),
    ),
  );
  out.push(
    h(
      "p",
      { class: "review-scale" },
      t(d.moves.some((m) => m.se) ? "review.scale_counted" : "review.scale", {
        unit,
        good: d.thresholds.good,
        inaccuracy: d.thresholds.inaccuracy,
        mistake: d.thresholds.mistake,
      }),
    ),
  );
  if (!d.moves.length) out.push(h("p", { class: "muted" }, t("review.none")));
  else {
    const tbl = h(
      "table",
      { class: "review-moves" },
      h(
        "tr",
        null,
        h("th", null, t("review.grade")),
        h("th", null, t("review.played")),
        h("th", null, t("review.best")),
        h("th", null, t("review.lost", { unit })),
      ),
    );
    const k = d.noise_se ?? NOISE_SE;
    for (const m of d.moves) {
      // What the grade is made from: the loss less twice its ± (the luck of
      // the deal), so "Best" beside 10.7 ± 5.4 reads "counts 0".
      const counted = m.se ? Math.max(0, m.loss - k * m.se) : null;
      tbl.appendChild(
        h(
          "tr",
          { class: "g-" + m.grade, "data-grade": m.grade },
          // Graded best within the noise, yet not the move valued highest: "As good", not "Best"
          // beside another move in the column (a newcomer read that as a contradiction).
          h(
            "td",
            null,
            m.grade === "best" && m.played !== m.best
              ? h("span", { class: "grade g-best", title: t("grade.level_help") }, t("grade.level"))
              : h("span", { class: "grade g-" + m.grade }, t("grade." + m.grade)),
          ),
          h("td", null, moveShort(c, m.played)),
          // "The same" where the move played was the best ("—" read as "not known"); a move graded
          // best within the noise names the one that valued higher (beside its loss, "counts 0").
          h("td", null, m.played === m.best ? h("span", { class: "muted" }, t("review.same")) : moveShort(c, m.best)),
          h(
            "td",
            { class: "num" },
            (m.loss ? (m.bound ? "≥ " : "") + fmtNum(m.loss) : "0") + (m.se ? " ± " + fmtNum(m.se) : ""),
            counted !== null
              ? h("small", { class: "counted" }, t("review.counted", { n: (m.bound ? "≥ " : "") + fmtNum(counted) }))
              : null,
          ),
        ),
      );
      const f = m.face_up;
      if (f && f.best !== m.played && f.loss > 0)
        tbl.appendChild(
          h(
            "tr",
            { class: "face-up" },
            h(
              "td",
              { colspan: 4, class: "muted" },
              t("review.face_up", { more: (f.bound ? "≥ " : "") + fmtNum(f.loss), unit }),
              " ",
              moveShort(c, f.best),
            ),
          ),
        );
    }
    out.push(tbl);
  }
  if (d.forced) out.push(h("p", { class: "muted" }, t("review.forced", { n: d.forced })));
  if (d.unsolved) out.push(h("p", { class: "muted" }, t("review.unsolved", { n: d.unsolved })));
  return out;
}

// A move for a list: its tiles drawn, the end or train as a short tag.
function moveShort(c: Ctx, mv: string): HTMLElement {
  const tiles = mv.match(/\d+-\d+/g);
  if (!tiles) return h("span", { class: "mv" }, words.moveLabel(c, mv));
  const m = /:(L|R|M|T(\d+))$/.exec(mv);
  const where = !m
    ? ""
    : m[1] === "L"
      ? t("review.left")
      : m[1] === "R"
        ? t("review.right")
        : words.trainName(c, m[1] === "M" ? "M" : Number(m[2]));
  return h(
    "span",
    { class: "mv", title: mv },
    tiles.map((x) => tileFrom(x, { size: 18 })),
    where ? h("span", null, where) : null,
  );
}

function fairnessView(id: string, f: Record<string, unknown>, ok: boolean, verdict: string): HTMLElement {
  return h(
    "div",
    { class: "fairness" },
    h("h4", null, t("fair.title")),
    h("p", null, t("fair.explain")),
    h("p", { class: "verdict " + (ok ? "good" : "bad"), id: "verdict" }, verdict),
    h("p", null, h("a", { href: `/api/tables/${id}/record`, download: `boneyard-${id}.json` }, t("fair.record"))),
    // The numbers themselves, for whoever wants to check by hand.
    h(
      "details",
      { class: "fair-numbers" },
      h("summary", null, t("fair.numbers")),
      h(
        "dl",
        null,
        h("dt", null, t("fair.commitment")),
        h("dd", null, String(f.commitment)),
        h("dt", null, t("fair.secret")),
        h("dd", null, String(f.secret ?? "")),
        h("dt", null, t("fair.seed")),
        h("dd", { id: "seed" }, String(f.seed_text ?? f.seed ?? "")),
      ),
      h("p", { class: "muted" }, t("fair.cli")),
    ),
  );
}
