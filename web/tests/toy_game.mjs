// The house's test game (issue 31, 3) in the app: with BONEYARD_TEST_GAME=1
// the server registers "toy-block" (src/toy/, one registration line), and the
// lobby offers it among its family's games with no file of web/ naming it; a
// table made from the lobby by clicks shows its board, and its bots play on.
//   BONEYARD_TEST_GAME=1 node tests/toy_game.mjs BONEYARD_EXE SCREENSHOT_DIR
// Exits 77 (ctest: skipped) with a message when Chromium is missing.

import { join } from "node:path";
import { chooseGame, createTable, openContext, setUp } from "./harness.mjs";

process.env.BONEYARD_TEST_GAME = "1"; // the server inherits it
const H = await setUp({ name: "toy", launch: { defaultViewport: { width: 1280, height: 800 } } });
const { shots, base, browser, check } = H;

try {
  const page = await (await openContext(browser)).newPage();
  page.on("pageerror", (e) => {
    console.error("page error: " + e.message);
    H.failures++;
  });
  await page.goto(`${base}/?botdelay=20`);
  const preset = 'input[name=preset][value="toy-block"]';
  // Its family's tab, found by what the server says of the game (no name in web/).
  const games = await page.evaluate(async () => (await (await fetch("/api/games")).json()).games);
  const toy = games.find((g) => g.name === "toy-block");
  check(!!toy, "the server lists the test game");
  await chooseGame(page, toy.family);
  check(!!(await page.$(preset)), "the lobby's new table offers the test game");
  await page.click(preset);
  const seats = await page.$$eval("select[data-seat]", (s) => s.length);
  check(seats === 2, `its two seats are offered (${seats})`);
  await createTable(page);
  await page.waitForSelector(".board");
  // Its board is its family's: a move of mine goes on it.
  await page.waitForSelector(".htile.legal, .action[data-move]", { timeout: 30000 });
  await page.click(".htile.legal, .action[data-move]");
  await page.waitForFunction(() => !!document.querySelector(".board svg"), { timeout: 30000 });
  check(true, "a table of it made by clicks shows its board and takes my move");
  await page.screenshot({ path: join(shots, "toy-game.png") });
} catch (e) {
  H.fail(e);
} finally {
  await H.close();
}
process.exit(H.failures ? 1 : 0);
