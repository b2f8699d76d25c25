// Every link and URL the app makes, and a game's name in the user's words:
// a leaf module (it imports only the words), so any page may link to any
// other without importing it (tests/imports.mjs keeps the app free of
// import cycles).
import { hasKey, t } from "./i18n";

export const RULE_PAGES = ["line", "mexican-train", "texas-42", "dice-and-dominoes"];

// A game's name ("latin-double-nine") in the user's words.
export function gameName(name: string): string {
  return hasKey("game." + name) ? t("game." + name) : name;
}

// A seat at a table (full: with the origin, to be shared).
export function tableUrl(id: string, token: string, full = false): string {
  const path = `/?t=${id}&k=${token}`;
  return full ? location.origin + path : path;
}

// An invitation to a seat: whoever opens it first takes the seat, with a
// token of their own (the link's is void from then on: main.ts, openInvite).
export function inviteUrl(id: string, token: string): string {
  return `${location.origin}/?t=${id}&i=${token}`;
}

// A finished table's replay.
// as: the seat of the person who played it (from the table's "Step through
// the game"): the replay says "You", "Us" and "Partner" as the table did.
export function replayUrl(id: string, as: number | null = null): string {
  return `/?replay=${id}` + (as !== null ? `&as=${as}` : "");
}

// A player's page.
export const playerUrl = (id: string) => `/?player=${encodeURIComponent(id)}`;

// The rules of a game, opened at its preset's section (a line game's preset).
export function rulesUrl(family: string, preset?: string): string {
  // A family not known yet (a table still waiting): the page finds the preset's game.
  if (!RULE_PAGES.includes(family)) return `/?rules=${preset && /^[a-z0-9-]+$/.test(preset) ? preset : RULE_PAGES[0]}`;
  return `/?rules=${family}` + (preset && preset !== family ? `#${encodeURIComponent(preset)}` : "");
}
