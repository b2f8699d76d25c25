// Small pictures drawn in SVG rather than taken from a font: a device
// without a colour-emoji font (many a Linux desktop) draws an emoji as an
// empty box. Each is sized by the text around it (1.25em square).
const NS = "http://www.w3.org/2000/svg";

export function svgEl(tag: string, attrs: Record<string, string>): SVGElement {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

const FACE = "#f7c934";
const INK = "#4a3410";
const TEAR = "#59b3f0";
const SKIN = "#f2b36b";

// A face's parts, on a 20 x 20 grid whose face is a circle of radius 9.
type Part = [string, Record<string, string>];
const line = (d: string, w = "1.4"): Part => [
  "path",
  { d, stroke: INK, "stroke-width": w, fill: "none", "stroke-linecap": "round" },
];
const dot = (cx: number, cy: number, r = 1.3): Part => ["circle", { cx: `${cx}`, cy: `${cy}`, r: `${r}`, fill: INK }];
const face: Part = ["circle", { cx: "10", cy: "10", r: "9", fill: FACE, stroke: INK, "stroke-width": "0.8" }];
const tear = (x: number, y: number): Part => [
  "path",
  { d: `M${x} ${y} q-2 3 0 4 q2 -1 0 -4z`, fill: TEAR, stroke: "#2f7fb8", "stroke-width": "0.4" },
];
// A hand seen from the side, fingers together (two of them clap).
const mitten = (dx: number, dy: number, rot: number): Part => [
  "path",
  {
    d: "M8 19 q-3 0 -3.2 -3 l-0.3 -9.5 q0 -2.2 2.2 -2.2 h2.6 q2.2 0 2.2 2.2 l0 4 l1.4 -1.2 q1.2 -0.8 1.8 0.2 q0.5 0.9 -0.4 1.8 l-2.6 3 q-0.4 4.7 -3.7 4.7 z",
    fill: SKIN,
    stroke: INK,
    "stroke-width": "0.9",
    "stroke-linejoin": "round",
    transform: `translate(${dx} ${dy}) rotate(${rot} 9 12)`,
  },
];

const DRAWINGS: Record<string, Part[]> = {
  thumbs_up: [
    [
      "path",
      {
        d: "M6 10 h2.5 l1.5 -5 q0.5 -2 2 -1.5 q1.5 0.6 0.8 2.6 l-1 3.9 h4 q1.6 0 1.4 1.6 l-1 5.6 q-0.3 1.3 -1.6 1.3 h-7.6 z",
        fill: SKIN,
        stroke: INK,
        "stroke-width": "0.9",
        "stroke-linejoin": "round",
      },
    ],
    line("M11 12.5 h4.5", "0.8"),
    line("M11 15 h4", "0.8"),
    ["path", { d: "M2.5 9.5 h3.5 v9 h-3.5 z", fill: "#6d8fd6", stroke: INK, "stroke-width": "0.9" }],
  ],
  clap: [
    mitten(-0.2, 0.2, -35),
    mitten(3.2, 0.2, -20),
    line("M15.5 3 l1.2 -1.6", "1"),
    line("M17.2 5.8 l2 -0.6", "1"),
    line("M13.2 1.8 l0.2 -1.4", "1"),
  ],
  laugh: [
    face,
    line("M5.5 7.8 q1.5 -1.8 3 0"),
    line("M11.5 7.8 q1.5 -1.8 3 0"),
    ["path", { d: "M5 11 h10 q-1 5 -5 5 q-4 0 -5 -5 z", fill: INK }],
    tear(3.2, 8.5),
    tear(16.8, 8.5),
  ],
  wow: [
    face,
    dot(7, 8),
    dot(13, 8),
    ["ellipse", { cx: "10", cy: "13.5", rx: "2", ry: "2.6", fill: INK }],
    line("M5.5 5 q1.5 -1 3 -0.4", "1"),
    line("M11.5 4.6 q1.5 -0.6 3 0.4", "1"),
  ],
  sad: [
    face,
    dot(7, 8.5),
    dot(13, 8.5),
    line("M6.5 15 q3.5 -3.5 7 0"),
    line("M5.5 6 q1.5 0.2 2.8 -1", "1"),
    line("M14.5 6 q-1.5 0.2 -2.8 -1", "1"),
    tear(13.3, 10.2),
  ],
  thinking: [
    face,
    dot(7, 8.5),
    dot(13, 8.5),
    line("M5.5 5.8 q1.5 -1.2 3 -0.6", "1"),
    line("M11.5 5.6 l3 0.6", "1"),
    line("M7.5 13.5 l5 -1"),
    [
      "path",
      {
        d: "M6 19 q-1 -3 1 -3.5 h4 q1 0 1 1 q0 0.8 -1 0.8 h-2 q1 1.5 -0.5 2.7 z",
        fill: SKIN,
        stroke: INK,
        "stroke-width": "0.8",
        "stroke-linejoin": "round",
      },
    ],
  ],
};

// The emote `id` drawn (aria-hidden: its holder carries the words).
export function emoteIcon(id: string): SVGSVGElement {
  const svg = svgEl("svg", {
    viewBox: "0 0 20 20",
    width: "1.25em",
    height: "1.25em",
    "aria-hidden": "true",
    class: "emote-icon",
    "data-emote": id,
  }) as SVGSVGElement;
  for (const [tag, a] of DRAWINGS[id] ?? []) svg.appendChild(svgEl(tag, a));
  return svg;
}
