// Typing with a phone's on-screen keyboard. A board of squares takes no text, so a phone shows
// no keyboard for it: this small text field does. Tapping a square (with no rack tile chosen)
// focuses it on a touch screen; what the keyboard types goes to the board as if typed there.
// On-screen keyboards often send no usable key events (Android's say "Unidentified") and may
// compose words, so the field is read on `input` (after a composition ends): each new letter
// is typed ("?" makes the next letter a blank), a deletion is Backspace, Enter plays. The field always holds one placeholder
// character, so that a deletion on an "empty" field is still seen.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const HOLD = "\u00a0";

export const coarsePointer = () => window.matchMedia("(pointer: coarse)").matches;

export class TypingField {
  constructor({ onLetter, onBlank, onBackspace, onEnter }) {
    this.handlers = { onLetter, onBlank, onBackspace, onEnter };
    this.composing = false;
    this.el = h("input", {
      type: "text", class: "typing", id: "typing", "aria-label": t("web.typing.label"),
      placeholder: t("web.typing.placeholder"), autocomplete: "off", autocorrect: "off",
      autocapitalize: "characters", spellcheck: "false", enterkeyhint: "go",
    });
    this.reset();
    this.el.addEventListener("compositionstart", () => { this.composing = true; });
    this.el.addEventListener("compositionend", () => { this.composing = false; this.read(); });
    this.el.addEventListener("input", () => { if (!this.composing) this.read(); });
    this.el.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); this.handlers.onEnter(); }
    });
    this.el.addEventListener("focus", () => this.reset());
  }

  reset() {
    this.el.value = HOLD;
    const end = this.el.value.length;
    try { this.el.setSelectionRange(end, end); } catch { /* not focusable yet */ }
  }

  read() {
    const value = this.el.value;
    if (!value.startsWith(HOLD)) this.handlers.onBackspace();
    const typed = value.startsWith(HOLD) ? value.slice(HOLD.length) : value.replace(HOLD, "");
    for (const ch of typed) {
      if (ch === "?") this.handlers.onBlank();
      else if (/\p{L}/u.test(ch)) this.handlers.onLetter(ch);
    }
    this.reset();
  }

  focus() { this.el.focus({ preventScroll: true }); }
}
