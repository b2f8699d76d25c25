// Builds the browser app into dist/: one bundled, minified script, the
// stylesheet and index.html. No runtime downloads: the server serves all.
import * as esbuild from "esbuild";
import { mkdirSync, copyFileSync, writeFileSync, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";

mkdirSync("dist", { recursive: true });
await esbuild.build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  outfile: "dist/app.js",
  logLevel: "warning",
});
copyFileSync("src/style.css", "dist/style.css");
copyFileSync("src/index.html", "dist/index.html");
copyFileSync("src/favicon.svg", "dist/favicon.svg");
const js = readFileSync("dist/app.js");
const css = readFileSync("dist/style.css");
const sizes = { js: js.length, js_gzip: gzipSync(js).length, css: css.length, css_gzip: gzipSync(css).length };
writeFileSync("dist/sizes.json", JSON.stringify(sizes));
console.log(`web/dist: app.js ${sizes.js} B (${sizes.js_gzip} B gzip), style.css ${sizes.css} B (${sizes.css_gzip} B gzip)`);
