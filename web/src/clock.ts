// The turn clock (docs/server.md, "Turn clock"): the server keeps the time;
// the app counts down from the remaining milliseconds each state carries,
// measured from when that state arrived.
import { h } from "./dom";
import { t } from "./i18n";
import type { StateMsg } from "./api";

export interface SeatClock {
  seat: number;
  bank_ms: number;
  timeouts: number;
  running: boolean;
  move_ms?: number;
  remaining_ms?: number;
}
export interface ClockInfo {
  move_s: number;
  bank_s: number;
  second_ms: number;
  seats: SeatClock[];
}

const arrived = new WeakMap<object, number>();
// Called as each state arrives: its countdowns run from now.
export function stampClock(m: StateMsg) {
  if (!arrived.has(m)) arrived.set(m, performance.now());
}

function clockOf(m: StateMsg): ClockInfo | null {
  return (m as unknown as { clock?: ClockInfo }).clock ?? null;
}

// The text of a running countdown, in the clock's seconds: the move's own
// time, then the bank draining.
function text(moveEnd: number, bankEnd: number, second: number): string {
  const now = performance.now();
  if (now < moveEnd) return t("clock.left", { s: Math.ceil((moveEnd - now) / second) });
  return t("clock.bank_left", { s: Math.max(0, Math.ceil((bankEnd - now) / second)) });
}

// Seat k's clock: a countdown while its turn is timed, else its bank;
// its timeouts, when it has any. null at a table without a clock.
export function clockTag(m: StateMsg, k: number): HTMLElement | null {
  const c = clockOf(m);
  const s = c?.seats[k];
  if (!c || !s || !m.seats[k] || m.seats[k].player !== "human") return null;
  const second = c.second_ms || 1000;
  const out = h("span", { class: "clock-tag", "data-seat": k });
  if (s.running && s.remaining_ms !== undefined) {
    const at = arrived.get(m) ?? performance.now();
    const moveEnd = at + (s.move_ms ?? 0),
      bankEnd = at + s.remaining_ms;
    out.appendChild(
      h(
        "span",
        {
          class: "clock running" + ((s.move_ms ?? 0) <= 0 ? " bank" : ""),
          "data-move-end": Math.round(moveEnd),
          "data-bank-end": Math.round(bankEnd),
          "data-second": second,
          role: "timer",
        },
        text(moveEnd, bankEnd, second),
      ),
    );
  } else if (c.bank_s > 0) {
    out.appendChild(h("span", { class: "clock idle" }, t("clock.bank", { s: Math.ceil(s.bank_ms / second) })));
  }
  if (s.timeouts > 0)
    out.appendChild(
      h("span", { class: "timeouts", "data-timeouts": s.timeouts }, t("clock.timeouts", { n: s.timeouts })),
    );
  return out;
}

// Every countdown on the page, four times a second (no redraw of the table).
setInterval(() => {
  for (const e of Array.from(document.querySelectorAll<HTMLElement>(".clock.running"))) {
    const moveEnd = Number(e.dataset.moveEnd),
      bankEnd = Number(e.dataset.bankEnd),
      second = Number(e.dataset.second) || 1000;
    const s = text(moveEnd, bankEnd, second);
    if (e.textContent !== s) e.textContent = s;
    e.classList.toggle("bank", performance.now() >= moveEnd);
  }
}, 250);
