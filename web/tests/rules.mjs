// How to play in headless Chromium against a real `boneyard serve`: the rules
// opened from the lobby and from a table of each family show the right page,
// at the preset's section, in the current language; the Dice & Dominoes page
// has the sections a newcomer needs; screenshots at 1280x800 and 390x844 in
// en, es and ja (build/screenshots/rules-*.png); sizes in figures-rules.json.
//   node tests/rules.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) with a message when Chromium is missing.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chooseGame, openContext, setUp, webDir } from "./harness.mjs";

const H = await setUp({
  name: "rules",
  needs: join("rules", "en.txt"),
  launch: { defaultViewport: { width: 1280, height: 800 } },
});
const { shots, base, browser, check } = H;

// Each language's page titles, straight from the text files.
const LANGS = ["en", "es", "ja"];
const titles = {};
for (const l of LANGS) {
  titles[l] = {};
  for (const m of readFileSync(join(webDir, "src", "rules", l + ".txt"), "utf8").matchAll(
    /^=== ([a-z0-9-]+)\n+# (.+)$/gm,
  ))
    titles[l][m[1]] = m[2].replace(/\*\*/g, "");
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const figures = {};

function watch(page) {
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) {
      console.error("CSP violation: " + m.text());
      H.failures++;
    }
  });
}
async function newPage(ctx, lang, viewport = DESKTOP) {
  const page = await ctx.newPage();
  await page.setViewport(viewport);
  watch(page);
  await page.evaluateOnNewDocument((l) => localStorage.setItem("boneyard.lang", l), lang);
  return page;
}
// What the rules page shows: its game, language, title, and where the section asked for is.
const shown = (page, id) =>
  page.evaluate((id) => {
    const m = document.querySelector(".rules-page");
    const s = id ? document.getElementById(id) : null;
    return (
      m && {
        page: m.dataset.page,
        lang: m.lang,
        title: m.querySelector("h1").textContent,
        top: s ? Math.round(s.getBoundingClientRect().top) : null,
      }
    );
  }, id);
// 30 s: the page and its rules text load on demand, which a machine busy
// with other work (a build beside the tests) took past 10 s to show.
const waitRules = (page, name) => page.waitForSelector(`.rules-page[data-page="${name}"]`, { timeout: 30000 });
const inView = (r) => r && r.top !== null && r.top >= -2 && r.top < 120;

async function table(game, n, waiting = false) {
  // waiting: seat 1 is a person who has not come yet, so the table waits.
  const seats = ["human", ...Array(n - 1).fill("bot:casual")];
  if (waiting) seats[1] = "human";
  const r = await fetch(`${base}/api/tables`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game, seats, bot_delay_ms: 1500 }),
  });
  const j = await r.json();
  if (!r.ok) throw new Error(`create ${game}: ${JSON.stringify(j)}`);
  return `${base}/?t=${j.id}&k=${j.tokens["0"]}`;
}

try {
  const ctx = await openContext(browser);
  // From the lobby, in each language: the link at the top, then a preset's link.
  for (const lang of LANGS) {
    const page = await newPage(ctx, lang);
    await page.goto(base + "/");
    await page.waitForSelector("#rules-link");
    await page.click("#rules-link");
    await waitRules(page, "line");
    let r = await shown(page);
    check(
      r.lang === lang && r.title === titles[lang].line,
      `${lang}: the lobby's "how to play" opens the line games' rules in ${lang} ("${r.title}")`,
    );
    await page.goBack();
    await chooseGame(page, "line", "santiago");
    await page.click("#preset-rules");
    await waitRules(page, "line");
    await page.waitForFunction(() => location.hash === "#santiago");
    r = await shown(page, "santiago");
    check(
      inView(r) && r.lang === lang,
      `${lang}: the lobby's link for Santiago de Cuba opens its section (top at ${r.top})`,
    );
    await page.goBack();
    await chooseGame(page, "dice-and-dominoes");
    await page.click("#preset-rules");
    await waitRules(page, "dice-and-dominoes");
    r = await shown(page);
    check(
      r.title === titles[lang]["dice-and-dominoes"],
      `${lang}: the lobby's link for Dice & Dominoes opens its page`,
    );
    // The game tabs of the rules page, and the language picker, redraw it.
    await page.click('.rules-tabs [data-page="texas-42"]');
    await waitRules(page, "texas-42");
    const other = LANGS[(LANGS.indexOf(lang) + 1) % 3];
    await page.select("select.lang", other);
    await page.waitForFunction((l) => document.querySelector(".rules-page")?.lang === l, {}, other);
    r = await shown(page);
    check(
      r.page === "texas-42" && r.title === titles[other]["texas-42"],
      `${lang} -> ${other}: changing the language redraws the page in ${other}`,
    );
    await page.close();
  }

  // From a table of each family, in a new tab, at the preset's section, in the table's language.
  const tables = [
    ["dominican-patio", "line", 4, "es"],
    ["mexican-train", "mexican-train", 4, "ja"],
    ["texas-42", "texas-42", 4, "en"],
    ["dice-and-dominoes", "dice-and-dominoes", 4, "ja"],
    ["two-draw", "line", 2, "en"],
    ["texas-42", "texas-42", 4, "es", true],
    ["jamaica", "line", 4, "ja", true],
  ];
  for (const [game, family, n, lang, waiting] of tables) {
    const page = await newPage(ctx, lang);
    await page.goto(await table(game, n, waiting));
    await page.waitForSelector("#table-rules");
    check(
      await page.$eval("#table-rules", (a) => a.target === "_blank"),
      `${game}: the table's rules link opens a new tab (the game goes on)`,
    );
    const opened = browser.waitForTarget((tg) => tg.url().includes("rules="), { timeout: 10000 });
    await page.click("#table-rules");
    const tab = await (await opened).page();
    watch(tab);
    await waitRules(tab, family);
    const id = family === "line" ? game : null;
    if (id)
      await tab
        .waitForFunction(
          (id) => {
            const s = document.getElementById(id);
            return s && Math.abs(s.getBoundingClientRect().top) < 120;
          },
          { timeout: 5000 },
          id,
        )
        .catch(() => {});
    const r = await shown(tab, id);
    check(
      r.page === family && r.lang === lang && r.title === titles[lang][family] && (!id || inView(r)),
      `${game} table${waiting ? " waiting for a player" : ""} (${lang}): the rules open on ${family} in ${lang}${id ? `, at the ${id} section (top at ${r.top})` : ""}`,
    );
    await tab.close();
    await page.close();
  }

  // Dice & Dominoes can be learnt from its page alone: the sections, each with pictures.
  const need = ["dd-match-points", "dd-wild", "dd-perfect", "dd-w-perfect", "dd-pot"];
  for (const lang of LANGS) {
    const page = await newPage(ctx, lang);
    await page.goto(base + "/?rules=dice-and-dominoes");
    await waitRules(page, "dice-and-dominoes");
    const got = await page.evaluate(
      (need) =>
        need.map((id) => {
          const s = document.getElementById(id);
          return s
            ? {
                id,
                h: s.querySelector("h2")?.textContent || "",
                tiles: s.querySelectorAll("svg.tile").length,
                dice: s.querySelectorAll("svg.die").length,
                words: s.textContent.length,
              }
            : { id, missing: true };
        }),
      need,
    );
    const bad = got.filter((s) => s.missing || !s.h || s.words < 80 || (s.id !== "dd-pot" && s.tiles + s.dice === 0));
    check(
      bad.length === 0,
      `${lang}: the Dice & Dominoes page has match points, wild, perfect, W-perfect and the pot, with tile pictures (${bad.map((s) => s.id).join(", ")})`,
    );
    await page.close();
  }

  // Screenshots, and nothing wider than a phone.
  for (const lang of LANGS) {
    for (const [size, vp] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ]) {
      const page = await newPage(ctx, lang, vp);
      for (const [name, hash, shot] of [
        ["dice-and-dominoes", "", "dice-and-dominoes"],
        ["dice-and-dominoes", "#dd-wild", "dice-and-dominoes-specials"],
        ["line", "", "line"],
        ["line", "#dominican-200", "line-preset"],
      ]) {
        await page.goto(`${base}/?rules=${name}${hash}`);
        await waitRules(page, name);
        await new Promise((r) => setTimeout(r, 150));
        await page.screenshot({ path: join(shots, `rules-${shot}-${lang}-${size}.png`) });
        const over = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1);
        if (size === "phone") check(!over, `${lang} ${shot}: the rules page fits a phone's width`);
      }
      await page.close();
    }
  }

  // A page that does not exist falls back to the line games; a damaged name is the lobby.
  {
    const page = await newPage(ctx, "en");
    await page.goto(`${base}/?rules=puerto-rico-500`);
    await waitRules(page, "line");
    const r = await shown(page, "puerto-rico-500");
    check(inView(r), `a preset's name alone (?rules=puerto-rico-500) opens its game at its section (top at ${r.top})`);
    await page.close();
  }

  const sizes = JSON.parse(readFileSync(join(webDir, "dist", "sizes.json"), "utf8"));
  figures.bundle_js_gzip_bytes = sizes.js_gzip;
  figures.bundle_css_gzip_bytes = sizes.css_gzip;
  figures.rules_css_gzip_bytes = sizes.rules_css_gzip;
  for (const [f, n] of Object.entries(sizes.rules_text_gzip)) figures[`rules_${f.replace(".txt", "")}_gzip_bytes`] = n;
  for (const [l, n] of Object.entries(sizes.lang_gzip)) figures[`lang_${l}_gzip_bytes`] = n;
  // What the first page costs a visitor: the script, the style and, for a
  // Spanish or Japanese one, that catalogue (fetched before the first page).
  const langs = Object.values(sizes.lang_gzip);
  const total = sizes.js_gzip + sizes.css_gzip + Math.max(...langs);
  check(
    langs.length === 2 && total < 100 * 1024,
    `the app's first page (script, style and the largest language's words) is ${total} B gzip < 100 KB; the rules load on demand`,
  );
  check(
    Object.values(sizes.rules_text_gzip).every((n) => n < 40 * 1024),
    "each language's rules are under 40 KB gzip",
  );
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
writeFileSync(join(shots, "figures-rules.json"), JSON.stringify(figures, null, 2));
console.log("figures: " + JSON.stringify(figures));
console.log(H.failures ? `${H.failures} failure(s)` : "rules browser tests passed");
process.exit(H.failures ? 1 : 0);
