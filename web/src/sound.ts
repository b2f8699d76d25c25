// Short sounds made here with Web Audio (nothing downloaded): a tile laid, a
// pass, a draw, a hand's end. Muted by a toggle remembered in the browser.
import { svgEl } from "./icons";

const KEY = "boneyard.mute";
let ctx: AudioContext | null = null;

export function muted(): boolean {
  return localStorage.getItem(KEY) === "1";
}
export function setMuted(m: boolean) {
  localStorage.setItem(KEY, m ? "1" : "0");
}

type Kind = "play" | "pass" | "draw" | "hand" | "turn";
// Each sound: notes of [frequency Hz, start s, length s], one wave shape.
const SOUNDS: Record<Kind, { wave: OscillatorType; notes: [number, number, number][]; gain: number }> = {
  play: { wave: "triangle", notes: [[740, 0, 0.07]], gain: 0.25 },
  pass: {
    wave: "sine",
    notes: [
      [330, 0, 0.1],
      [262, 0.11, 0.14],
    ],
    gain: 0.2,
  },
  draw: {
    wave: "square",
    notes: [
      [196, 0, 0.06],
      [247, 0.07, 0.06],
    ],
    gain: 0.08,
  },
  // Your turn, heard while the tab is in the background (attention.ts).
  turn: {
    wave: "sine",
    notes: [
      [880, 0, 0.12],
      [1175, 0.14, 0.2],
    ],
    gain: 0.22,
  },
  hand: {
    wave: "sine",
    notes: [
      [523, 0, 0.15],
      [659, 0.12, 0.15],
      [784, 0.24, 0.3],
    ],
    gain: 0.2,
  },
};

export function sound(kind: Kind) {
  // Counted for the browser test, heard unless muted.
  const w = window as unknown as { __sounds?: Record<string, number> };
  w.__sounds = w.__sounds || {};
  if (muted()) return;
  w.__sounds[kind] = (w.__sounds[kind] || 0) + 1;
  try {
    const AC =
      window.AudioContext || (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    ctx = ctx || new AC();
    if (ctx.state === "suspended") void ctx.resume();
    const s = SOUNDS[kind],
      t0 = ctx.currentTime + 0.01;
    for (const [f, at, len] of s.notes) {
      const o = ctx.createOscillator(),
        g = ctx.createGain();
      o.type = s.wave;
      o.frequency.value = f;
      g.gain.setValueAtTime(0, t0 + at);
      g.gain.linearRampToValueAtTime(s.gain, t0 + at + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      o.connect(g).connect(ctx.destination);
      o.start(t0 + at);
      o.stop(t0 + at + len + 0.02);
    }
  } catch {
    /* no audio here: silence */
  }
}

// A speaker drawn in SVG (an emoji may have no glyph on the device: icons.ts).
export function speakerIcon(off: boolean): SVGSVGElement {
  const svg = svgEl("svg", {
    viewBox: "0 0 20 20",
    width: "20",
    height: "20",
    "aria-hidden": "true",
    class: "speaker",
  }) as SVGSVGElement;
  svg.appendChild(svgEl("polygon", { points: "2,7.5 6,7.5 10.5,3.5 10.5,16.5 6,12.5 2,12.5", fill: "currentColor" }));
  const line = { stroke: "currentColor", "stroke-width": "2", fill: "none", "stroke-linecap": "round" };
  if (off) {
    svg.appendChild(svgEl("line", { x1: "13", y1: "7", x2: "18", y2: "13", ...line }));
    svg.appendChild(svgEl("line", { x1: "18", y1: "7", x2: "13", y2: "13", ...line }));
  } else {
    svg.appendChild(svgEl("path", { d: "M13 7 q2.5 3 0 6", ...line }));
    svg.appendChild(svgEl("path", { d: "M15.5 4.5 q4.5 5.5 0 11", ...line }));
  }
  return svg;
}
