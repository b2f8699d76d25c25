// The server's API (docs/server.md): HTTP for the lobby, a WebSocket per seat.
import { serverError, t } from "./i18n";
import type { GameView } from "./boards/view";
export interface GameInfo {
  name: string;
  family: string;
  summary: string;
  sources: string;
  options: Record<string, unknown>;
  catalogue: Record<string, unknown>;
  seats: number;
}
export interface SeatInfo {
  seat: number;
  player: string;
  joined: boolean;
  connected: boolean;
  autopilot: boolean;
  name?: string | null;
  player_id?: string | null;
  rating?: Rating | null; // beside the name (terms.ts)
  rated?: Rating & { change: number }; // after a rated game's end
  bot_moves?: number; // moves a bot made for this person
}
export interface Rating {
  rating: number;
  rd: number;
  provisional: boolean;
  games?: number;
  // A bot level before its first rated game here: its published rating.
  measured?: boolean;
}
// A finished table's rematch: the new table and this seat's place there (docs/server.md).
export interface Rematch {
  table: string;
  seat: number | null;
  token: string | null; // null: this seat did not accept (it went to a bot)
  spectate?: string; // the new table's spectator token (for "Share")
}
// The rematch's answer while the others have not all accepted.
export interface RematchOffer {
  status: "offered" | "declined";
  accepted?: number[];
}
// The seat's view, per family (boards/view.ts); null while a table waits.
export type { GameView } from "./boards/view";
export interface StateMsg {
  type: "state";
  table: string;
  game: string;
  seat: number | null;
  status: "waiting" | "playing" | "over" | "broken" | "aborted";
  version: number;
  view: GameView | null;
  actor?: { kind: string; seat?: number; seats?: number[] };
  to_act: boolean;
  legal: string[];
  scores?: number[];
  hands_finished?: number;
  seats: SeatInfo[];
  notices: { n: number; seat: number | null; text: string }[];
  log?: LogEntry[]; // the public log, the last 40 entries (docs/server.md)
  waiting_for?: number[];
  returns?: number[];
  secret?: string;
  rematch?: Rematch;
  rematch_offer?: { accepted: number[]; asked: number };
  rated?: boolean;
  // A rated table that will not be rated, and why: a guest at `seat`, or
  // two players of one network (`seat` and `other`).
  unrated?: { why: string; seat: number; other?: number };
  abortable?: { idle_seat: number }; // a game that never really started
  bot_played?: { n: number; seat: number; why: "time" | "away" }[];
  commitment: string;
  error?: string;
}

export interface LogEntry {
  n: number;
  hand: number;
  kind: "move" | "laid" | "deal" | "roll" | "chance";
  seat: number | null;
  move: string | null;
}

// A finished game, step by step (docs/server.md, Replay).
export interface ReplayStep {
  view: GameView;
  scores: number[];
  hands_finished: number;
  over: boolean;
  chance?: boolean;
  text?: string;
  seat?: number;
  hand?: { text: string; how: string };
}
export interface ReplayData {
  game: string;
  family: string;
  seats: number;
  players: string[];
  names?: string[];
  over: boolean;
  steps: ReplayStep[];
  table?: string;
  next?: number | null;
}

// The server answers a replay a page of steps at a time ("next": where the
// next page starts, null at the end); the app shows the whole game.
async function allPages(first: (from: number) => Promise<ReplayData>): Promise<ReplayData> {
  const r = await first(0);
  while (r.next != null) {
    const page = await first(r.next);
    r.steps.push(...page.steps);
    r.next = page.next;
  }
  return r;
}

// A refused call: the HTTP status and the server's text.
export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
  ) {
    super(message);
  }
}

// body: an object to send as JSON, or JSON text sent as it is.
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  // fetch itself fails (offline, server down) with a browser's own words
  // ("Failed to fetch"): said in the user's language instead.
  const r = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : undefined,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  }).catch(() => {
    throw new ApiError(t("error.unreachable"), 0);
  });
  const j = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new ApiError(serverError(j.error || `HTTP ${r.status}`, j.code), r.status);
  return j as T;
}

// A hint as the server and the offline engine answer it (docs/server.md).
export interface HintAnswer {
  version: number;
  bot: string;
  unit?: string; // the values' unit: points, wins, marks, pips, chips
  moves: { move: string; value: number; se?: number }[];
}

export const api = {
  games: () => call<{ games: GameInfo[]; bot_levels: string[] }>("GET", "/api/games"),
  watch: () => call<{ games?: unknown[] }>("GET", "/api/watch"),
  create: (body: unknown) =>
    call<{ id: string; tokens: Record<string, string>; spectate: string; commitment: string; seats: number }>(
      "POST",
      "/api/tables",
      body,
    ),
  state: (id: string, token: string) => call<StateMsg>("GET", `/api/tables/${id}?token=${encodeURIComponent(token)}`),
  hint: (id: string, token: string) =>
    call<HintAnswer>("GET", `/api/tables/${id}/hint?token=${encodeURIComponent(token)}`),
  review: (id: string, token: string, hand: number, seat: number | null = null) =>
    call<Record<string, unknown>>(
      "GET",
      `/api/tables/${id}/review?token=${encodeURIComponent(token)}&hand=${hand}` +
        (seat === null ? "" : `&seat=${seat}`),
    ),
  replay: (id: string) => allPages((from) => call<ReplayData>("GET", `/api/tables/${id}/replay?from=${from}`)),
  replayRecord: (record: string) => allPages((from) => call<ReplayData>("POST", `/api/replay?from=${from}`, record)),
  fairness: (id: string) => call<Record<string, unknown>>("GET", `/api/tables/${id}/fairness`),
  // Players (docs/server.md, Players): a name and a key kept in this browser.
  createPlayer: (name: string) => call<Player>("POST", "/api/players", { name }),
  // A password for this player (its key proves who asks), and the login
  // that gives another device a key for the same player.
  setPassword: (p: Player, password: string) =>
    call<{ id: string; name: string }>("POST", `/api/players/${encodeURIComponent(p.id)}/password`, {
      key: p.key,
      password,
    }),
  login: (name: string, password: string) => call<Player>("POST", "/api/players/login", { name, password }),
  // Sitting down: the seat takes the player's name.
  join: (id: string, token: string, key: string) => call<StateMsg>("POST", `/api/tables/${id}/join`, { token, key }),
  rematch: (id: string, token: string, accept = true) =>
    call<Rematch | RematchOffer>("POST", `/api/tables/${id}/rematch`, { token, accept }),
  abort: (id: string, token: string) => call<StateMsg>("POST", `/api/tables/${id}/abort`, { token }),
  // Quick match: wait for others (docs/server.md); the status; leaving.
  quickmatch: (body: Record<string, unknown>) => call<QuickMatch>("POST", "/api/quickmatch", body),
  quickmatchStatus: (key: string) => call<QuickMatch>("GET", `/api/quickmatch?key=${encodeURIComponent(key)}`),
  quickmatchLeave: (key: string) => call<QuickMatch>("DELETE", `/api/quickmatch?key=${encodeURIComponent(key)}`),
  // An invitation link opened: its seat's own token, for this browser alone.
  claim: (id: string, token: string) =>
    call<{ table: string; seat: number; token: string }>("POST", `/api/tables/${id}/claim`, { token }),
  // A free seat of a public table (the lobby's "Sit down").
  sit: (id: string, body: Record<string, unknown>) =>
    call<{ table: string; seat: number; token: string }>("POST", `/api/tables/${id}/sit`, body),
  chat: (id: string, token: string, line: { text?: string; phrase?: string; emote?: string }) =>
    call<{ line: unknown }>("POST", `/api/tables/${id}/chat`, { token, ...line }),
};

// Where a quick match stands: still waiting (with how many are there), or seated.
export interface QuickMatch {
  status: "waiting" | "seated" | "cancelled";
  game: string;
  waiting?: number; // who could sit at one table with you (you included)
  same_network?: number; // rated: others waiting from your network, who never sit with you
  seats?: number;
  seconds_left?: number;
  rated?: boolean;
  clock?: { move_s: number; bank_s: number };
  table?: string;
  seat?: number;
  token?: string;
}

// A public table waiting for players, as the lobby's feed lists it.
export interface LobbyTable {
  table: string;
  game: string;
  free: number;
  created: number;
  seats: {
    seat: number;
    kind: "human" | "open" | "bot";
    level?: string;
    taken?: boolean;
    name?: string;
    rating?: Rating;
  }[];
  options?: Record<string, string>;
  rated?: boolean;
  clock?: number | null;
}

// This browser's player: made on the first sitting down, kept here (the key
// is its only proof, never shown to anyone else).
export interface Player {
  id: string;
  key: string;
  name: string;
}
const PLAYER = "boneyard.player";
export function myPlayer(): Player | null {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return p && typeof p.key === "string" && typeof p.name === "string" ? p : null;
  } catch {
    return null;
  }
}
export function forgetMyPlayer() {
  localStorage.removeItem(PLAYER);
}
export function saveMyPlayer(p: Player) {
  localStorage.setItem(PLAYER, JSON.stringify({ id: p.id, key: p.key, name: p.name }));
}

// How long to wait before reconnecting, `since` ms after the connection
// dropped, at the `retry`th try. For the first 6 s a try about every second
// (0.5 to 1.5 s at random, so thousands of pages do not come back in step):
// a lost server node's tables are taken by another within about 5 s, and a
// player should see the game go on soon after. Then backing off to 8 s.
export function reconnectDelay(since: number, retry: number): number {
  if (since < 6000) return 500 + Math.random() * 1000;
  return Math.min(8000, 1000 * 2 ** Math.max(0, retry - 6));
}

// One seat's live connection: reconnects with backoff after a drop, asks for
// the state again on reconnecting, so a reload or a lost network keeps the seat.
export class Live {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private droppedAt = 0;
  private timer: number | undefined;
  private pinger: number | undefined;
  constructor(
    private id: string,
    private token: string,
    private onState: (m: StateMsg) => void,
    private onStatus: (connected: boolean) => void,
    private onError: (e: string) => void,
    private entropy = "",
  ) {
    this.open();
    window.addEventListener("online", () => this.kick());
  }
  private open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The seat's entropy (docs/server.md, Fairness): random bytes from this
    // browser, mixed into the seed before the deal; ignored once the game started.
    const e = this.entropy ? `&entropy=${encodeURIComponent(this.entropy)}` : "";
    const ws = new WebSocket(`${proto}://${location.host}/ws?table=${this.id}&token=${this.token}${e}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
      clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      let m: { type: string; error?: string; code?: string };
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.type === "state") this.onState(m as StateMsg);
      else if (m.type === "error") this.onError(serverError(m.error || "error", m.code));
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.onStatus(false);
      if (this.closed) return;
      if (this.retry++ === 0) this.droppedAt = Date.now();
      this.timer = window.setTimeout(() => this.open(), reconnectDelay(Date.now() - this.droppedAt, this.retry));
    };
  }
  kick() {
    if (this.ws || this.closed) return;
    clearTimeout(this.timer);
    this.open();
  }
  send(m: unknown): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(m));
    return true;
  }
  move(move: string): boolean {
    return this.send({ type: "move", move });
  }
  // A chat line over this connection (docs/server.md, Chat); false when it is not open.
  chat(line: { text?: string; phrase?: string; emote?: string }): boolean {
    return this.send({ type: "chat", ...line });
  }
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.ws?.close();
  }
}

// Tables this browser created or joined (localStorage), newest first.
export interface SavedTable {
  id: string;
  token: string;
  game: string;
  seat: number;
  created: number;
  invites: Record<string, string>;
  spectate: string;
}
const KEY = "boneyard.tables";
export function savedTables(): SavedTable[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    return [];
  }
}
export function saveTable(t: SavedTable) {
  const all = savedTables().filter((x) => !(x.id === t.id && x.token === t.token));
  all.unshift(t);
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 30)));
}
export function forgetTable(id: string) {
  localStorage.setItem(KEY, JSON.stringify(savedTables().filter((x) => x.id !== id)));
}
