// Boneyard in the browser: the lobby at /, a table at /?t=ID&k=TOKEN.
import { renderLobby } from "./lobby";
import { Table } from "./table";
import { onLangChange } from "./i18n";

const root = document.getElementById("app")!;
let table: Table | null = null;

function route() {
  const q = new URLSearchParams(location.search);
  const id = q.get("t"), token = q.get("k");
  table?.close();
  table = null;
  if (id && token && /^[0-9a-f]+$/.test(id) && /^[0-9a-f]+$/.test(token)) table = new Table(root, id, token, go);
  else renderLobby(root, go);
}

function go(url: string) {
  history.pushState(null, "", url);
  route();
}

window.addEventListener("popstate", route);
onLangChange(() => (table ? table.render() : renderLobby(root, go)));
route();
