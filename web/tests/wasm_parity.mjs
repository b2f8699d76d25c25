// Same rules, same bots (issue 35, docs/wasm.md): the same seeded games are
// played through the WebAssembly engine (web/dist/engine/engine.js under
// Node) and through the native `boneyard engine`, one protocol line at a
// time, and every answer must be the same text: every state (the whole
// state and each seat's view), every list of legal moves, every bot's move
// (greedy, random and the search bots pimc, ismcts, pimc-plain and
// omniscient with a fixed number of iterations, on one thread and on two),
// the coach's values and the bots' own, the table drawn for a person, the
// results, the game record and the record loaded back, and the errors.
//   node tests/wasm_parity.mjs BONEYARD_EXE [ENGINE_JS]
// Exit 0 when every answer is the same, 1 at the first that differs (both
// printed), 2 when something is missing (the engine not built: never a skip).
// Prints how long the WebAssembly engine took to load and answer its first
// `legal` (a cold load in Node), a figure and not a check.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { webDir } from "./harness.mjs";

const exe = process.argv[2];
const engineJs = resolve(process.argv[3] || join(webDir, "dist", "engine", "engine.js"));
if (!exe || !existsSync(exe)) {
  console.error(`no boneyard executable: ${exe}`);
  process.exit(2);
}
if (!existsSync(engineJs) || !existsSync(engineJs.replace(/\.js$/, ".wasm"))) {
  console.error(`the WebAssembly engine is not built: ${engineJs} (scripts/setup.sh builds it with emscripten)`);
  process.exit(2);
}

// The WebAssembly engine: one session, as one `boneyard engine` process.
const t0 = performance.now();
const createBoneyardEngine = createRequire(import.meta.url)(engineJs);
// wasmBinary: emscripten 3.1.6 would fetch() the .wasm by its path, which
// Node's fetch refuses.
const wasmModule = await createBoneyardEngine({ wasmBinary: readFileSync(engineJs.replace(/\.js$/, ".wasm")) });
const wasmHandle = wasmModule.cwrap("boneyard_handle", "string", ["string"]);
const loadMs = performance.now() - t0;
const firstLines = [{ cmd: "new", game: "latin", seed: 1 }, { cmd: "legal" }].map((r) => JSON.stringify(r));
{
  wasmHandle(firstLines[0]);
  const legal = JSON.parse(wasmHandle(firstLines[1]));
  if (!legal.ok || !legal.legal.length) throw new Error("no legal move from the WebAssembly engine");
  console.log(
    `WebAssembly engine: loaded in ${loadMs.toFixed(0)} ms, first legal move ${(performance.now() - t0).toFixed(0)} ms ` +
      `after a cold load (Node ${process.version})`,
  );
}

// The native engine, line by line.
const native = spawn(exe, ["engine"], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, COLUMNS: "" } });
const lines = createInterface({ input: native.stdout });
const waiting = [];
lines.on("line", (l) => waiting.shift()?.resolve(l));
native.on("exit", (code) => {
  for (const w of waiting.splice(0)) w.reject(new Error(`the native engine exited (${code})`));
});
const nativeHandle = (line) =>
  new Promise((res, rej) => {
    waiting.push({ resolve: res, reject: rej });
    native.stdin.write(line + "\n");
  });

let compared = 0;
const counts = {};
let where = "";
// One request to both engines; the answers must be the same text.
async function ask(req) {
  const line = typeof req === "string" ? req : JSON.stringify(req);
  const n = await nativeHandle(line);
  const w = wasmHandle(line);
  compared++;
  const cmd = typeof req === "string" ? "(raw)" : req.cmd;
  counts[cmd] = (counts[cmd] || 0) + 1;
  if (n !== w) {
    let i = 0;
    while (i < n.length && n[i] === w[i]) i++;
    console.error(`FAIL ${where}: the answers to ${line.slice(0, 300)} differ (at character ${i})`);
    console.error(`  native: ${n.slice(Math.max(0, i - 200), i + 300)}`);
    console.error(`  wasm:   ${w.slice(Math.max(0, i - 200), i + 300)}`);
    console.error(
      "  (both built from the same sources? scripts/setup.sh, or ninja -C build-wasm, rebuilds the engine)",
    );
    native.kill();
    process.exit(1);
  }
  return JSON.parse(n);
}

// The games: every family, Latin and its Caribbean presets (a 2- and a
// 3-player one too), each with a search bot (its strongest and the other).
// bots: one per seat (cycled); a search bot thinks a fixed number of
// iterations, so its move is reproducible. maxDecisions ends long games
// early (the record and results are compared there too).
const search = (bot, iterations, threads = 1) => ({ bot, iterations, threads });
const greedy = { bot: "greedy" };
const random = { bot: "random" };
const games = [
  { game: "latin", seed: 11, bots: [search("ismcts", 24), greedy, search("pimc", 6), greedy], maxDecisions: 140 },
  { game: "latin", seed: 12, bots: [greedy, random, search("omniscient", 8), random], maxDecisions: 2000 },
  { game: "jamaica", seed: 13, bots: [search("ismcts", 24, 2), greedy], maxDecisions: 120 },
  { game: "dominican-patio", seed: 14, bots: [greedy, search("pimc", 4, 2)], maxDecisions: 120 },
  { game: "havana", seed: 15, bots: [greedy], maxDecisions: 2000 },
  { game: "puerto-rico-500", seed: 16, bots: [greedy, random, random, greedy], maxDecisions: 2000 },
  { game: "two-draw", seed: 17, bots: [search("ismcts", 24), greedy], maxDecisions: 120 },
  { game: "three-draw", seed: 18, bots: [greedy, search("pimc", 4), greedy], maxDecisions: 120 },
  {
    game: "mexican-train",
    seed: 21,
    bots: [search("ismcts", 12), greedy, greedy, search("ismcts", 12, 2)],
    maxDecisions: 150,
  },
  { game: "mexican-train", seed: 22, options: { rounds: "3" }, bots: [greedy, random], maxDecisions: 3000 },
  { game: "texas-42", seed: 31, bots: [search("pimc", 4), greedy, search("ismcts", 24), greedy], maxDecisions: 120 },
  {
    game: "texas-42",
    seed: 32,
    bots: [greedy, search("pimc-plain", 3), search("pimc", 3, 2), greedy],
    maxDecisions: 2000,
  },
  {
    game: "dice-and-dominoes",
    seed: 41,
    bots: [search("ismcts", 12), greedy, random, search("ismcts", 12, 2)],
    maxDecisions: 120,
  },
  { game: "dice-and-dominoes", seed: 42, options: { hands: "3" }, bots: [greedy], maxDecisions: 3000 },
];

try {
  // The catalogue, and answers to bad lines.
  where = "the first game";
  for (const line of firstLines) await ask(line);
  where = "the catalogue";
  await ask({ cmd: "games" });
  await ask({ cmd: "help" });
  await ask("{not json");
  await ask({ cmd: "legal" });
  await ask({ cmd: "new", game: "nope" });
  await ask({ cmd: "new", game: "latin", seed: 1.5 });

  for (const g of games) {
    where = `${g.game} seed ${g.seed}`;
    const start = await ask({ cmd: "new", game: g.game, seed: g.seed, options: g.options || {} });
    if (!start.ok) throw new Error(`${where}: ${start.error}`);
    const seats = start.seats;
    await ask({ cmd: "apply", move: "not-a-move" });
    let status = start;
    let decisions = 0;
    while (!status.terminal && decisions < g.maxDecisions) {
      where = `${g.game} seed ${g.seed}, decision ${decisions}`;
      const actor = status.actor;
      // Every state: the whole state and each seat's view.
      await ask({ cmd: "state" });
      for (let s = 0; s < seats; s++) await ask({ cmd: "state", seat: s });
      const seat = actor.kind === "seat" ? actor.seat : actor.seats[0];
      const legal = await ask(actor.kind === "seat" ? { cmd: "legal" } : { cmd: "legal", seat });
      const moves = legal.legal || legal.legal_by_seat[String(seat)];
      if (!moves || !moves.length) throw new Error(`${where}: no legal move for seat ${seat}`);
      if (decisions % 20 === 3) await ask({ cmd: "render", seat });
      if (decisions % 40 === 5) await ask({ cmd: "values", seat, iterations: 4 });
      const own = g.bots[seat % g.bots.length];
      // A search bot's own values (omniscient ones are refused: an error to compare).
      if (decisions % 40 === 25 && own.iterations) await ask({ cmd: "values", bot: own.bot, seat, iterations: 4 });
      let answer;
      if (decisions % 9 === 4) {
        // A legal move given by hand, picked by the decision's number.
        answer = await ask({ cmd: "apply", move: moves[(decisions * 7) % moves.length], seat });
      } else {
        answer = await ask({ cmd: "bot", ...own, seat });
      }
      if (!answer.ok) throw new Error(`${where}: ${answer.error}`);
      status = answer;
      decisions++;
    }
    where = `${g.game} seed ${g.seed}, the end (${decisions} decisions${status.terminal ? ", game over" : ""})`;
    await ask({ cmd: "state" });
    await ask({ cmd: "result" });
    const record = await ask({ cmd: "record" });
    // The record loaded back, whole and half way.
    const events = (record.record && record.record.events && record.record.events.length) || 0;
    await ask({ cmd: "load", record: record.record });
    await ask({ cmd: "state" });
    await ask({ cmd: "load", record: record.record, upto: Math.floor(events / 2) });
    await ask({ cmd: "state", seat: 0 });
    console.log(`ok ${g.game} seed ${g.seed}: ${decisions} decisions${status.terminal ? " (game over)" : ""}`);
  }
  await ask({ cmd: "quit" });
} catch (e) {
  console.error(`FAIL ${where}: ${e.stack || e}`);
  native.kill();
  process.exit(1);
}
native.stdin.end();
console.log(
  `PASS: ${compared} answers the same in the WebAssembly and the native engine (` +
    Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") +
    ")",
);
