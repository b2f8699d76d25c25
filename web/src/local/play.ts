// Games against the computer on this device: starting one, opening the kept
// one, its record to download. The table is the live table's controller
// (table.ts) with a LocalLink (game.ts) in place of the server.
import { Table, badLink } from "../table";
import { LocalGame, LocalLink, localTableId, newSeed, refusal, saveLocalGame, savedLocalGame } from "./game";

// The address of the game on this device (one is kept at a time).
export const LOCAL_URL = "/?local=1";
// Choosing a game against the computer (every preset, option and level).
export const LOCAL_SETUP_URL = "/?computer=1";

export interface LocalGameInfo {
  name: string;
  family: string;
  options: Record<string, unknown>;
}

// A new game: kept at once (a closed tab finds it again), then opened. The
// engine's refusal of the options (the kept game stays) is answered instead.
export async function startLocalGame(
  g: LocalGameInfo,
  options: Record<string, string>,
  seats: string[],
  go: (url: string) => void,
): Promise<string> {
  const changed: Record<string, string> = {};
  for (const k in options) if (String(g.options[k]) !== options[k]) changed[k] = options[k];
  const no = await refusal(g.name, changed);
  if (no) return no;
  const game: LocalGame = {
    game: g.name,
    family: g.family,
    options: changed,
    seed: newSeed(),
    seats,
    moves: [],
    created: Date.now(),
  };
  saveLocalGame(game);
  go(LOCAL_URL);
  return "";
}

// The page of the kept game, or a plain word that there is none.
export function localTable(root: HTMLElement, go: (url: string) => void, botDelay: () => number): Table | null {
  const g = savedLocalGame();
  if (!g) {
    badLink(root, "local.none", go);
    return null;
  }
  return new Table(root, localTableId(g), "local", go, new LocalLink(g, botDelay));
}
