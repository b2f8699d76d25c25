// The engine's Web Worker (docs/wasm.md): loads the WebAssembly engine
// (engine.js + engine.wasm, built from the same C++ sources as `boneyard
// engine`, into web/dist/engine/ beside this worker) and answers each
// protocol line in turn, so the page never waits while a bot thinks.
// Bundled by build.mjs into dist/engine/worker.js, a classic worker.
import type { WorkerAnswer, WorkerRequest } from "./protocol";

interface EngineModule {
  cwrap(name: string, returns: "string", args: string[]): (...args: (string | number)[]) => string;
}
declare function importScripts(...urls: string[]): void;
declare function createBoneyardEngine(settings?: object): Promise<EngineModule>;

interface WorkerScope {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerAnswer): void;
}
const scope = self as unknown as WorkerScope;

// engine.js defines createBoneyardEngine; engine.wasm is found beside it.
const ready = (async () => {
  importScripts("engine.js");
  const m = await createBoneyardEngine();
  return {
    handle: m.cwrap("boneyard_handle", "string", ["string"]) as (line: string) => string,
    bench: m.cwrap("boneyard_bench", "string", ["string", "number"]) as (game: string, seconds: number) => string,
  };
})();

// Requests are answered in the order they came: each waits for the engine
// once, then runs to the end (a bot's move is one synchronous call).
scope.onmessage = (e) => {
  const req = e.data;
  ready.then(
    (engine) => {
      try {
        const answer = "line" in req ? engine.handle(req.line) : engine.bench(req.bench.game, req.bench.seconds);
        scope.postMessage({ id: req.id, answer });
      } catch (err) {
        scope.postMessage({ id: req.id, error: `the engine failed: ${String(err)}` });
      }
    },
    (err) => scope.postMessage({ id: req.id, error: `the engine did not load: ${String(err)}` }),
  );
};
