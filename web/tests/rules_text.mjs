// The how-to-play texts (src/rules/<lang>.txt) against each other and the
// engine: every language has the same pages and sections (so a link to a
// preset's section works in every language), every preset the engine offers
// has its section, and the numbers a preset section states in bold (target,
// tiles per hand, bonus points) are the engine's preset values.
//   node tests/rules_text.mjs BONEYARD_EXE
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "rules");
const exe = process.argv[2];
if (!exe) {
  console.error("usage: node tests/rules_text.mjs BONEYARD_EXE");
  process.exit(2);
}
let bad = 0;
const fail = (msg) => {
  console.error("FAIL " + msg);
  bad++;
};

// Pages -> sections: { page: [{ id, level, text }] }, text up to the next heading.
function parse(lang) {
  const pages = {};
  let cur = null,
    sec = null;
  readFileSync(join(dir, lang + ".txt"), "utf8")
    .split("\n")
    .forEach((line, i) => {
      let m;
      if (line.startsWith("//")) return;
      if ((m = /^=== ([a-z0-9-]+)$/.exec(line))) {
        cur = pages[m[1]] = [];
        sec = { id: "(top)", level: 1, text: "" };
        cur.push(sec);
        return;
      }
      if (!cur) {
        if (line.trim()) fail(`${lang}.txt:${i + 1}: text before the first "=== page"`);
        return;
      }
      if ((m = /^(##|###) (?:#([a-z0-9-]+) )?(.+)$/.exec(line))) {
        sec = { id: m[2] || "", level: m[1].length, text: m[3] + "\n" };
        cur.push(sec);
        return;
      }
      sec.text += line + "\n";
      // Inline marks: tiles of a set the app draws, dice 1..6, bold in pairs.
      for (const t of line.matchAll(/\[(\d+)-(\d+)\]/g))
        if (+t[1] > 18 || +t[2] > 18) fail(`${lang}.txt:${i + 1}: no such tile [${t[1]}-${t[2]}]`);
      for (const d of line.matchAll(/\{(\d+)\}/g))
        if (+d[1] < 1 || +d[1] > 6) fail(`${lang}.txt:${i + 1}: no such die {${d[1]}}`);
      if ((line.match(/\*\*/g) || []).length % 2) fail(`${lang}.txt:${i + 1}: unbalanced **`);
    });
  return pages;
}

const langs = readdirSync(dir)
  .filter((f) => f.endsWith(".txt"))
  .map((f) => f.replace(/\.txt$/, ""));
const texts = Object.fromEntries(langs.map((l) => [l, parse(l)]));
const en = texts.en;
if (!en) fail("no en.txt");
for (const l of langs) {
  const ids = (p) =>
    Object.entries(p)
      .map(([name, secs]) => name + ": " + secs.map((s) => s.id).join(" "))
      .join("\n");
  if (ids(texts[l]) !== ids(en))
    fail(`${l}.txt has other pages or sections than en.txt:\n${ids(texts[l])}\n--- en:\n${ids(en)}`);
}

const games = JSON.parse(execFileSync(exe, ["rules", "--json"], { encoding: "utf8" }));
const families = [...new Set(games.map((g) => g.family))];
for (const f of families) if (!en[f]) fail(`the engine's family "${f}" has no rules page`);
let checked = 0;
for (const l of langs) {
  const pages = texts[l];
  const bold = (text) => new Set([...text.matchAll(/\*\*(\d+)\*\*/g)].map((m) => Number(m[1])));
  for (const g of games) {
    const o = g.options;
    if (g.family === "line") {
      const sec = pages.line?.find((s) => s.id === g.name);
      if (!sec) {
        fail(`${l}: the preset ${g.name} has no section in the line page`);
        continue;
      }
      const want = new Set([Number(o.target)]);
      if (Number(o.hand_size) !== 7) want.add(Number(o.hand_size));
      for (const b of String(o.bonuses).split(",")) {
        const n = /_(\d+)(_|$)/.exec(b);
        if (n) want.add(Number(n[1]));
        if (b === "early_hands" || b === "blank_double_domino") want.add(100);
      }
      const got = bold(sec.text);
      for (const n of want)
        if (!got.has(n))
          fail(
            `${l}: ${g.name} should state **${n}** (the engine's preset), it states ${[...got].join(", ") || "no number"}`,
          );
      for (const n of got)
        if (!want.has(n))
          fail(
            `${l}: ${g.name} states **${n}**, which is none of the engine's numbers for it (${[...want].join(", ")})`,
          );
      checked++;
    } else if (g.family === "texas-42") {
      const all = bold(pages["texas-42"].map((s) => s.text).join(""));
      for (const n of [o.target_marks, o.target_points, 42])
        if (!all.has(Number(n))) fail(`${l}: Texas 42 should state **${n}**`);
      checked++;
    } else if (g.family === "mexican-train") {
      const text = pages["mexican-train"].map((s) => s.text).join("");
      for (const n of [o.hand_size, o.rounds, 91])
        if (!new RegExp(`(^|\\D)${n}(\\D|$)`).test(text)) fail(`${l}: Mexican Train should say ${n}`);
      checked++;
    } else if (g.family === "dice-and-dominoes") {
      const text = pages["dice-and-dominoes"].map((s) => s.text).join("");
      for (const id of ["dd-match-points", "dd-wild", "dd-perfect", "dd-w-perfect", "dd-pot"])
        if (!pages["dice-and-dominoes"].some((s) => s.id === id)) fail(`${l}: Dice & Dominoes lacks the section ${id}`);
      for (const n of [o.hands, o.ante])
        if (!new RegExp(`(^|\\D)${n}(\\D|$)`).test(text)) fail(`${l}: Dice & Dominoes should say ${n}`);
      checked++;
    }
  }
}
if (bad) {
  console.error(`${bad} problem(s)`);
  process.exit(1);
}
console.log(
  `rules text: ${langs.join(", ")} have the same ${Object.values(en).flat().length} sections; ${checked} preset checks against the engine`,
);
