// Friends, challenges, reports (docs/server.md): the lobby's "Friends" card
// (whom I follow, online or playing, with a link to watch; challenges to me
// to accept or decline, mine with their answers), and on a player's page
// what I may do about them: follow, challenge (a game on chosen terms, or
// as my partner), block (their chat hidden for me, never paired again in
// quick match) and report. Every name is text, never markup.
import { api, myPlayer, type GameInfo, type Player } from "./api";
import { h, clear } from "./dom";
import { t, serverError } from "./i18n";
import { gameName, playerUrl, tableUrl } from "./links";
import { appLink } from "./watch";

interface Friend {
  id: string;
  name: string;
  online: boolean;
  playing?: { table: string; game: string; watch_page?: string };
}
interface Challenge {
  id: string;
  kind: "game" | "partner";
  game: string;
  options: Record<string, string>;
  rated: boolean;
  level: string;
  status: string;
  from: { id: string; name: string };
  to: { id: string; name: string };
  seat?: { table: string; seat: number; token: string };
}
interface Mine {
  id: string;
  following: Friend[];
  blocked: { id: string; name: string }[];
  challenges: { to_me: Challenge[]; from_me: Challenge[] };
}

// The players I block, kept in this browser so the chat hides their lines
// at once (chat.ts); refreshed from the server with every look.
const BLOCKED = "boneyard.blocked";
export function isBlocked(playerId: string | null | undefined): boolean {
  if (!playerId) return false;
  try {
    const b = JSON.parse(localStorage.getItem(BLOCKED) || "[]");
    return Array.isArray(b) && b.includes(playerId);
  } catch {
    return false;
  }
}
function keepBlocked(ids: string[]) {
  localStorage.setItem(BLOCKED, JSON.stringify(ids));
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let r: Response;
  try {
    r = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error(t("error.unreachable"));
  }
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(serverError(j.error || `HTTP ${r.status}`, j.code));
  return j as T;
}

async function mine(me: Player): Promise<Mine> {
  const m = await call<Mine>("GET", `/api/social?key=${encodeURIComponent(me.key)}`);
  keepBlocked(m.blocked.map((b) => b.id));
  return m;
}

// An accepted partner invitation: both ask quick match "with" the other;
// the table it makes is opened when it is ready.
const partnering = new Set<string>();
async function partnerUp(me: Player, c: Challenge, go: (url: string) => void, say: (s: string) => void) {
  if (partnering.has(c.id)) return;
  partnering.add(c.id);
  const other = c.from.id === me.id ? c.to.id : c.from.id;
  await api.quickmatch({ key: me.key, game: c.game, options: c.options, rated: c.rated, with: other });
  say(t("social.partner_waiting"));
  for (let i = 0; i < 120; i++) {
    // A failed ask (the queue moving between server nodes) is asked again.
    const s = await api.quickmatchStatus(me.key).catch(() => null);
    if (s?.status === "seated" && s.table && s.token) return go(tableUrl(s.table, s.token));
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// A challenge's state in words.
const STATUS: Record<string, string> = {
  pending: "social.status.pending",
  accepting: "social.status.accepting",
  accepted: "social.status.accepted",
  declined: "social.status.declined",
  withdrawn: "social.status.withdrawn",
};

function challengeTerms(c: Challenge): string {
  const opts = Object.entries(c.options || {})
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return (
    gameName(c.game) +
    (c.kind === "partner" ? ` · ${t("social.as_partners")}` : "") +
    (c.rated ? ` · ${t("watch.rated")}` : "") +
    (opts ? ` · ${opts}` : "")
  );
}

// The lobby's card (nothing for a browser without a player).
export function friendsCard(go: (url: string) => void): HTMLElement | null {
  const me = myPlayer();
  if (!me) return null;
  const body = h("div", { class: "friends-body", "aria-live": "polite" });
  const status = h("p", { class: "muted", role: "status" });
  const say = (s: string) => (status.textContent = s);
  const card = h("section", { class: "card friends", id: "friends" }, h("h2", null, t("social.title")), body, status);
  const answer = async (c: Challenge, verb: "accept" | "decline") => {
    try {
      const r = await call<{ table?: string; token?: string; quickmatch?: unknown }>(
        "POST",
        `/api/challenges/${c.id}/${verb}`,
        { key: me.key },
      );
      if (verb === "accept" && r.table && r.token) return go(tableUrl(r.table, r.token));
      if (verb === "accept" && r.quickmatch) return partnerUp(me, c, go, say);
      load();
    } catch (e) {
      say((e as Error).message);
    }
  };
  const load = async () => {
    let m: Mine;
    try {
      m = await mine(me);
    } catch (e) {
      say((e as Error).message);
      return;
    }
    clear(body);
    if (m.challenges.to_me.length)
      body.appendChild(
        h(
          "ul",
          { class: "challenges to-me" },
          m.challenges.to_me.map((c) =>
            h(
              "li",
              { "data-challenge": c.id },
              h(
                "span",
                null,
                h("bdi", null, c.from.name),
                " ",
                t(c.kind === "partner" ? "social.invites_you" : "social.challenges_you"),
                " · ",
                challengeTerms(c),
              ),
              h("button", { class: "small accept", onclick: () => answer(c, "accept") }, t("social.accept")),
              h(
                "button",
                { class: "small secondary decline", onclick: () => answer(c, "decline") },
                t("social.decline"),
              ),
            ),
          ),
        ),
      );
    for (const c of m.challenges.from_me) {
      if (c.status !== "accepted") continue;
      if (c.kind === "partner") partnerUp(me, c, go, say).catch((e) => say((e as Error).message));
    }
    if (m.challenges.from_me.length)
      body.appendChild(
        h(
          "ul",
          { class: "challenges from-me" },
          m.challenges.from_me.map((c) =>
            h(
              "li",
              { "data-challenge": c.id, "data-status": c.status },
              h("bdi", null, c.to.name),
              " · ",
              challengeTerms(c),
              " · ",
              t(STATUS[c.status] || "social.status.pending"),
              c.seat ? appLink(tableUrl(c.seat.table, c.seat.token), go, { class: "go-table" }, t("social.go")) : null,
            ),
          ),
        ),
      );
    if (!m.following.length) body.appendChild(h("p", { class: "muted" }, t("social.nobody")));
    else
      body.appendChild(
        h(
          "ul",
          { class: "following" },
          m.following.map((f) =>
            h(
              "li",
              { "data-player": f.id, class: f.online ? "online" : "offline" },
              h("span", { class: "dot", "aria-hidden": "true" }),
              appLink(playerUrl(f.id), go, {}, h("bdi", null, f.name)),
              h("small", null, t(f.playing ? "social.playing" : f.online ? "social.online" : "social.offline")),
              f.playing?.watch_page
                ? appLink(f.playing.watch_page, go, { class: "watch-friend" }, t("watch.open"))
                : null,
            ),
          ),
        ),
      );
  };
  // Asked again every 15 s while the lobby shows the card.
  const timer = window.setInterval(() => (card.isConnected ? load() : window.clearInterval(timer)), 15000);
  load();
  return card;
}

// What I may do about player `id` on their page (nothing about myself, or
// without a player of my own). games: the server's list; recent: the
// player's recent tables (a report may attach one).
export function playerActions(
  id: string,
  name: string,
  games: GameInfo[],
  recent: { table: string; game: string }[],
): HTMLElement | null {
  const me = myPlayer();
  if (!me || me.id === id) return null;
  const status = h("p", { class: "muted", role: "status", id: "social-status" });
  const box = h("section", { class: "card player-actions", id: "player-actions" });
  // `known`: what I already do about them has loaded (or failed to); until
  // then Follow and Block are disabled, as a click would act on a guess.
  let following = false,
    blocked = false,
    known = false;
  // A request about them; the buttons drawn again after a follow or a
  // block (a report or a challenge leaves the forms as they are).
  const act = async (what: string, body: Record<string, unknown>, done: (r: Record<string, unknown>) => void) => {
    try {
      const r = await call<Record<string, unknown>>("POST", what, { key: me.key, player: id, ...body });
      done(r);
      if (what.startsWith("/api/social/")) render();
    } catch (e) {
      status.className = "error";
      status.textContent = (e as Error).message;
    }
  };
  const said = (s: string) => {
    status.className = "muted";
    status.textContent = s;
  };
  const gamePick = h(
    "select",
    { id: "challenge-game", "aria-label": t("lobby.game") },
    games.map((g) => h("option", { value: g.name }, gameName(g.name))),
  ) as HTMLSelectElement;
  const kindPick = h(
    "select",
    { id: "challenge-kind", "aria-label": t("social.kind") },
    h("option", { value: "game" }, t("social.as_opponents")),
    h("option", { value: "partner" }, t("social.as_partners")),
  ) as HTMLSelectElement;
  const rated = h("input", { type: "checkbox", id: "challenge-rated" }) as HTMLInputElement;
  const reason = h(
    "select",
    { id: "report-reason", "aria-label": t("social.reason") },
    h("option", { value: "abuse" }, t("social.reason.abuse")),
    h("option", { value: "cheating" }, t("social.reason.cheating")),
  ) as HTMLSelectElement;
  const reportGame = h(
    "select",
    { id: "report-game", "aria-label": t("social.report_game") },
    h("option", { value: "" }, t("social.no_game")),
    recent.map((g) => h("option", { value: g.table }, `${gameName(g.game)} · ${g.table.slice(0, 6)}`)),
  ) as HTMLSelectElement;
  const reportText = h("textarea", {
    id: "report-text",
    maxlength: "500",
    rows: "2",
    placeholder: t("social.report_placeholder"),
    "aria-label": t("social.report_placeholder"),
  }) as HTMLTextAreaElement;
  // Made once, not at each render: the first render comes before what I
  // already do about them is known, and a render then must not close a
  // report the player has begun to write.
  const report = h(
    "details",
    { class: "report" },
    h("summary", null, t("social.report")),
    h(
      "form",
      {
        class: "report-form",
        onsubmit: (e: Event) => {
          e.preventDefault();
          act("/api/reports", { reason: reason.value, table: reportGame.value || null, text: reportText.value }, () => {
            reportText.value = "";
            said(t("social.reported"));
          });
        },
      },
      h("label", null, t("social.reason"), " ", reason),
      h("label", null, t("social.report_game"), " ", reportGame),
      reportText,
      h("button", { type: "submit", class: "small", id: "report-send" }, t("social.report_send")),
    ),
  );
  const render = () => {
    clear(box);
    box.appendChild(h("h2", null, t("social.about")));
    box.appendChild(
      h(
        "div",
        { class: "action-row" },
        h(
          "button",
          {
            id: "follow",
            class: following ? "small secondary" : "small",
            "aria-pressed": String(following),
            disabled: !known,
            onclick: () => act("/api/social/follow", { on: !following }, (r) => (following = !!r.following)),
          },
          t(following ? "social.unfollow" : "social.follow"),
        ),
        h(
          "button",
          {
            id: "block",
            class: "small secondary",
            "aria-pressed": String(blocked),
            disabled: !known,
            onclick: () =>
              act("/api/social/block", { on: !blocked }, (r) => {
                blocked = !!r.blocked;
                const ids = new Set<string>(JSON.parse(localStorage.getItem(BLOCKED) || "[]"));
                if (blocked) ids.add(id);
                else ids.delete(id);
                keepBlocked([...ids]);
                said(t(blocked ? "social.blocked" : "social.unblocked"));
              }),
          },
          t(blocked ? "social.unblock" : "social.block"),
        ),
      ),
    );
    if (!blocked)
      box.appendChild(
        h(
          "form",
          {
            class: "action-row challenge-form",
            onsubmit: (e: Event) => {
              e.preventDefault();
              act("/api/challenges", { game: gamePick.value, kind: kindPick.value, rated: rated.checked }, () =>
                said(t("social.sent")),
              );
            },
          },
          h("label", null, t("social.challenge"), " ", gamePick),
          kindPick,
          h("label", null, rated, " ", t("watch.rated")),
          h("button", { type: "submit", class: "small", id: "challenge-send" }, t("social.send")),
        ),
      );
    box.appendChild(report);
    box.appendChild(status);
  };
  render();
  // What I already do about them. `data-known` says the buttons show it
  // (tests wait for it: the render replaces the buttons).
  mine(me)
    .then((m) => {
      following = m.following.some((f) => f.id === id);
      blocked = m.blocked.some((b) => b.id === id);
    })
    .catch(() => {})
    .finally(() => {
      known = true;
      render();
      box.setAttribute("data-known", "true");
    });
  return box;
}
