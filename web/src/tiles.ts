// Dominoes and dice drawn in SVG: pips, never text.
const NS = "http://www.w3.org/2000/svg";

// Pip positions on a 3x3 grid (0..2, 0..2) for 0..9; larger numbers (double-twelve,
// double-fifteen sets) use a 4x4-ish layout of up to 15 pips.
const PIPS: Record<number, [number, number][]> = {
  0: [],
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [2, 0],
    [0, 2],
    [2, 2],
  ],
  5: [
    [0, 0],
    [2, 0],
    [1, 1],
    [0, 2],
    [2, 2],
  ],
  6: [
    [0, 0],
    [2, 0],
    [0, 1],
    [2, 1],
    [0, 2],
    [2, 2],
  ],
  7: [
    [0, 0],
    [2, 0],
    [0, 1],
    [1, 1],
    [2, 1],
    [0, 2],
    [2, 2],
  ],
  8: [
    [0, 0],
    [1, 0],
    [2, 0],
    [0, 1],
    [2, 1],
    [0, 2],
    [1, 2],
    [2, 2],
  ],
  9: [
    [0, 0],
    [1, 0],
    [2, 0],
    [0, 1],
    [1, 1],
    [2, 1],
    [0, 2],
    [1, 2],
    [2, 2],
  ],
};
// Colours per number, as on many real sets (helps telling 6 from 9 at a glance).
const PIP_COLOURS = [
  "#222",
  "#1b6fb3",
  "#2e8b3d",
  "#c0392b",
  "#7d3c98",
  "#b7650b",
  "#1a1a1a",
  "#a0522d",
  "#0e7c7b",
  "#6d4c41",
  "#c2185b",
  "#455a64",
  "#2c3e50",
  "#8e44ad",
  "#16a085",
  "#d35400",
];

function pipPositions(n: number): [number, number][] {
  if (n <= 9) return PIPS[n];
  // 10..15 (double-twelve and double-fifteen sets): two full outer columns of
  // 4 (or 5) pips and the rest centred in the middle column, as real sets do.
  const rows = n <= 12 ? 4 : 5;
  const step = 2 / (rows - 1);
  const out: [number, number][] = [];
  for (let r = 0; r < rows; r++) out.push([0, r * step], [2, r * step]);
  const mid = n - 2 * rows;
  const start = (2 - (mid - 1) * step) / 2;
  for (let i = 0; i < mid; i++) out.push([1, start + i * step]);
  return out;
}

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

function half(g: SVGElement, n: number, x: number, y: number, s: number, colour: boolean) {
  // a square half of side s at (x, y)
  const pad = s * 0.22,
    step = (s - 2 * pad) / 2;
  const r = n > 12 ? s * 0.07 : n > 9 ? s * 0.08 : s * 0.09; // four rows of pips up to 12 leave room for larger ones
  for (const [cx, cy] of pipPositions(n))
    g.appendChild(
      el("circle", {
        cx: x + pad + cx * step,
        cy: y + pad + cy * step,
        r,
        fill: colour ? PIP_COLOURS[n % PIP_COLOURS.length] : "#222",
      }),
    );
}

export interface TileOpts {
  vertical?: boolean;
  size?: number; // the short side in px
  faceDown?: boolean;
  cls?: string;
  title?: string;
}

// A tile "a-b": a on the left (or top), b on the right (or bottom).
export function tileSvg(a: number, b: number, o: TileOpts = {}): SVGSVGElement {
  const s = o.size ?? 40;
  const w = o.vertical ? s : 2 * s,
    h = o.vertical ? 2 * s : s;
  const svg = el("svg", {
    viewBox: `0 0 ${w} ${h}`,
    width: w,
    height: h,
    class: "tile" + (o.cls ? " " + o.cls : ""),
  }) as SVGSVGElement;
  svg.setAttribute("role", "img");
  if (o.title) {
    const t = el("title", {});
    t.textContent = o.title;
    svg.appendChild(t);
  }
  svg.appendChild(
    el("rect", {
      x: 1,
      y: 1,
      width: w - 2,
      height: h - 2,
      rx: s * 0.14,
      class: o.faceDown ? "tile-back" : "tile-face",
    }),
  );
  if (o.faceDown) {
    svg.appendChild(
      el("rect", {
        x: s * 0.18,
        y: s * 0.18,
        width: w - s * 0.36,
        height: h - s * 0.36,
        rx: s * 0.08,
        class: "tile-back-inner",
      }),
    );
    return svg;
  }
  if (o.vertical) {
    svg.appendChild(el("line", { x1: s * 0.15, y1: s, x2: s * 0.85, y2: s, class: "tile-bar" }));
    half(svg, a, 0, 0, s, true);
    half(svg, b, 0, s, s, true);
  } else {
    svg.appendChild(el("line", { x1: s, y1: s * 0.15, x2: s, y2: s * 0.85, class: "tile-bar" }));
    half(svg, a, 0, 0, s, true);
    half(svg, b, s, 0, s, true);
  }
  return svg;
}

export function parseTile(t: string): [number, number] {
  const m = /^(\d+)-(\d+)/.exec(t);
  if (!m) return [0, 0];
  return [Number(m[1]), Number(m[2])];
}

export function tileFrom(t: string, o: TileOpts = {}): SVGSVGElement {
  const [a, b] = parseTile(t);
  return tileSvg(a, b, o);
}

// A die face 1..6 (or any value up to 9).
export function dieSvg(n: number, size = 44): SVGSVGElement {
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "die" }) as SVGSVGElement;
  svg.appendChild(el("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: size * 0.18, class: "die-face" }));
  const pad = size * 0.25,
    step = (size - 2 * pad) / 2;
  for (const [cx, cy] of pipPositions(Math.min(n, 9)))
    svg.appendChild(el("circle", { cx: pad + cx * step, cy: pad + cy * step, r: size * 0.085, class: "die-pip" }));
  return svg;
}
