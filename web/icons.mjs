// The app's icons for installing it (a Progressive Web App): drawn here,
// no image files downloaded or kept. The same tile as favicon.svg on the
// table's green, filling the whole square so that a "maskable" icon (cut to
// a circle or a rounded square by the phone) keeps the tile inside its safe
// zone. PNG written with node's zlib.
import { deflateSync } from "node:zlib";

const GREEN = [15, 61, 46],
  IVORY = [251, 247, 236],
  INK = [34, 34, 34];

// What colour the point (x, y) of the unit square is.
function colour(x, y) {
  // The tile: 0.30 wide, 0.60 high, centred, rounded corners, an ink edge.
  const w = 0.3,
    hgt = 0.6,
    r = 0.06,
    edge = 0.018;
  const dx = Math.abs(x - 0.5) - (w / 2 - r),
    dy = Math.abs(y - 0.5) - (hgt / 2 - r);
  const out = Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
  if (out > 0) return GREEN;
  if (out > -edge) return INK;
  if (Math.abs(y - 0.5) < edge / 2 && Math.abs(x - 0.5) < w / 2 - 0.03) return INK; // the middle line
  // Pips: one above the line, two below (as the favicon).
  const pips = [
    [0.5, 0.35],
    [0.43, 0.58],
    [0.57, 0.72],
  ];
  for (const [px, py] of pips) if (Math.hypot(x - px, y - py) < 0.04) return INK;
  return IVORY;
}

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (let n = 0; n < buf.length; n++) {
    c = (crc ^ buf[n]) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

// A size x size PNG of the icon, each pixel the mean of 4 x 4 samples.
export function iconPng(size) {
  const raw = Buffer.alloc(size * (size * 3 + 1));
  const S = 4;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0; // no filter
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0];
      for (let i = 0; i < S; i++)
        for (let j = 0; j < S; j++) {
          const c = colour((x + (i + 0.5) / S) / size, (y + (j + 0.5) / S) / size);
          sum[0] += c[0];
          sum[1] += c[1];
          sum[2] += c[2];
        }
      const o = y * (size * 3 + 1) + 1 + x * 3;
      for (let k = 0; k < 3; k++) raw[o + k] = Math.round(sum[k] / (S * S));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
