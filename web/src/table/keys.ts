// The live table's keyboard: arrows and Enter (or 1-9) play a tile, L and R
// (or the number it shows) pick a line's end, p passes, d draws, Escape
// closes a dialog. While a dialog is open the keys belong to it, never to
// the hand behind it.
import type { StateMsg } from "../api";
import { Ctx } from "../boards/board";
import { myTiles, tileMoves } from "./view";

export interface KeyCtl {
  msg: StateMsg | null;
  chooser: { tile: string; moves: string[] } | null;
  focus: number;
  dialogOpen(): boolean;
  closeDialog(): boolean; // the share or leave dialog closed (false: none was open)
  ctx(): Ctx;
  send(move: string): void;
  playTile(c: Ctx, tile: string): void;
  redraw(): void;
}

// The key that picks a choice of where a tile goes: a line's end by the
// number it shows ("5" for the 5 end: "1" beside "the 1 end" read as the
// wrong end when the 1 end was the second choice), anything else by its
// place in the list (1-9). The two ends of a line show different numbers
// whenever there is a choice: a tile that fits both alike is one move.
export function chooserKey(c: Ctx, mv: string, i: number): string {
  const end = /:(L|R)$/.exec(mv);
  const ends = "ends" in c.v && c.v.ends;
  return end && ends ? String(ends[end[1] === "L" ? 0 : 1]) : String(i + 1);
}

export function onKey(k: KeyCtl, e: KeyboardEvent) {
  if (k.dialogOpen()) {
    if (e.key === "Escape" && k.closeDialog()) k.redraw();
    return;
  }
  if (!k.msg || !k.msg.to_act) return;
  const tgt = e.target as HTMLElement;
  if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA")) return;
  const c = k.ctx();
  if (k.chooser) {
    const key = e.key.toLowerCase();
    const moves = k.chooser.moves;
    const pick =
      moves.find((mv) =>
        key === "l" || key === "arrowleft"
          ? mv.endsWith(":L")
          : key === "r" || key === "arrowright"
            ? mv.endsWith(":R")
            : false,
      ) ?? moves.find((mv, i) => chooserKey(c, mv, i) === key);
    if (pick) {
      e.preventDefault();
      k.send(pick);
    } else if (key === "escape") {
      k.chooser = null;
      k.redraw();
    }
    return;
  }
  const playable = [...tileMoves(c).keys()];
  const hand: string[] = myTiles(c).filter((x) => playable.includes(x));
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!hand.length) return;
    e.preventDefault();
    k.focus = (k.focus + (e.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
    k.redraw();
  } else if ((e.key === "Enter" || e.key === " ") && hand.length) {
    e.preventDefault();
    k.playTile(c, hand[Math.min(k.focus, hand.length - 1)]);
  } else if (/^[1-9]$/.test(e.key) && hand[Number(e.key) - 1]) {
    e.preventDefault();
    k.playTile(c, hand[Number(e.key) - 1]);
  } else if (e.key === "p" && c.msg.legal.includes("pass")) {
    e.preventDefault();
    k.send("pass");
  } else if (e.key === "d" && c.msg.legal.includes("draw")) {
    e.preventDefault();
    k.send("draw");
  }
}
