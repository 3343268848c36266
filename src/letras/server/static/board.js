// The 15x15 board: premium squares in the rule sheets' colours, tiles with letters and values,
// the last play, the tiles placed this turn and the cursor. A grid with one tab stop.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { ACROSS, COLUMNS, SIZE, boardLabel, key, squareName } from "./entry.js";

const PREMIUMS = { "'": "dl", '"': "tl", "-": "dw", "=": "tw", "*": "star" };

export function tileFace(label, { value = null, blank = false } = {}) {
  const letter = label === "?" ? "" : label.toUpperCase();
  return h("span", { class: `face${blank || label === "?" ? " blank" : ""}`, "aria-hidden": "true" },
    h("span", { class: "letter" }, letter),
    value !== null && !blank ? h("span", { class: "value" }, value) : null);
}

// "C, 3 pontos" or "C, branco": a tile's accessible name.
export function tileName(label, { value = null, blank = false } = {}) {
  if (label === "?") return t("web.tile.blank");
  if (blank) return t("web.tile.blank_as", { letter: label.toUpperCase() });
  return value === null ? label : t("web.tile.valued", { letter: label, points: tn("points", value) });
}

export class BoardView {
  constructor({ onSquare, onKey }) {
    this.cells = [];
    this.signatures = [];
    this.el = h("div", {
      class: "board", role: "grid", tabindex: "0", "aria-label": t("web.board"),
      "aria-describedby": "board-help", onkeydown: onKey,
    });
    this.el.append(h("div", { class: "coord corner", "aria-hidden": "true" }));
    for (let c = 0; c < SIZE; c++) {
      this.el.append(h("div", { class: "coord col", "aria-hidden": "true" }, COLUMNS[c]));
    }
    for (let r = 0; r < SIZE; r++) {
      const row = h("div", { class: "row", role: "row" },
        h("div", { class: "coord rownum", "aria-hidden": "true" }, r + 1));
      for (let c = 0; c < SIZE; c++) {
        const cell = h("div", {
          class: "sq", role: "gridcell", id: `sq-${r}-${c}`, dataset: { r, c },
          onclick: () => onSquare(r, c),
        });
        row.append(cell);
        this.cells.push(cell);
        this.signatures.push("");
      }
      this.el.append(row);
    }
  }

  // state: {view, placed: Map key -> {label, blank}, last: Set of keys, cursor, values,
  // blankNext: "?" was typed, the next letter at the cursor is a blank}
  render({ view, placed, last, cursor, values, blankNext = false }) {
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const i = r * SIZE + c;
        const k = key(r, c);
        const premium = PREMIUMS[view.premiums[r][c]] || null;
        const onBoard = boardLabel(view, r, c);
        const mine = placed.get(k) || null;
        const here = cursor && cursor.r === r && cursor.c === c ? cursor.dir : "";
        const blank = Boolean(here) && blankNext;
        const signature = [premium, onBoard, mine && mine.label, mine && mine.blank,
          last.has(k), here, blank, values.size].join("|");
        if (signature === this.signatures[i]) continue;
        this.signatures[i] = signature;
        this.paint(this.cells[i], { r, c, premium, onBoard, mine, last: last.has(k), here,
          blankNext: blank, values });
      }
    }
    if (cursor) this.el.setAttribute("aria-activedescendant", `sq-${cursor.r}-${cursor.c}`);
    else this.el.removeAttribute("aria-activedescendant");
  }

  paint(cell, { r, c, premium, onBoard, mine, last, here, blankNext, values }) {
    const classes = ["sq"];
    if (premium) classes.push(premium);
    const square = squareName(r, c);
    let name;
    cell.replaceChildren();
    if (onBoard || mine) {
      const label = onBoard || mine.label;
      const blank = mine ? mine.blank : label !== label.toUpperCase();
      const value = values.has(label.toUpperCase()) ? values.get(label.toUpperCase()) : null;
      classes.push("filled");
      if (mine) classes.push("placed");
      if (last) classes.push("last");
      cell.append(tileFace(label, { value, blank }));
      name = t(mine ? "web.square.placed" : "web.square.tile",
        { square, tile: tileName(label.toUpperCase(), { value, blank }) });
    } else {
      if (premium) {
        cell.append(h("span", { class: "prem", "aria-hidden": "true" },
          premium === "star" ? "★" : t(`web.premium.short.${premium}`)));
      }
      name = premium ? t("web.square.premium", { square, premium: t(`web.premium.${premium}`) })
        : square;
    }
    if (here) {
      classes.push("cursor", here === ACROSS ? "across" : "down");
      name = `${name}. ${t(here === ACROSS ? "web.direction.across" : "web.direction.down")}`;
      if (blankNext) {
        classes.push("blank-next");
        name = `${name}. ${t("web.square.blank_next")}`;
      }
    }
    cell.className = classes.join(" ");
    cell.setAttribute("aria-label", name);
    if (here) cell.setAttribute("aria-selected", "true");
    else cell.removeAttribute("aria-selected");
  }
}
