// The page's labels: the message catalog of /api/i18n/{lang}, filled in like str.format.
export const LANGUAGES = ["pt-BR", "es", "it", "en"];
const STORE = "letras.lang";
let table = {};
export let language = "pt-BR";

function match(name) {
  if (!name) return null;
  const key = name.toLowerCase().replace("_", "-");
  for (const lang of LANGUAGES) {
    if (key === lang.toLowerCase() || key.split("-")[0] === lang.split("-")[0]) return lang;
  }
  return null;
}

// ?lang= first (remembered), then a language chosen before, then the browser's, then pt-BR.
export function pickLanguage() {
  const asked = match(new URLSearchParams(location.search).get("lang"));
  if (asked) {
    try { localStorage.setItem(STORE, asked); } catch { /* private mode */ }
    return asked;
  }
  let kept = null;
  try { kept = match(localStorage.getItem(STORE)); } catch { /* private mode */ }
  if (kept) return kept;
  for (const name of navigator.languages || [navigator.language]) {
    const found = match(name);
    if (found) return found;
  }
  return "pt-BR";
}

export async function loadMessages(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`i18n ${lang}: ${response.status}`);
  table = await response.json();
  language = lang;
  document.documentElement.lang = lang;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(table, key);
}

// t("web.turn.of", {name: "Ana"}); a missing key shows itself (a bug to see, not to hide).
export function t(key, values = {}) {
  const template = has(key) ? table[key] : key;
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^}]*)?\}/g,
    (whole, field) => {
      if (whole === "{{") return "{";
      if (whole === "}}") return "}";
      return field in values ? String(values[field]) : whole;
    });
}

// tn("tiles", 3) is the catalog's tiles.other with n = 3.
export function tn(key, n, values = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...values });
}
