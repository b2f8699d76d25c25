// Every family's board, by its family: the one list of them in the app (a
// new family's board is a module in boards/ and a line here). A family with
// no board of its own gets the generic one: its moves as the hand's tiles
// and buttons, its scores per side; the table plays it all the same.
import { h } from "../dom";
import { t, hasKey } from "../i18n";
import type { Board } from "./board";
import { lineBoard } from "./line";
import { mexicanTrainBoard } from "./mexican_train";
import { texas42Board } from "./texas42";
import { diceDominoesBoard } from "./dice_dominoes";

const BOARDS: Record<string, Board> = {
  "line": lineBoard,
  "mexican-train": mexicanTrainBoard,
  "texas-42": texas42Board,
  "dice-and-dominoes": diceDominoesBoard,
};

// The key of a word that names a hand, in the family's own word: its
// "_round" form where the hands are rounds (Mexican Train).
export function handKey(family: string, key: string): string {
  return family && boardOf(family).roundsNotHands && hasKey(key + "_round") ? key + "_round" : key;
}

// The families in the order the lobby offers them (its tabs, the leaderboards).
export const FAMILIES = Object.keys(BOARDS);
// Each family's one-click game (quick play, quick match), in that order.
export const QUICK_GAMES = FAMILIES.map((f) => BOARDS[f].quick).filter((g): g is string => !!g);

export const genericBoard: Board = {
  draw: () => [],
  diff: () => {},
  summary(c, body) {
    const s: number[] = ("scores" in c.v && c.v.scores) || c.msg.scores || [];
    body.appendChild(
      h(
        "p",
        null,
        c.f
          .sideOrder(c, s.length)
          .map((side) => `${c.f.sideName(c, side)}: ${s[side]}`)
          .join(" · "),
      ),
    );
  },
};

export function boardOf(family: string | undefined): Board {
  return (family && BOARDS[family]) || genericBoard;
}

// A family's name in the user's words (its own name where the catalogue has none).
export function familyName(family: string): string {
  return hasKey("family." + family) ? t("family." + family) : family;
}
