// Every string the app shows, per language. Components call t(key, params);
// "{name}" in a message is replaced by params.name. tests/i18n.mjs checks that
// every catalogue has every key and every key used in the code exists.
import { en as enBase } from "./lang/en";
import { enAfter } from "./lang/after/en";
import { enOptions } from "./lang/options/en";
import { h } from "./dom";

export type Catalogue = Record<string, string>;
const en: Catalogue = { ...enBase, ...enOptions, ...enAfter };
// English is in the bundle; Spanish and Japanese are fetched when chosen
// (build.mjs writes each as lang/X.HASH.json and names them here): a
// quarter of the app's bytes that most visitors never read.
declare const LANG_FILES: Record<string, string> | undefined;
const files: Record<string, string> = typeof LANG_FILES === "undefined" ? {} : LANG_FILES;
const catalogues: Record<string, Catalogue> = { en };
export const LANGS: [string, string][] = [
  ["es", "Español"],
  ["en", "English"],
  ["ja", "日本語"],
];
const known = (l: string | null): l is string => l === "en" || (l !== null && l in files);

function initial(): string {
  const saved = localStorage.getItem("boneyard.lang");
  if (known(saved)) return saved;
  for (const l of navigator.languages || [navigator.language]) {
    const base = (l || "").slice(0, 2).toLowerCase();
    if (known(base)) return base;
  }
  return "en";
}

let lang = "en";
let chosen = "en"; // the last language asked for, maybe still on its way
document.documentElement.lang = lang;
const listeners: (() => void)[] = [];

export function currentLang() {
  return lang;
}

// The catalogue, fetched once (the service worker keeps it for offline
// use); false where it could not be had (no connection and not kept).
async function load(l: string): Promise<boolean> {
  if (catalogues[l]) return true;
  try {
    const r = await fetch(files[l]);
    if (!r.ok) return false;
    catalogues[l] = (await r.json()) as Catalogue;
    return true;
  } catch {
    return false;
  }
}

// Switches at once when the catalogue is here, else once it has come; a
// later choice made meanwhile wins. The promise settles when done or given up.
export function setLang(l: string): Promise<void> {
  if (!known(l)) return Promise.resolve();
  chosen = l;
  const use = () => {
    lang = l;
    localStorage.setItem("boneyard.lang", l);
    document.documentElement.lang = l;
    for (const f of listeners) f();
  };
  if (catalogues[l]) {
    use();
    return Promise.resolve();
  }
  return load(l).then((ok) => {
    if (ok && chosen === l) use();
  });
}
export function onLangChange(f: () => void) {
  listeners.push(f);
}

// The first page waits for its language (main.ts); English where it cannot be had.
export const langReady: Promise<void> = (() => {
  const l = initial();
  if (l === "en") return Promise.resolve();
  chosen = l;
  return load(l).then((ok) => {
    if (ok && chosen === l) {
      lang = l;
      document.documentElement.lang = l;
    }
  });
})();

export function hasKey(key: string): boolean {
  return key in catalogues[lang] || key in en;
}

// {n} = 1 takes the key's "_one" form where there is one ("1 tile", not "1 tiles").
export function t(key: string, params: Record<string, string | number> = {}): string {
  if (String(params.n) === "1" && hasKey(key + "_one")) key += "_one";
  const s = catalogues[lang][key] ?? en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k: string, at: number) => {
    if (!(k in params)) return `{${k}}`;
    const v = String(params[k]);
    return midSentence(s, at) && PRONOUNS.some((p) => (catalogues[lang][p] ?? en[p]) === v) ? lowerFirst(v) : v;
  });
}

// A seat's label that is a pronoun ("You", "Us") is lower case inside a
// sentence: "Dave and you sat down", "The hand goes to us".
const PRONOUNS = ["seat.you", "side.us", "side.them"];
function midSentence(s: string, at: number): boolean {
  const before = s.slice(0, at).trimEnd();
  return before !== "" && !/[.!?:。]$/.test(before);
}
function lowerFirst(v: string): string {
  return v.charAt(0).toLocaleLowerCase(lang) + v.slice(1);
}

// An option's value in players' words ("void_same_leader": "Nobody scores;
// the same player leads again"); an unknown one without its underscores.
export function optValue(v: string): string {
  return hasKey("optval." + v) ? t("optval." + v) : v.replace(/_/g, " ");
}

export function langPicker(_after?: () => void): HTMLElement {
  return h(
    "select",
    {
      class: "lang",
      "aria-label": t("common.language"),
      // Put back when the language could not be had (offline, never fetched).
      onchange: (e: Event) => {
        const picker = e.target as HTMLSelectElement;
        void setLang(picker.value).then(() => (picker.value = lang));
      },
    },
    LANGS.map(([code, name]) => h("option", { value: code, selected: code === lang ? "" : null }, name)),
  );
}

// A server error in the user's language: the stable code's words, the
// server's English text kept beside them (it names the details).
export function serverError(text: string, code?: string): string {
  // The server's messages start in lower case (a log line's style); shown
  // on their own to a person, they start as a sentence does.
  if (lang === "en" || !code || !hasKey("error." + code)) return text.charAt(0).toUpperCase() + text.slice(1);
  return `${t("error." + code)} (${text})`;
}
