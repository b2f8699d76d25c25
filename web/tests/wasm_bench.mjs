// Figures for docs/wasm.md (run by hand, not by ctest; nothing is checked):
// the WebAssembly engine under Node against the native build on the same
// machine, one thread each: the engine's size, its cold load, random
// playouts per second of each family (`boneyard bench`), and a bot's first
// move at each of the server's levels.
//   node tests/wasm_bench.mjs BONEYARD_EXE [SECONDS]
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { webDir } from "./harness.mjs";

const exe = process.argv[2];
const seconds = Number(process.argv[3] || 2);
const dir = join(webDir, "dist", "engine");
const size = (f) => {
  const b = readFileSync(join(dir, f));
  return `${f} ${(b.length / 1024).toFixed(0)} KiB (${(gzipSync(b, { level: 9 }).length / 1024).toFixed(0)} KiB gzip)`;
};
console.log(`size: ${["engine.wasm", "engine.js", "worker.js", "client.js"].map(size).join(", ")}`);

const t0 = performance.now();
// wasmBinary: emscripten 3.1.6 would fetch() the .wasm by its path, which Node's fetch refuses.
const m = await createRequire(import.meta.url)(join(dir, "engine.js"))({
  wasmBinary: readFileSync(join(dir, "engine.wasm")),
});
const wasm = m.cwrap("boneyard_handle", "string", ["string"]);
const bench = m.cwrap("boneyard_bench", "string", ["string", "number"]);
wasm(JSON.stringify({ cmd: "new", game: "latin", seed: 1 }));
wasm(JSON.stringify({ cmd: "legal" }));
console.log(`cold load to the first legal move (Node ${process.version}): ${(performance.now() - t0).toFixed(0)} ms`);

const native = spawn(exe, ["engine"], { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: native.stdout });
const waiting = [];
lines.on("line", (l) => waiting.shift()(l));
const nat = (line) =>
  new Promise((res) => {
    waiting.push(res);
    native.stdin.write(line + "\n");
  });

// Per second of CPU time (the process's for wasm, the thread's natively):
// the machine may be busy with other work.
for (const game of ["latin", "mexican-train", "texas-42", "dice-and-dominoes"]) {
  const c0 = process.cpuUsage();
  const w = JSON.parse(bench(game, seconds));
  const c = process.cpuUsage(c0);
  const wCpu = w.hands / ((c.user + c.system) / 1e6);
  const n = JSON.parse(
    spawnSync(exe, ["bench", game, "--seconds", String(seconds), "--json"], { encoding: "utf8" }).stdout,
  )[0];
  console.log(
    `${game}: random ${w.unit} per CPU second: wasm ${wCpu.toFixed(0)}, native ${n.hands_per_second_cpu.toFixed(0)} ` +
      `(wasm/native ${(wCpu / n.hands_per_second_cpu).toFixed(2)}; wall clock: wasm ${w.hands_per_second.toFixed(0)}, ` +
      `native ${n.hands_per_second.toFixed(0)})`,
  );
}

// A bot's move at each of the server's levels, and a search with a fixed
// number of iterations (the speed of search itself), from the position after
// eight greedy moves (a real choice: the first moves are often forced).
const games = JSON.parse(wasm(JSON.stringify({ cmd: "games", detail: true }))).games;
for (const game of ["latin", "jamaica", "mexican-train", "texas-42", "dice-and-dominoes"]) {
  const strongest = games.find((g) => g.name === game).strongest; // the levels' search bot
  const fixed = strongest === "pimc" ? 50 : 20000;
  const levels = [
    ...["beginner", "casual", "strong", "expert"].map((l) => [l, { bot: l }]),
    [`${strongest} ${fixed} iterations`, { bot: strongest, iterations: fixed }],
  ];
  const out = [];
  for (const [level, b] of levels) {
    const times = [];
    for (const [name, run] of [
      ["wasm", async (l) => wasm(l)],
      ["native", nat],
    ]) {
      await run(JSON.stringify({ cmd: "new", game, seed: 3 }));
      let legal;
      for (let k = 0; ; k++) {
        legal = JSON.parse(await run(JSON.stringify({ cmd: "legal" })));
        const moves = legal.legal || Object.values(legal.legal_by_seat)[0];
        if (k >= 8 && moves.length > 1) break;
        const seat = legal.legal ? legal.seat : Number(Object.keys(legal.legal_by_seat)[0]);
        await run(JSON.stringify({ cmd: "bot", bot: "greedy", seat }));
      }
      const seat = legal.legal ? legal.seat : Number(Object.keys(legal.legal_by_seat)[0]);
      const t = performance.now();
      const a = JSON.parse(await run(JSON.stringify({ cmd: "bot", ...b, seat })));
      if (!a.ok) throw new Error(`${game} ${level}: ${a.error}`);
      times.push(`${name} ${(performance.now() - t).toFixed(0)} ms`);
    }
    out.push(`${level}: ${times.join(" / ")}`);
  }
  console.log(`${game}, a move: ${out.join("; ")}`);
}
native.stdin.end();
