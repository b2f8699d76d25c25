// The messages between the page (engine.ts) and the engine's Web Worker
// (worker.ts). Types only: nothing of this file is bundled.

// A request to the worker: one protocol line (docs/protocol.md), or a
// random-playout benchmark of one game (as `boneyard bench NAME`).
export type WorkerRequest = { id: number; line: string } | { id: number; bench: { game: string; seconds: number } };

// Its answer: the engine's answer line, or why there is none (the engine
// did not load, or crashed).
export type WorkerAnswer = { id: number; answer: string } | { id: number; error: string };
