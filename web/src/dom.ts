// A tiny DOM helper: h("div", {class: "x", onclick: f}, child, "text").
type Child = Node | string | number | null | undefined | false | Child[];
export function h(tag: string, props: Record<string, unknown> | null = null, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  if (props)
    for (const k in props) {
      const v = props[k];
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v as EventListener);
      else if (k === "class") e.className = String(v);
      // Through the CSSOM: the Content-Security-Policy (style-src 'self') blocks style attributes.
      else if (k === "style") e.style.cssText = String(v);
      else if (k === "value") (e as HTMLInputElement).value = String(v);
      else if (k === "checked") (e as HTMLInputElement).checked = Boolean(v);
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
export function clear(e: Element) {
  while (e.firstChild) e.removeChild(e.firstChild);
}
