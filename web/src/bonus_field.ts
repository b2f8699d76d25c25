// A line game's bonuses in a setup form. The engine reads them as a comma
// list of codes ("lead_pass_25,three_passes_25,capicua_25"), which a player
// cannot be asked to type: each bonus is a box in the player's words, with
// its points where the rules leave them open and its variant ("not with a
// blank") beneath. What is sent keeps the engine's form ("none" for none).
import { h } from "./dom";
import { t, hasKey } from "./i18n";

// One bonus of the catalogue's list: "capicua_N[_no_zero]" is capicua, with
// points, variant "_no_zero"; "first_pass_2" is a plain one.
export interface BonusKind {
  name: string;
  points: boolean;
  variant: string;
}

// The kinds a catalogue text lists ("comma list of first_pass_2, capicua_N[_no_zero], ..."),
// or null for a text that is no such list.
export function bonusKinds(cat: unknown): BonusKind[] | null {
  const m = typeof cat === "string" ? /^comma list of (.+)$/.exec(cat.trim()) : null;
  if (!m) return null;
  const kinds: BonusKind[] = [];
  for (const item of m[1].split(",")) {
    const k = /^([a-z0-9_]+?)(_N)?(?:\[(_[a-z0-9_]+)\])?$/.exec(item.trim());
    if (k) kinds.push({ name: k[1], points: !!k[2], variant: k[3] ?? "" });
  }
  return kinds.length ? kinds : null;
}

interface Chosen {
  on: boolean;
  points: number;
  variant: boolean;
}

// A list's codes read against the kinds: each kind's state, and any code
// none of them reads (kept as it is, so nothing the preset set is lost).
export function readBonuses(kinds: BonusKind[], list: string): { chosen: Map<string, Chosen>; rest: string[] } {
  const chosen = new Map<string, Chosen>(kinds.map((k) => [k.name, { on: false, points: 25, variant: false }]));
  const rest: string[] = [];
  for (const code of list.split(",").map((x) => x.trim())) {
    if (!code || code === "none") continue;
    // A plain code first: "capicua_double" is not capicúa with points "double".
    const plain = kinds.find((k) => !k.points && k.name === code);
    const counted = kinds.find((k) => {
      if (!k.points || !code.startsWith(k.name + "_")) return false;
      const tail = code.slice(k.name.length + 1);
      return /^\d+$/.test(k.variant && tail.endsWith(k.variant) ? tail.slice(0, -k.variant.length) : tail);
    });
    const k = plain ?? counted;
    if (!k) {
      rest.push(code);
      continue;
    }
    const c = chosen.get(k.name)!;
    c.on = true;
    if (k === counted) {
      const tail = code.slice(k.name.length + 1);
      c.variant = !!k.variant && tail.endsWith(k.variant);
      c.points = parseInt(tail, 10);
    }
  }
  return { chosen, rest };
}

// The engine's list for the boxes' state, in the catalogue's order.
export function writeBonuses(kinds: BonusKind[], chosen: Map<string, Chosen>, rest: string[]): string {
  const codes = kinds
    .filter((k) => chosen.get(k.name)?.on)
    .map((k) => {
      const c = chosen.get(k.name)!;
      return k.points ? `${k.name}_${c.points}${c.variant ? k.variant : ""}` : k.name;
    });
  return [...codes, ...rest].join(",") || "none";
}

// A bonus's words: its own, else its code made readable.
const said = (key: string, code: string) => (hasKey(key) ? t(key) : code.replace(/_/g, " "));

// The boxes. onchange gets the new list; the hidden field named after the
// option holds it (a field of each option's name, as the others have).
export function bonusesField(
  k: string,
  kinds: BonusKind[],
  value: string,
  onchange: (list: string) => void,
  explain: string,
): HTMLElement {
  const { chosen, rest } = readBonuses(kinds, value);
  const hidden = h("input", { type: "hidden", name: k, value }) as HTMLInputElement;
  const changed = () => {
    hidden.value = writeBonuses(kinds, chosen, rest);
    onchange(hidden.value);
  };
  hidden.addEventListener("change", () => onchange(hidden.value));
  const rows = kinds.map((kind) => {
    const c = chosen.get(kind.name)!;
    const label = said("bonusopt." + kind.name, kind.points ? kind.name + "_N" : kind.name);
    // The points and the variant say something only while the bonus is on.
    const extras: HTMLElement[] = [];
    const box = h("input", { type: "checkbox", "data-bonus": kind.name, checked: c.on }) as HTMLInputElement;
    if (kind.points) {
      const points = h("input", {
        type: "number",
        min: 1,
        max: 1000,
        step: 1,
        inputmode: "numeric",
        value: c.points,
        "data-bonus-points": kind.name,
        // Named short where the form says it is wrong ("Points for capicúa: a whole number ...").
        "data-name": t("bonusopt.points_of", { bonus: said("bonus." + kind.name, kind.name) }),
        "aria-label": t("bonusopt.points_of", { bonus: said("bonus." + kind.name, kind.name) }),
        onchange: (ev: Event) => {
          c.points = parseInt((ev.target as HTMLInputElement).value, 10);
          changed();
        },
      });
      extras.push(h("label", { class: "bonus-points" }, points, " ", t("bonusopt.points")));
    }
    if (kind.variant)
      extras.push(
        h(
          "label",
          { class: "bonus-variant" },
          h("input", {
            type: "checkbox",
            "data-bonus-variant": kind.name,
            checked: c.variant,
            onchange: (ev: Event) => {
              c.variant = (ev.target as HTMLInputElement).checked;
              changed();
            },
          }),
          " ",
          said("bonusopt." + kind.name + kind.variant, kind.variant.slice(1)),
        ),
      );
    const more = h("div", { class: "bonus-more" }, extras);
    const show = () => {
      more.hidden = !c.on || !extras.length;
      for (const i of Array.from(more.querySelectorAll("input"))) (i as HTMLInputElement).disabled = !c.on;
    };
    box.addEventListener("change", () => {
      c.on = box.checked;
      show();
      changed();
    });
    show();
    return h("div", { class: "bonus" }, h("label", { class: "bonus-on" }, box, " ", h("span", null, label)), more);
  });
  return h(
    "fieldset",
    { class: "opt opt-bonuses" },
    h("legend", { class: "opt-name" }, hasKey("optname." + k) ? t("optname." + k) : k),
    explain ? h("p", { class: "opt-help" }, explain) : null,
    rows,
    hidden,
  );
}
