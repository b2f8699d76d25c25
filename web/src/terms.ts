// A table's terms and its people's ratings, in players' words (issue 34):
// rated or casual, the turn clock, a target other than the game's own; a
// rating beside a name ("1500?" while provisional, with words saying so);
// a rated game's change ("+12"); why a rated game is not rated.
import { h } from "./dom";
import { t } from "./i18n";
import type { GameInfo, Rating, StateMsg } from "./api";

// "1500", or "1500?" while provisional (few games yet, or back after long).
export function ratingText(r: Rating): string {
  return Math.round(r.rating) + (r.provisional ? "?" : "");
}

export function ratingTag(r: Rating | null | undefined): HTMLElement | null {
  if (!r) return null;
  const words = r.measured
    ? t("rating.measured")
    : r.provisional
      ? t("rating.provisional")
      : t("rating.settled", { rd: Math.round(r.rd) });
  return h(
    "span",
    { class: "rating" + (r.provisional ? " provisional" : ""), title: words, "aria-label": words },
    ratingText(r),
  );
}

// "+12", "−8", "±0".
export function changeText(ch: number): string {
  const n = Math.round(ch);
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n);
}

export interface Terms {
  rated?: boolean;
  clock?: { move_s: number; bank_s?: number } | number | null;
  target?: string | null; // shown only when it is not the game's own
}

// The terms as small chips: "Rated", "30 s a move, 30 s extra", "to 100".
export function termsLine(x: Terms, id?: string): HTMLElement {
  const chips: HTMLElement[] = [];
  chips.push(
    h(
      "span",
      { class: "term " + (x.rated ? "rated" : "casual"), title: t(x.rated ? "terms.rated_help" : "terms.casual_help") },
      t(x.rated ? "terms.rated" : "terms.casual"),
    ),
  );
  const c = typeof x.clock === "number" ? { move_s: x.clock } : x.clock;
  if (c && c.move_s > 0)
    chips.push(
      h(
        "span",
        { class: "term clock-term", title: t("terms.clock_help") },
        c.bank_s ? t("terms.clock_bank", { n: c.move_s, bank: c.bank_s }) : t("terms.clock", { n: c.move_s }),
      ),
    );
  else chips.push(h("span", { class: "term" }, t("terms.no_clock")));
  if (x.target) chips.push(h("span", { class: "term target-term" }, t("terms.target", { n: x.target })));
  return h("span", { class: "terms", ...(id ? { id } : {}) }, chips);
}

// The clock's chip in a sentence, for one about to sit down (the chip's
// title is out of reach on a phone): what "30 s a move + 30 s extra" means.
export function clockWords(clock: Terms["clock"]): HTMLElement | null {
  const c = typeof clock === "number" ? { move_s: clock } : clock;
  if (!c || !(c.move_s > 0)) return null;
  return h(
    "p",
    { class: "muted clock-words", id: "clock-words" },
    c.bank_s ? t("terms.clock_bank_words", { n: c.move_s, bank: c.bank_s }) : t("terms.clock_words", { n: c.move_s }),
  );
}

// A lobby table's target when it is not its preset's own.
export function otherTarget(all: GameInfo[], game: string, options?: Record<string, string>): string | null {
  const mine = options?.target;
  if (mine === undefined) return null;
  const preset = all.find((g) => g.name === game)?.options?.target;
  return preset !== undefined && String(preset) === String(mine) ? null : String(mine);
}

// A table's state: its terms, and a rated table's warning that it will not
// be rated (a guest at it), in words.
export function tableTerms(m: StateMsg, seatName: (k: number) => string): HTMLElement {
  const clock = (m as unknown as { clock?: { move_s: number; bank_s: number } }).clock ?? null;
  const line = termsLine({ rated: !!m.rated, clock }, "table-terms");
  if (m.unrated && m.rated) {
    // A rated table whose game will not count: its chip says so, not "Rated"
    // beside the reason why not.
    const chip = line.querySelector(".term.rated");
    if (chip) {
      chip.className = "term casual";
      chip.textContent = t("terms.not_rated_chip");
    }
    line.appendChild(
      h("span", { class: "term unrated", role: "note" }, unratedWhy(m.unrated, seatName, m.status === "over", m.seat)),
    );
  }
  return line;
}

function unratedWhy(
  u: { why: string; seat: number; other?: number },
  seatName: (k: number) => string,
  over: boolean,
  me: number | null,
): string {
  const who = seatName(u.seat);
  if (u.why === "guest" && u.seat === me) return t(over ? "terms.not_rated_you" : "terms.will_not_be_rated_you");
  if (u.why === "guest") return t(over ? "terms.not_rated_guest" : "terms.will_not_be_rated_guest", { who });
  if (u.why === "network" && u.other !== undefined)
    return t(over ? "terms.not_rated_network" : "terms.will_not_be_rated_network", {
      who,
      other: seatName(u.other),
    });
  return t("terms.not_rated");
}

// The game-over dialog's ratings: each seat's new rating and its change,
// or why the game was not rated.
export function ratingChanges(m: StateMsg, seatName: (k: number) => string): HTMLElement | null {
  if (!m.rated) return null;
  const rows = m.seats
    .map((s, k) => ({ s, k }))
    .filter(({ s }) => s.rated)
    .map(({ s, k }) =>
      h(
        "li",
        { "data-seat": k },
        h("span", { class: "who" }, seatName(k)),
        " ",
        ratingTag(s.rated!),
        " ",
        h(
          "span",
          { class: "change " + (s.rated!.change >= 0.5 ? "up" : s.rated!.change <= -0.5 ? "down" : "") },
          changeText(s.rated!.change),
        ),
      ),
    );
  const why: HTMLElement[] = [];
  if (m.unrated) why.push(h("p", { class: "unrated-why" }, unratedWhy(m.unrated, seatName, true, m.seat)));
  m.seats.forEach((s, k) => {
    if (s.bot_moves) why.push(h("p", { class: "unrated-why" }, t("terms.bot_loss", { who: seatName(k) })));
  });
  if (!rows.length && !why.length) return null;
  return h(
    "section",
    { class: "rating-changes", id: "rating-changes" },
    h("h4", null, t("terms.ratings")),
    rows.length ? h("ul", null, rows) : null,
    why,
  );
}

// Quick match's choice: casual or rated (sent as `rated`). Remembered here.
export function ratedChoice(): { el: HTMLElement; rated: () => boolean } {
  const key = "boneyard.qm.rated";
  let rated = localStorage.getItem(key) === "1";
  const radio = (value: boolean, label: string) =>
    h(
      "label",
      { class: "qm-kind-opt" },
      h("input", {
        type: "radio",
        name: "qm-kind",
        id: value ? "qm-rated" : "qm-casual",
        checked: rated === value,
        onchange: () => {
          rated = value;
          localStorage.setItem(key, value ? "1" : "0");
        },
      }),
      " ",
      label,
    );
  const el = h(
    "fieldset",
    { class: "qm-kind" },
    h("legend", null, t("qm.kind")),
    radio(false, t("terms.casual")),
    radio(true, t("terms.rated")),
    h("span", { class: "muted qm-kind-help" }, t("qm.rated_help")),
  );
  return { el, rated: () => rated };
}
