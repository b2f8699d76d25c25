// A tiny DOM helper: h("div", {class: "x", onclick: f}, child, "text"), and
// patch(): bring a live element in line with a freshly built one while keeping
// every node that persists, so an update loses no click, focus or scroll.
type Child = Node | string | number | null | undefined | false | Child[];
type Handlers = Record<string, EventListener | undefined>;
const ON = "__boneyardOn";
// Marks an input whose value the app gives (h's "value"): see patch().
const GIVEN = "__boneyardValue";

// One dispatcher per event type and element; patch() swaps the handler behind it.
function listen(e: Element, type: string, f: EventListener | undefined) {
  const rec = e as unknown as Record<string, Handlers>;
  if (!rec[ON]) rec[ON] = {};
  if (!(type in rec[ON]) && f) e.addEventListener(type, (ev) => rec[ON][type]?.(ev));
  if (type in rec[ON] || f) rec[ON][type] = f;
}

export function h(tag: string, props: Record<string, unknown> | null = null, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  if (props)
    for (const k in props) {
      const v = props[k];
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") listen(e, k.slice(2), v as EventListener);
      else if (k === "class") e.className = String(v);
      // Through the CSSOM: the Content-Security-Policy (style-src 'self') blocks style attributes.
      else if (k === "style") e.style.cssText = String(v);
      else if (k === "value") {
        (e as HTMLInputElement).value = String(v);
        (e as unknown as Record<string, string>)[GIVEN] = String(v);
      } else if (k === "checked") (e as HTMLInputElement).checked = Boolean(v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  add(e, children);
  return e;
}
function add(e: Node, children: Child[]) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) add(e, c);
    else if (c instanceof Node) e.appendChild(c);
    else e.appendChild(document.createTextNode(String(c)));
  }
}
// Marks a view drawn for the window's size now (data-drawn-for="WxH"): the
// browser tests wait for it after a resize instead of guessing a delay.
export function drawnFor(e: HTMLElement) {
  e.dataset.drawnFor = `${window.innerWidth}x${window.innerHeight}`;
}
export function clear(e: Element) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

// The identity of a child among its siblings: data-key, else id.
function keyOf(n: Node): string | null {
  return n instanceof Element ? n.getAttribute("data-key") || n.id || null : null;
}
function sameKind(a: Node, b: Node): boolean {
  return (
    a.nodeType === b.nodeType &&
    a.nodeName === b.nodeName &&
    (!(a instanceof Element) || a.namespaceURI === (b as Element).namespaceURI)
  );
}

// Makes `live` look like `fresh` (same tag), reusing live's nodes.
export function patch(live: Element, fresh: Element) {
  // Attributes (style through the CSSOM, never as an attribute: CSP).
  for (const a of Array.from(live.attributes))
    if (a.name !== "style" && !fresh.hasAttribute(a.name)) live.removeAttribute(a.name);
  for (const a of Array.from(fresh.attributes))
    if (a.name !== "style" && live.getAttribute(a.name) !== a.value) live.setAttribute(a.name, a.value);
  const ls = (live as HTMLElement).style,
    fs = (fresh as HTMLElement).style;
  if (ls && fs && ls.cssText !== fs.cssText) ls.cssText = fs.cssText;
  if (live instanceof HTMLInputElement && fresh instanceof HTMLInputElement) {
    // A field the app gives its value (it keeps what is typed, as the chat's
    // draft) follows it even under the focus: a line sent empties it. Any
    // other keeps what the person types while it has the focus.
    const given = (fresh as unknown as Record<string, string | undefined>)[GIVEN] !== undefined;
    if (live.value !== fresh.value && (given || document.activeElement !== live)) live.value = fresh.value;
    if (live.checked !== fresh.checked) live.checked = fresh.checked;
  }
  // Handlers: the fresh closures replace the old ones.
  const lh = (live as unknown as Record<string, Handlers>)[ON] || {},
    fh = (fresh as unknown as Record<string, Handlers>)[ON] || {};
  for (const type of Object.keys(lh)) if (!(type in fh)) lh[type] = undefined;
  for (const type of Object.keys(fh)) listen(live, type, fh[type]);
  // Children: keyed ones found by key, the others by position and kind.
  const keyed = new Map<string, Node>();
  for (const c of Array.from(live.childNodes)) {
    const k = keyOf(c);
    if (k) keyed.set(k, c);
  }
  let cursor: ChildNode | null = live.firstChild;
  for (const nc of Array.from(fresh.childNodes)) {
    const k = keyOf(nc);
    let match: Node | null = null;
    if (k) {
      match = keyed.get(k) ?? null;
      if (match && !sameKind(match, nc)) match = null;
      if (match) keyed.delete(k);
    } else if (cursor && !keyOf(cursor) && sameKind(cursor, nc)) match = cursor;
    if (!match) {
      live.insertBefore(nc, cursor);
      continue;
    }
    if (match === cursor) cursor = cursor.nextSibling;
    else live.insertBefore(match, cursor);
    if (match.nodeType === Node.TEXT_NODE) {
      if (match.nodeValue !== nc.nodeValue) match.nodeValue = nc.nodeValue;
    } else if (match instanceof Element) patch(match, nc as Element);
  }
  while (cursor) {
    const next: ChildNode | null = cursor.nextSibling;
    live.removeChild(cursor);
    cursor = next;
  }
}
