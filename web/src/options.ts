// One option of a game in a setup form (the lobby's new table, a game
// against the computer): a list of its values, a box for a switch (on/off),
// the bonuses' boxes, or a free field, with its name and help; opts[k]
// follows it.
import { h } from "./dom";
import { t, hasKey, optValue } from "./i18n";
import { boardOf } from "./boards/registry";
import { bonusKinds, bonusesField } from "./bonus_field";

// A game's options in the order its board sets them (options.ts's forms).
export function optionKeys(family: string, options: Record<string, unknown>): string[] {
  const order = boardOf(family).optionOrder ?? [];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.keys(options).sort((a, b) => rank(a) - rank(b));
}

// A switch: its catalogue lists just on and off, or (Dice & Dominoes) says
// "on/off (default off): ..." in a sentence; its value may come as true/false.
function isSwitch(cat: unknown): boolean {
  if (Array.isArray(cat)) return cat.length === 2 && cat.includes("on") && cat.includes("off");
  return typeof cat === "string" && /^on\/off\b/.test(cat);
}

// onchange gets the option's new value, in the form the engine reads.
export function optionField(
  k: string,
  cat: unknown,
  opts: Record<string, string>,
  onchange: (value: string) => void,
  explain = "",
): HTMLElement {
  const name = hasKey("optname." + k) ? t("optname." + k) : k;
  const kinds = bonusKinds(cat);
  if (kinds) return bonusesField(k, kinds, opts[k] ?? "none", onchange, explain);
  if (isSwitch(cat)) {
    // A box, not a menu of On and Off (nor a text field holding "false").
    opts[k] = opts[k] === "true" || opts[k] === "on" ? "on" : "off";
    const box = h("input", {
      type: "checkbox",
      name: k,
      checked: opts[k] === "on",
      onchange: (ev: Event) => onchange((ev.target as HTMLInputElement).checked ? "on" : "off"),
    });
    return h(
      "div",
      { class: "opt opt-switch" },
      h("label", null, box, h("span", { class: "opt-name" }, name)),
      explain ? h("p", { class: "opt-help" }, explain) : null,
    );
  }
  const changed = (ev: Event) => onchange((ev.target as HTMLInputElement).value);
  let input: HTMLElement;
  let chosen: HTMLElement | null = null;
  if (Array.isArray(cat)) {
    const values = cat.map(String);
    if (values.includes("on") && values.includes("off") && (opts[k] === "true" || opts[k] === "false"))
      opts[k] = opts[k] === "true" ? "on" : "off";
    if (!values.includes(opts[k])) values.unshift(opts[k]);
    input = h(
      "select",
      { name: k, onchange: changed },
      values.map((v) => h("option", { value: v, selected: v === opts[k] ? "" : null }, optValue(v))),
    );
    chosen = h("p", { class: "opt-chosen", hidden: "" });
    writtenOut(input as HTMLSelectElement, chosen);
  } else {
    // A count ("2..8 (4 default)") is a number field held to its range.
    const r = optionRange(cat);
    const kind = r ? { type: "number", min: r[0], max: r[1], step: 1, inputmode: "numeric" } : { spellcheck: "false" };
    input = h("input", { name: k, value: opts[k], onchange: changed, ...kind });
  }
  return h(
    "div",
    { class: "opt" },
    h("label", null, h("span", { class: "opt-name" }, name), input),
    chosen,
    explain ? h("p", { class: "opt-help" }, explain) : null,
  );
}

// A closed menu shows its choice on one line and cuts a long one short ("Draw
// a tile before the deal; highest" on a phone): such a choice is written out
// in full beneath it, kept right as the choice or the width changes.
const ruler = typeof document !== "undefined" ? document.createElement("canvas").getContext("2d") : null;
function cutShort(sel: HTMLSelectElement): boolean {
  const text = sel.selectedOptions[0]?.text ?? "";
  if (!ruler || !sel.isConnected || sel.clientWidth === 0) return false;
  const cs = getComputedStyle(sel);
  ruler.font = cs.font || `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  // The room for the text: the box less its padding and the menu's arrow.
  const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return ruler.measureText(text).width > room;
}
function writtenOut(sel: HTMLSelectElement, line: HTMLElement) {
  const update = () => {
    const cut = cutShort(sel);
    line.hidden = !cut;
    line.textContent = cut ? (sel.selectedOptions[0]?.text ?? "") : "";
  };
  sel.addEventListener("change", update);
  if (typeof ResizeObserver === "undefined") return;
  const watch = new ResizeObserver(() => (sel.isConnected ? update() : watch.disconnect()));
  watch.observe(sel);
}

// The whole numbers an option takes, from its catalogue text ("2..8 (4 default)").
export function optionRange(cat: unknown): [number, number] | null {
  const m = typeof cat === "string" ? /^(\d+)\.\.(\d+)/.exec(cat) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

// How many seat rows a setup form shows: the players option held to its
// range (a "99" typed on the way to "9" builds no 99 rows), else the game's.
export function seatCount(
  g: { seats: number; catalogue: Record<string, unknown> },
  opts: Record<string, string>,
): number {
  const p = Number(opts.players);
  if (!Number.isInteger(p) || p <= 0) return g.seats;
  const r = optionRange(g.catalogue.players);
  return r ? Math.min(Math.max(p, r[0]), r[1]) : p;
}

// What is wrong with the form's options, in the player's words ("Players: a
// whole number from 2 to 8"), or "" when nothing is: said beside the button
// that starts the game, before anything is sent.
export function badOption(box: HTMLElement): string {
  for (const el of Array.from(box.querySelectorAll("input[type=number]"))) {
    const i = el as HTMLInputElement;
    if (i.disabled || (i.checkValidity() && i.value !== "")) continue; // a bonus switched off: its points unused
    const name = i.dataset.name || i.closest("label")?.querySelector(".opt-name")?.textContent || i.name;
    const folded = i.closest("details");
    if (folded) folded.open = true; // the field named must be seen
    return t("lobby.bad_number", { name, min: i.min, max: i.max });
  }
  return "";
}
