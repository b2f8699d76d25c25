// How to play: a page per game (the line games with a section per preset,
// Mexican Train, Texas 42, Dice & Dominoes) in the user's language, at
// /?rules=FAMILY#PRESET. The text is in dist/rules/<lang>.txt, fetched on
// demand so the main bundle stays small; its look in dist/rules.css, also
// loaded on demand.
//
// The text format (web/src/rules/README.md): "=== page" starts a page, "# "
// its title, "## #id Heading" a section, "### #id Heading" a subsection, "- "
// a list item, "> " a note; a blank line ends a paragraph. Inline: **bold**,
// [6-4] a tile, {5} a die.
import { h, clear } from "./dom";
import { t, currentLang, langPicker } from "./i18n";
import { tileSvg, dieSvg } from "./tiles";
import { RULE_PAGES, rulesUrl } from "./links";

export interface Block {
  kind: "h2" | "h3" | "p" | "ul" | "note";
  id?: string;
  text: string;
  items?: string[];
}
export interface Page {
  name: string;
  title: string;
  blocks: Block[];
}

export function parseRules(text: string): Record<string, Page> {
  const pages: Record<string, Page> = {};
  let page: Page | null = null;
  let para: string[] = [];
  let list: Block | null = null;
  const flush = () => {
    if (para.length && page) page.blocks.push({ kind: "p", text: para.join(" ") });
    para = [];
    list = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    let m: RegExpExecArray | null;
    if ((m = /^=== ([a-z0-9-]+)$/.exec(line))) {
      flush();
      page = pages[m[1]] = { name: m[1], title: m[1], blocks: [] };
      continue;
    }
    if (!page || line.startsWith("//")) continue;
    if (line.trim() === "") {
      flush();
      continue;
    }
    if ((m = /^# (.+)$/.exec(line))) {
      flush();
      page.title = m[1];
      continue;
    }
    if ((m = /^(##|###) (?:#([a-z0-9-]+) )?(.+)$/.exec(line))) {
      flush();
      page.blocks.push({ kind: m[1] === "##" ? "h2" : "h3", id: m[2], text: m[3] });
      continue;
    }
    if ((m = /^- (.+)$/.exec(line))) {
      if (para.length) flush();
      if (!list) {
        list = { kind: "ul", text: "", items: [] };
        page.blocks.push(list);
      }
      list.items!.push(m[1]);
      continue;
    }
    if (list && /^ {2}\S/.test(line)) {
      list.items![list.items!.length - 1] += " " + line.trim();
      continue;
    }
    if ((m = /^> (.+)$/.exec(line))) {
      flush();
      page.blocks.push({ kind: "note", text: m[1] });
      continue;
    }
    if (list) flush();
    para.push(line.trim());
  }
  flush();
  return pages;
}

// Text with **bold**, [a-b] tiles and {n} dice.
export function inline(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  for (const part of text.split(/(\*\*[^*]+\*\*|\[\d+-\d+\]|\{\d\})/)) {
    if (!part) continue;
    let m: RegExpExecArray | null;
    if ((m = /^\*\*([^*]+)\*\*$/.exec(part))) out.push(h("strong", null, m[1]));
    else if ((m = /^\[(\d+)-(\d+)\]$/.exec(part))) {
      const a = Number(m[1]),
        b = Number(m[2]);
      out.push(tileSvg(a, b, { size: 21, cls: "rt", title: `${a}-${b}` }));
    } else if ((m = /^\{(\d)\}$/.exec(part))) {
      const d = dieSvg(Number(m[1]), 22);
      d.classList.add("rd");
      d.setAttribute("role", "img");
      d.setAttribute("aria-label", m[1]);
      out.push(d);
    } else out.push(part);
  }
  return out;
}

const texts = new Map<string, Promise<Record<string, Page>>>();
function load(lang: string): Promise<Record<string, Page>> {
  if (!texts.has(lang)) {
    const p = fetch(`/rules/${lang}.txt`)
      .then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        return r.text();
      })
      .then(parseRules);
    p.catch(() => texts.delete(lang)); // a failed fetch is tried again next time
    texts.set(lang, p);
  }
  return texts.get(lang)!;
}

let style: Promise<void> | null = null;
function loadStyle(): Promise<void> {
  if (!style)
    style = new Promise((done) => {
      const link = h("link", { rel: "stylesheet", href: "/rules.css" });
      link.addEventListener("load", () => done());
      link.addEventListener("error", () => done()); // unstyled beats nothing
      document.head.appendChild(link);
    });
  return style;
}

export class RulesPage {
  private closed = false;
  // The section asked for stays in view when the window changes size (a
  // phone turned, a new tab sized) until the reader scrolls on their own.
  private anchor = "";
  private keep = () => {
    if (this.anchor) document.getElementById(this.anchor)?.scrollIntoView();
  };
  private letGo = () => {
    this.anchor = "";
  };
  constructor(
    private root: HTMLElement,
    private page: string,
    private go: (url: string) => void,
  ) {
    window.addEventListener("resize", this.keep);
    for (const e of ["wheel", "touchmove", "keydown", "mousedown"]) window.addEventListener(e, this.letGo);
    this.render();
  }
  close() {
    this.closed = true;
    window.removeEventListener("resize", this.keep);
    for (const e of ["wheel", "touchmove", "keydown", "mousedown"]) window.removeEventListener(e, this.letGo);
  }

  async render() {
    const lang = currentLang();
    if (!this.root.querySelector(".rules-page")) {
      clear(this.root);
      this.root.appendChild(h("div", { class: "loading" }, t("rules.loading")));
    }
    let pages: Record<string, Page>;
    try {
      [pages] = await Promise.all([load(lang), loadStyle()]);
    } catch (e) {
      if (this.closed) return;
      clear(this.root);
      this.root.appendChild(
        h("p", { class: "error", role: "alert" }, t("rules.load_error", { error: String((e as Error).message) })),
      );
      return;
    }
    if (this.closed || lang !== currentLang()) return;
    // A preset's name (?rules=dominican-patio) opens its game's page there.
    let name = this.page,
      anchor = location.hash.slice(1);
    try {
      anchor = decodeURIComponent(anchor);
    } catch {
      anchor = "";
    } // a damaged link: the top of the page
    if (!pages[name]) {
      const owner = Object.values(pages).find((p) => p.blocks.some((b) => b.id === name));
      anchor = owner ? name : "";
      name = owner ? owner.name : RULE_PAGES[0];
    }
    this.draw(pages[name] || { name, title: name, blocks: [] });
    const target = anchor && document.getElementById(anchor);
    this.anchor = target ? anchor : "";
    if (target) {
      target.classList.add("here");
      target.scrollIntoView();
    } else window.scrollTo(0, 0);
  }

  private draw(page: Page) {
    clear(this.root);
    const main = h("main", { class: "rules-page", "data-page": page.name, lang: currentLang() });
    const top = h(
      "header",
      { class: "rules-top" },
      h(
        "a",
        {
          class: "back",
          href: "/",
          onclick: (e: Event) => {
            e.preventDefault();
            this.go("/");
          },
        },
        "‹ ",
        t("table.lobby"),
      ),
      h(
        "nav",
        { class: "tabs rules-tabs", "aria-label": t("rules.title") },
        RULE_PAGES.map((p) =>
          h(
            "a",
            {
              class: "tab" + (p === page.name ? " on" : ""),
              href: rulesUrl(p),
              "data-page": p,
              "aria-current": p === page.name ? "page" : null,
              onclick: (e: Event) => {
                e.preventDefault();
                this.go(rulesUrl(p));
              },
            },
            t("family." + p),
          ),
        ),
      ),
      langPicker(),
    );
    main.appendChild(top);
    const art = h(
      "article",
      { class: "rules card" },
      h("p", { class: "rules-kicker" }, t("rules.title")),
      h("h1", null, ...inline(page.title)),
    );
    // Contents: the sections, and a subsection with an id (a preset) as a chip under its section.
    const toc = h("ol", { class: "rules-toc" });
    let tocItem: HTMLElement | null = null,
      chips: HTMLElement | null = null;
    let section: HTMLElement = art,
      host: HTMLElement = art,
      first: HTMLElement | null = null;
    const jump = (id: string) => (e: Event) => {
      e.preventDefault();
      history.replaceState(null, "", "#" + id);
      for (const e of Array.from(document.querySelectorAll(".rules .here"))) e.classList.remove("here");
      document.getElementById(id)?.classList.add("here");
      document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
    };
    for (const b of page.blocks) {
      if (b.kind === "h2") {
        section = host = h("section", { id: b.id || null, class: "rules-section" }, h("h2", null, ...inline(b.text)));
        first = first || section;
        art.appendChild(section);
        if (b.id) {
          tocItem = h("li", null, h("a", { href: "#" + b.id, onclick: jump(b.id) }, ...inline(b.text)));
          toc.appendChild(tocItem);
          chips = null;
        }
      } else if (b.kind === "h3") {
        host = h("section", { id: b.id || null, class: "rules-sub" }, h("h3", null, ...inline(b.text)));
        section.appendChild(host);
        // The rule sets as chips under their section; other subsections stay out of the contents.
        if (b.id && tocItem && section.id === "presets") {
          if (!chips) {
            chips = h("ul", { class: "rules-chips" });
            tocItem.appendChild(chips);
          }
          chips.appendChild(h("li", null, h("a", { href: "#" + b.id, onclick: jump(b.id) }, ...inline(b.text))));
        }
      } else if (b.kind === "ul")
        host.appendChild(
          h(
            "ul",
            null,
            b.items!.map((i) => h("li", null, ...inline(i))),
          ),
        );
      else host.appendChild(h("p", { class: b.kind === "note" ? "rules-note" : null }, ...inline(b.text)));
    }
    if (toc.children.length > 1 && first)
      art.insertBefore(
        h(
          "nav",
          { class: "rules-contents", "aria-label": t("rules.contents") },
          h("h2", null, t("rules.contents")),
          toc,
        ),
        first,
      );
    main.appendChild(art);
    this.root.appendChild(main);
  }
}
