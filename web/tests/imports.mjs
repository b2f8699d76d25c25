// The app's modules import one another without a cycle (issue 31, 5): a
// cycle makes the order of evaluation depend on which module is loaded first,
// and was the sign of a module holding what belongs in a leaf (links.ts).
// Every import and re-export in web/src is read (type-only ones too: they are
// the same dependency to a reader) and any cycle is named, module by module.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join, relative, resolve } from "node:path";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const files = [];
(function walk(d) {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.tsx?$/.test(f) && !f.endsWith(".d.ts")) files.push(p);
  }
})(src);

// import x from "./a"; import { y } from "./b"; import type { Z } from "./c";
// export * from "./d"; export { w } from "./e"; import "./f"; import("./g")
const IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return null; // a package
  const base = resolve(dirname(from), spec);
  for (const p of [base, base + ".ts", base + ".tsx", join(base, "index.ts")])
    if (existsSync(p) && statSync(p).isFile()) return p;
  throw new Error(`${relative(src, from)}: cannot resolve "${spec}"`);
}
const graph = new Map();
let edges = 0;
for (const f of files) {
  // Comments out, so an example in prose is not an import.
  const text = readFileSync(f, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const deps = new Set();
  for (const re of [IMPORT, DYNAMIC])
    for (const m of text.matchAll(re)) {
      const p = resolveImport(f, m[1]);
      if (p) deps.add(p);
    }
  edges += deps.size;
  graph.set(f, [...deps]);
}

// Depth-first search; a module met again while still on the path closes a cycle.
const cycles = [];
const state = new Map(); // 1: on the path, 2: done
const path = [];
function visit(f) {
  state.set(f, 1);
  path.push(f);
  for (const d of graph.get(f) || []) {
    if (state.get(d) === 1) cycles.push([...path.slice(path.indexOf(d)), d]);
    else if (!state.get(d)) visit(d);
  }
  path.pop();
  state.set(f, 2);
}
for (const f of [...graph.keys()].sort()) if (!state.get(f)) visit(f);

if (files.length < 10 || edges < 10) {
  console.error(`FAIL only ${files.length} modules and ${edges} imports read: the reader is broken`);
  process.exit(1);
}
for (const c of cycles) console.error("FAIL import cycle: " + c.map((f) => relative(src, f)).join(" -> "));
if (cycles.length) process.exit(1);
console.log(`ok: ${files.length} modules, ${edges} imports, no cycle`);
