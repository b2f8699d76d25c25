// The engine in the browser (docs/wasm.md): a typed client of the engine's
// Web Worker (worker.ts). Each request is one line of the engine protocol
// (docs/protocol.md) and its answer the object `boneyard engine` would
// print; the page stays responsive while the worker thinks.
//   const engine = new Engine();
//   await engine.request({ cmd: "new", game: "latin", seed: 7 });
//   const { legal } = await engine.request({ cmd: "legal" });
//   const bot = await engine.request({ cmd: "bot", bot: "ismcts", think_ms: 150 });
import type { WorkerAnswer, WorkerRequest } from "./protocol";

// A protocol request: `cmd` and its fields (docs/protocol.md).
export interface EngineRequest {
  cmd: string;
  [field: string]: unknown;
}
// An answer: `ok`, and `error` when not ok; the rest depends on the command.
export interface EngineAnswer {
  ok: boolean;
  error?: string;
  // deno-lint-ignore no-explicit-any
  [field: string]: any;
}
export interface BenchResult {
  game: string;
  seconds: number;
  hands: number;
  unit: string;
  hands_per_second: number;
  moves_per_second: number;
  state_bytes: number;
}

// The worker's address: dist/engine/worker.js, beside the bundle that
// imports this module (dist/app.js, or dist/engine/client.js).
export function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  return new URL(/\/engine\/client\.js([?#].*)?$/.test(here) ? "worker.js" : "engine/worker.js", here);
}

export class Engine {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (answer: string) => void; reject: (e: Error) => void }>();
  private broken: Error | null = null;

  constructor(workerUrl: URL | string = defaultWorkerUrl()) {
    this.worker = new Worker(workerUrl);
    this.worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      const a = e.data;
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if ("answer" in a) p.resolve(a.answer);
      else p.reject(new Error(a.error));
    };
    this.worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.fail(new Error(`the engine's worker failed: ${e.message || "it could not be loaded"}`));
    };
  }

  // One protocol line in, its answer line out (both without a newline).
  line(line: string): Promise<string> {
    return this.post({ id: 0, line });
  }

  // One request object in, the answer object out (`ok` false with `error`
  // for a bad request, as the native engine answers).
  async request(req: EngineRequest): Promise<EngineAnswer> {
    return JSON.parse(await this.line(JSON.stringify(req))) as EngineAnswer;
  }

  // Random playouts of one game for `seconds`: the engine's speed here.
  async bench(game: string, seconds: number): Promise<BenchResult> {
    const r = JSON.parse(await this.post({ id: 0, bench: { game, seconds } }));
    if (r.error) throw new Error(r.error);
    return r as BenchResult;
  }

  // Stops the worker at once (a bot thinking included); pending requests fail.
  terminate(): void {
    this.worker.terminate();
    this.fail(new Error("the engine was stopped"));
  }

  private post(req: WorkerRequest): Promise<string> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  private fail(e: Error): void {
    this.broken = e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
