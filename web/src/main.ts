// Boneyard in the browser: the lobby at /, a table at /?t=ID&k=TOKEN (an
// invitation to a seat at /?t=ID&i=TOKEN), a
// finished game's replay at /?replay=ID, how to play at /?rules=GAME#PRESET,
// the games to watch at /?watch.
import { renderLobby, botDelay } from "./lobby";
import { Table, badLink } from "./table";
import { Replay } from "./replay";
import { RulesPage } from "./rules";
import { onLangChange, langReady } from "./i18n";
import { PlayerView } from "./players";
import { WatchPage } from "./watch";
import { localTable } from "./local/play";
import { renderLocalLobby } from "./local/lobby";
import { h, clear } from "./dom";
import { openInvite } from "./invite";

const root = document.getElementById("app")!;
let table: Table | Replay | RulesPage | PlayerView | WatchPage | null = null;
let here = location.href; // the page shown (Back may put it back)

function route() {
  here = location.href;
  const q = new URLSearchParams(location.search);
  const id = q.get("t"),
    token = q.get("k"),
    invite = q.get("i"),
    replay = q.get("replay"),
    rules = q.get("rules"),
    player = q.get("player"),
    local = q.get("local"),
    computer = q.get("computer");
  table?.close();
  table = null;
  // Every page is the root's, by its query: another address (the server
  // answers 404 with the app there) was mistyped.
  if (location.protocol.startsWith("http") && location.pathname !== "/" && location.pathname !== "/index.html")
    badLink(root, "link.no_page", go, "link.no_page_title");
  // /?replay=ID: a finished table's replay (shareable); /?replay=file: a record from the lobby.
  else if (rules !== null && /^[a-z0-9-]*$/.test(rules)) table = new RulesPage(root, rules, go);
  else if (player && /^[0-9a-f]{1,64}$/.test(player)) table = new PlayerView(root, player, go);
  else if (q.has("watch"))
    table = new WatchPage(root, go); // the games being played (watch.ts)
  else if (replay && /^([0-9a-f]+|file)$/.test(replay)) table = new Replay(root, replay, go);
  // /?local=1: the game against the computer on this device (local/play.ts).
  else if (local !== null) table = localTable(root, go, botDelay);
  else if (computer !== null) {
    clear(root);
    renderLocalLobby(root.appendChild(h("main", { class: "lobby" })), go, true);
  } else if (id && token && /^[0-9a-f]+$/.test(id) && /^[0-9a-f]+$/.test(token)) table = new Table(root, id, token, go);
  else if (id && invite && /^[0-9a-f]+$/.test(id) && /^[0-9a-f]+$/.test(invite))
    openInvite(root, id, invite, go, route);
  // A table link that is damaged: say so rather than show the lobby silently.
  else if (id !== null || token !== null) badLink(root, "link.damaged", go);
  else renderLobby(root, go);
}

function go(url: string) {
  history.pushState(null, "", url);
  route();
}

// Back from a game in play asks "Leave the table?" first: the table's page
// is put back, and leaving is the dialog's choice.
window.addEventListener("popstate", () => {
  if (table instanceof Table && table.asksBeforeLeaving()) history.pushState(null, "", here);
  else route();
});
onLangChange(() => (table ? table.render() : route()));
// The first page in the visitor's language (a Spanish or Japanese catalogue is fetched first).
void langReady.then(route);

// Installing the app (sw.ts): after this visit it opens with the network off.
// Not on a page opened from a file, nor where the browser has no service workers.
if ("serviceWorker" in navigator && location.protocol !== "file:")
  navigator.serviceWorker.register("/sw.js").catch(() => {});
