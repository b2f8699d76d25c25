// Every message catalogue has every key (and no stray ones), every key the
// code uses exists, and every message keeps the same {placeholders}.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
// A language's catalogue: lang/X.ts, the games' options (lang/options/X.ts)
// and the words after a game (lang/after/X.ts).
const load = (lang) => {
  const text = ["", "options", "after"].map((d) => readFileSync(join(src, "lang", d, lang + ".ts"), "utf8")).join("\n");
  const out = {};
  for (const m of text.matchAll(/^\s*"([^"]+)":\s*"((?:[^"\\]|\\.)*)",?\s*$/gm)) out[m[1]] = m[2];
  return out;
};
const langs = readdirSync(join(src, "lang"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""));
const cats = Object.fromEntries(langs.map((l) => [l, load(l)]));
let bad = 0;
const fail = (msg) => {
  console.error("FAIL " + msg);
  bad++;
};
const en = cats.en;
if (Object.keys(en).length < 100) fail(`en has only ${Object.keys(en).length} keys: the catalogue did not parse`);
for (const l of langs) {
  for (const k of Object.keys(en)) if (!(k in cats[l])) fail(`${l} lacks "${k}"`);
  for (const k of Object.keys(cats[l])) if (!(k in en)) fail(`${l} has "${k}", which en lacks`);
  for (const k of Object.keys(en)) {
    if (!(k in cats[l])) continue;
    const ph = (s) =>
      [...s.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .sort()
        .join(",");
    if (ph(en[k]) !== ph(cats[l][k])) fail(`${l} "${k}" has placeholders {${ph(cats[l][k])}}, en has {${ph(en[k])}}`);
  }
}
// Keys used in the code: t("a.b") literals, and the prefixes of built keys.
const code = ["", "boards"]
  .flatMap((d) =>
    readdirSync(join(src, d))
      .filter((f) => f.endsWith(".ts") && f !== "i18n.ts")
      .map((f) => readFileSync(join(src, d, f), "utf8")),
  )
  .join("\n");
for (const m of code.matchAll(/"([a-z0-9]+\.[a-z0-9_.-]+)"/g)) {
  const k = m[1];
  if (
    /^(opt|optname|game|summary|bonus|trump|bid|bot|move|seatkind|family|grade|unit|dd\.how_|chat\.phrase|chat\.emote)\.?$/.test(
      k,
    )
  )
    continue;
  if (/\.(ts|js|css|html|svg|json|png)$/.test(k) || k.startsWith("boneyard.")) continue;
  if (/^[0-9.]+(em|px)?$/.test(k)) continue; // a number (a drawing's size), not a key
  if (!(k in en)) fail(`the code uses "${k}", which en lacks`);
}
// Built keys: every value they can take.
const need = [
  ...["beginner", "casual", "strong", "expert"].flatMap((l) => ["bot." + l, "seatkind." + l]),
  "seatkind.you",
  "seatkind.friend",
  ...["line", "mexican-train", "texas-42", "dice-and-dominoes"].map((f) => "family." + f),
  ...["single", "special", "split", "all_out"].map((x) => "dd.how_" + x),
  ...["pass", "draw", "redeal", "keep", "reroll", "end_opening"].map((x) => "move." + x),
  ...["redeal", "keep", "reroll", "end_opening"].map((x) => "log." + x),
  ...["best", "good", "inaccuracy", "mistake", "blunder"].map((x) => "grade." + x),
  ...["points", "wins", "marks", "pips", "chips"].map((x) => "unit." + x),
  ...[
    "void_reset",
    "last_player_wins",
    "closest_to_leader",
    "closest_to_leader_teams",
    "void",
    "void_same_leader",
    "last_player_loses",
    "lowest_player_wins",
  ].map((x) => "tie." + x),
  ...["wild", "perfect", "W-perfect"].map((x) => "special." + x),
  ...["thumbs_up", "clap", "laugh", "wow", "sad", "thinking"].map((x) => "chat.emote." + x),
  ...["won", "lost", "drawn"].map((x) => "player." + x),
  ...["hello", "buena", "capicua", "paso", "good_game", "well_played", "thanks", "oops", "hurry", "bye"].map(
    (x) => "chat.phrase." + x,
  ),
  ...["blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "doubles", "follow-me", "nello", "sevens"].map(
    (x) => "trump." + x,
  ),
];
for (const k of need) if (!(k in en)) fail(`en lacks the built key "${k}"`);
// No text in components: no string with a space and letters passed straight to h().
for (const m of code.matchAll(/h\("[a-z0-9]+", [^)]*?, "([A-Za-z][^"]* [^"]*)"\)/g))
  fail(`text in a component: "${m[1]}"`);
if (bad) {
  console.error(`${bad} problem(s)`);
  process.exit(1);
}
console.log(`i18n: ${langs.join(", ")} each have all ${Object.keys(en).length} keys`);
