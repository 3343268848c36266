// Modal questions: which letter a blank stands for, which tiles to exchange, a confirmation.
// Each returns a promise (null when cancelled); Esc cancels, focus returns where it was.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tileFace, tileName } from "./board.js";

function open(content, { label, onClose }) {
  const back = document.activeElement;
  const dialog = h("dialog", { class: "dialog", "aria-label": label }, content);
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    onClose(dialog.returnValue);
    dialog.remove();
    if (back && back.isConnected) back.focus();
  });
  dialog.showModal();
  return dialog;
}

export function chooseLetter(letters) {
  return new Promise((resolve) => {
    let chosen = null;
    const pick = (letter) => { chosen = letter; dialog.close("ok"); };
    const grid = h("div", { class: "letters" }, letters.map((letter) =>
      h("button", { type: "button", class: "letter-choice", onclick: () => pick(letter),
        "aria-label": letter }, letter)));
    const dialog = open([
      h("h2", {}, t("web.blank.title")),
      h("p", {}, t("web.blank.help")),
      grid,
      h("div", { class: "dialog-buttons" },
        h("button", { type: "button", onclick: () => dialog.close("cancel") }, t("web.cancel"))),
    ], { label: t("web.blank.title"), onClose: () => resolve(chosen) });
    dialog.addEventListener("keydown", (e) => {
      const letter = e.key.length === 1 ? e.key.toUpperCase() : "";
      if (letters.includes(letter)) { e.preventDefault(); pick(letter); }
    });
  });
}

export function chooseExchange(items, values) {
  return new Promise((resolve) => {
    const chosen = new Set();
    const count = h("p", { class: "exchange-count", "aria-live": "polite" });
    const ok = h("button", { type: "button", class: "primary", disabled: true,
      onclick: () => dialog.close("ok") }, t("web.exchange.confirm"));
    const update = () => {
      count.textContent = t("web.exchange.count", { n: chosen.size });
      ok.disabled = chosen.size === 0;
    };
    const tiles = h("div", { class: "rack exchange-rack" }, items.map((item) => {
      const value = values.has(item.label) ? values.get(item.label) : null;
      const button = h("button", { type: "button", class: "rack-tile", "aria-pressed": "false",
        "aria-label": tileName(item.label, { value }),
        onclick: () => {
          if (chosen.has(item.id)) chosen.delete(item.id); else chosen.add(item.id);
          button.setAttribute("aria-pressed", chosen.has(item.id) ? "true" : "false");
          button.classList.toggle("selected", chosen.has(item.id));
          update();
        } }, tileFace(item.label, { value }));
      return button;
    }));
    update();
    const dialog = open([
      h("h2", {}, t("web.exchange.title")),
      h("p", {}, t("web.exchange.help")),
      tiles, count,
      h("div", { class: "dialog-buttons" }, ok,
        h("button", { type: "button", onclick: () => dialog.close("cancel") }, t("web.cancel"))),
    ], {
      label: t("web.exchange.title"),
      onClose: (value) => resolve(value === "ok" ? items.filter((i) => chosen.has(i.id)) : null),
    });
  });
}

export function confirm(question, yes) {
  return new Promise((resolve) => {
    const dialog = open([
      h("p", {}, question),
      h("div", { class: "dialog-buttons" },
        h("button", { type: "button", class: "primary", onclick: () => dialog.close("ok") }, yes),
        h("button", { type: "button", onclick: () => dialog.close("cancel") }, t("web.cancel"))),
    ], { label: question, onClose: (value) => resolve(value === "ok") });
  });
}
