// One option of a game in a setup form (the lobby's new table, a game
// against the computer): a list of its values (a switch given as true/false
// reads as on/off) or a free field, with its name and help; opts[k] follows it.
import { h } from "./dom";
import { t, hasKey, optValue } from "./i18n";

export function optionField(
  k: string,
  cat: unknown,
  opts: Record<string, string>,
  onchange: (ev: Event) => void,
  explain = "",
): HTMLElement {
  let input: HTMLElement;
  if (Array.isArray(cat)) {
    const values = cat.map(String);
    if (values.includes("on") && values.includes("off") && (opts[k] === "true" || opts[k] === "false"))
      opts[k] = opts[k] === "true" ? "on" : "off";
    if (!values.includes(opts[k])) values.unshift(opts[k]);
    input = h(
      "select",
      { name: k, onchange },
      values.map((v) => h("option", { value: v, selected: v === opts[k] ? "" : null }, optValue(v))),
    );
  } else {
    input = h("input", { name: k, value: opts[k], onchange, spellcheck: "false" });
  }
  return h(
    "div",
    { class: "opt" },
    h("label", null, h("span", { class: "opt-name" }, hasKey("optname." + k) ? t("optname." + k) : k), input),
    explain ? h("p", { class: "opt-help" }, explain) : null,
  );
}
