// `npm test`: every test of the app, one after another, against the
// boneyard built in ../build (or the executable named as the argument):
// the catalogues, the imports (no cycle), the how-to-play texts, then the browser tests in Chromium.
//   npm test                 npm test -- ../build-asan/boneyard
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { webDir } from "./harness.mjs";

const exe = resolve(process.argv[2] || join(webDir, "..", "build", "boneyard"));
if (!existsSync(exe)) {
  console.error(`no boneyard executable at ${exe}: build it first (../scripts/setup.sh)`);
  process.exit(2);
}
const shots = join(webDir, "..", "build", "screenshots");
const tests = [
  ["i18n.mjs"],
  ["imports.mjs"],
  ["rules_text.mjs", exe],
  ["browser.mjs", exe, shots],
  ["rules.mjs", exe, shots],
  ["layout.mjs", exe, shots],
  ["lobby.mjs", exe, shots],
  ["social.mjs", exe, shots],
  ["defects.mjs", exe, shots],
  ["attention.mjs", exe, shots],
  ["offline.mjs", exe, shots],
];
let passed = 0,
  failed = 0;
for (const [file, ...args] of tests) {
  console.log(`--- ${file}`);
  const r = spawnSync(process.execPath, [join(webDir, "tests", file), ...args], { stdio: "inherit", cwd: webDir });
  if (r.status === 0) passed++;
  else {
    failed++;
    console.error(`FAILED: ${file} (exit ${r.status ?? r.signal})`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
