// Builds the browser app into dist/: one bundled, minified script, the
// stylesheet and index.html. No runtime downloads: the server serves all.
import * as esbuild from "esbuild";
import {
  mkdirSync,
  copyFileSync,
  writeFileSync,
  readFileSync,
  readdirSync,
  statSync,
  existsSync,
  renameSync,
  rmSync,
} from "node:fs";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { iconPng } from "./icons.mjs";

mkdirSync("dist", { recursive: true });
// The last build's hashed bundle and precompressed copies go: this build writes its own.
const walkAll = (dir, f) => {
  for (const n of readdirSync(dir)) {
    const p = `${dir}/${n}`;
    if (statSync(p).isDirectory()) walkAll(p, f);
    else f(p);
  }
};
walkAll("dist", (p) => {
  if (/\.gz$/.test(p) || /^dist\/(app|style)\.[0-9a-f]{12}\.(js|css)$|^dist\/lang\//.test(p)) rmSync(p);
});
// Spanish and Japanese are fetched only by those who choose them (i18n.ts):
// each catalogue, with its options' and after-a-game words, is dist/lang/X.HASH.json. English
// stays in the bundle, every key's fallback and the first page's words.
mkdirSync("dist/lang", { recursive: true });
const langFiles = {};
for (const l of ["es", "ja"]) {
  const code = (
    await esbuild.build({
      stdin: {
        contents: `import { ${l} } from "./src/lang/${l}"; import { ${l}After } from "./src/lang/after/${l}";
          import { ${l}Options } from "./src/lang/options/${l}";
          export default { ...${l}, ...${l}Options, ...${l}After };`,
        resolveDir: ".",
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "esm",
      charset: "utf8",
    })
  ).outputFiles[0].text;
  const catalogue = (await import("data:text/javascript;base64," + Buffer.from(code).toString("base64"))).default;
  const json = JSON.stringify(catalogue);
  const h = createHash("sha256").update(json).digest("hex").slice(0, 12);
  writeFileSync(`dist/lang/${l}.${h}.json`, json);
  langFiles[l] = `/lang/${l}.${h}.json`;
}
await esbuild.build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  // The catalogues' Spanish and Japanese as UTF-8, not \uXXXX escapes (the
  // server says charset=utf-8): 33 KB less to fetch, 1.4 KB less gzip.
  charset: "utf8",
  define: { LANG_FILES: JSON.stringify(langFiles) },
  outfile: "dist/app.js",
  logLevel: "warning",
});
// The engine's Web Worker (a classic worker: it loads engine.js, the
// WebAssembly engine that scripts/setup.sh builds into dist/engine/) and its
// client as a module of its own (src/engine/, docs/wasm.md).
mkdirSync("dist/engine", { recursive: true });
await esbuild.build({
  entryPoints: ["src/engine/worker.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: "dist/engine/worker.js",
  logLevel: "warning",
});
await esbuild.build({
  entryPoints: ["src/engine/engine.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  outfile: "dist/engine/client.js",
  logLevel: "warning",
});
// The stylesheet, in parts (src/css/), joined in this order: the cascade is theirs.
const CSS = ["base", "table", "dice_dominoes", "phone", "layout", "strangers", "social"];
writeFileSync("dist/style.css", CSS.map((p) => readFileSync(`src/css/${p}.css`, "utf8")).join("\n"));
// The page's script and stylesheet are named by their content's hash, so the
// server lets browsers keep them a year (immutable) while index.html, which
// names them, is asked again each time: a new build is seen at once.
const hashed = (file) => {
  const h = createHash("sha256")
    .update(readFileSync(`dist/${file}`))
    .digest("hex")
    .slice(0, 12);
  const named = file.replace(/\.(\w+)$/, `.${h}.$1`);
  renameSync(`dist/${file}`, `dist/${named}`);
  return named;
};
const appJs = hashed("app.js"),
  styleCss = hashed("style.css");
writeFileSync(
  "dist/index.html",
  readFileSync("src/index.html", "utf8")
    .replace('href="/style.css"', `href="/${styleCss}"`)
    .replace('src="/app.js"', `src="/${appJs}"`),
);
copyFileSync("src/favicon.svg", "dist/favicon.svg");
// How to play: its style and each language's text, fetched only by the rules page.
copyFileSync("src/rules.css", "dist/rules.css");
mkdirSync("dist/rules", { recursive: true });
const rules = {};
for (const f of readdirSync("src/rules").filter((f) => f.endsWith(".txt"))) {
  copyFileSync(`src/rules/${f}`, `dist/rules/${f}`);
  rules[f] = gzipSync(readFileSync(`src/rules/${f}`)).length;
}
// Installing the app (a Progressive Web App, docs/wasm.md): its icons,
// drawn by icons.mjs, and its manifest.
mkdirSync("dist/icons", { recursive: true });
for (const n of [192, 512]) writeFileSync(`dist/icons/icon-${n}.png`, iconPng(n));
writeFileSync(
  "dist/manifest.webmanifest",
  JSON.stringify({
    name: "Boneyard",
    short_name: "Boneyard",
    description: "Dominoes: Latin, Texas 42, Mexican Train and Dice & Dominoes; play the computer with no connection.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#0f3d2e",
    theme_color: "#0f3d2e",
    icons: [
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
    ],
  }),
);
// The service worker keeps every file of this build (the engine's when it
// was built): its version is their bytes' hash, so a new build replaces it.
const kept = [];
const walk = (dir) => {
  for (const f of readdirSync(dir).sort()) {
    const p = `${dir}/${f}`;
    if (statSync(p).isDirectory()) walk(p);
    else if (p !== "dist/sw.js" && p !== "dist/sizes.json" && p !== "dist/index.html") kept.push(p);
  }
};
walk("dist");
const hash = createHash("sha256");
for (const p of ["dist/index.html", ...kept]) hash.update(p).update(readFileSync(p));
const precache = ["/", "/index.html", ...kept.map((p) => p.slice(4))];
await esbuild.build({
  entryPoints: ["src/sw.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: "dist/sw.js",
  logLevel: "warning",
  define: { PRECACHE: JSON.stringify(precache), VERSION: JSON.stringify(hash.digest("hex").slice(0, 16)) },
});
const js = readFileSync(`dist/${appJs}`);
const css = readFileSync(`dist/${styleCss}`);
const sizes = {
  js: js.length,
  js_gzip: gzipSync(js).length,
  css: css.length,
  css_gzip: gzipSync(css).length,
  rules_css_gzip: gzipSync(readFileSync("dist/rules.css")).length,
  rules_text_gzip: rules,
  lang_gzip: Object.fromEntries(
    Object.entries(langFiles).map(([l, f]) => [l, gzipSync(readFileSync(`dist${f}`)).length]),
  ),
};
// The WebAssembly engine, when built (scripts/setup.sh builds it first).
const engineFiles = ["engine.js", "engine.wasm", "worker.js", "client.js"].map((f) => `dist/engine/${f}`);
if (engineFiles.every((f) => existsSync(f)))
  sizes.engine_gzip = Object.fromEntries(engineFiles.map((f) => [f.slice(5), gzipSync(readFileSync(f)).length]));
writeFileSync("dist/sizes.json", JSON.stringify(sizes));
// A gzip copy beside each text file and the engine (name.gz): boneyard serve
// sends it to browsers that take gzip (Content-Encoding), no compressing per request.
walkAll("dist", (p) => {
  if (!/\.(html|js|css|svg|json|webmanifest|txt|wasm)$/.test(p)) return;
  const raw = readFileSync(p),
    gz = gzipSync(raw, { level: 9 });
  if (gz.length < raw.length) writeFileSync(`${p}.gz`, gz);
});
console.log(
  `web/dist: app.js ${sizes.js} B (${sizes.js_gzip} B gzip), style.css ${sizes.css} B (${sizes.css_gzip} B gzip); ` +
    `on demand: ${Object.entries(sizes.lang_gzip)
      .map(([l, n]) => `lang ${l} ${n} B gzip`)
      .join(", ")}, rules.css ${sizes.rules_css_gzip} B gzip, ${Object.entries(rules)
      .map(([f, n]) => `rules/${f} ${n} B gzip`)
      .join(", ")}` +
    (sizes.engine_gzip
      ? `; engine: ${Object.entries(sizes.engine_gzip)
          .map(([f, n]) => `${f} ${n} B gzip`)
          .join(", ")}`
      : ""),
);
