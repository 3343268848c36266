// The rack: click (or Enter) selects a tile, drag (pointer events: mouse and touch) moves it
// onto a square or elsewhere on the rack, Shift+arrows move it by keyboard; shuffle. The order
// is the page's own (kept in localStorage by the room).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tileFace, tileName } from "./board.js";

// The server's rack in the remembered order: tiles still there keep their places, new ones
// go at the end. Each tile gets an id (label#n) that stays while the rack does.
export function reconcile(order, rack) {
  const left = [...rack];
  const labels = [];
  for (const label of order) {
    const i = left.indexOf(label);
    if (i >= 0) { labels.push(label); left.splice(i, 1); }
  }
  labels.push(...left);
  const seen = {};
  return labels.map((label) => {
    seen[label] = (seen[label] || 0) + 1;
    return { id: `${label}#${seen[label]}`, label };
  });
}

export function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function moved(items, id, index) {
  const from = items.findIndex((x) => x.id === id);
  if (from < 0) return items;
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(index, out.length)), 0, item);
  return out;
}

export class RackView {
  // onSelect(id), onReorder(id, index), onDropSquare(id, r, c)
  constructor(handlers) {
    this.handlers = handlers;
    this.items = [];
    this.drag = null;
    this.suppressClick = false;
    this.el = h("div", { class: "rack", role: "toolbar", "aria-label": t("web.rack") });
  }

  render({ items, used, selected, values, enabled }) {
    this.items = items;
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.id : null;
    this.el.replaceChildren(...items.map((item, index) => {
      if (used.has(item.id)) return h("span", { class: "rack-slot", dataset: { index } });
      const value = values.has(item.label) ? values.get(item.label) : null;
      const name = tileName(item.label, { value });
      const button = h("button", {
        type: "button", class: `rack-tile${item.id === selected ? " selected" : ""}`,
        dataset: { id: item.id, index }, draggable: "false",
        "aria-pressed": item.id === selected ? "true" : "false", "aria-label": name,
        disabled: !enabled,
        onclick: () => {
          if (this.suppressClick) { this.suppressClick = false; return; }
          this.handlers.onSelect(item.id);
        },
        onkeydown: (e) => this.key(e, item, index),
        onpointerdown: (e) => this.down(e, item),
      }, tileFace(item.label, { value }));
      return button;
    }));
    if (focused) {
      const again = this.el.querySelector(`[data-id="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  key(e, item, index) {
    const delta = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!delta) return;
    e.preventDefault();
    if (e.shiftKey || e.altKey) {
      this.handlers.onReorder(item.id, index + delta);
      return;
    }
    const buttons = [...this.el.querySelectorAll("button.rack-tile")];
    const at = buttons.findIndex((b) => b.dataset.id === item.id);
    const next = buttons[at + delta];
    if (next) next.focus();
  }

  down(e, item) {
    if (e.button !== undefined && e.button !== 0) return;
    const source = e.currentTarget;
    this.drag = { id: item.id, item, x: e.clientX, y: e.clientY, pointer: e.pointerId,
      source, ghost: null };
    source.setPointerCapture(e.pointerId);
    const move = (ev) => this.move(ev);
    const up = (ev) => {
      source.removeEventListener("pointermove", move);
      source.removeEventListener("pointerup", up);
      source.removeEventListener("pointercancel", up);
      this.up(ev, ev.type === "pointercancel");
    };
    source.addEventListener("pointermove", move);
    source.addEventListener("pointerup", up);
    source.addEventListener("pointercancel", up);
  }

  move(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
      const rect = drag.source.getBoundingClientRect();
      drag.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" },
        drag.source.firstChild.cloneNode(true));
      drag.ghost.style.width = `${rect.width}px`;
      drag.ghost.style.height = `${rect.height}px`;
      document.body.append(drag.ghost);
      drag.source.classList.add("dragging");
    }
    e.preventDefault();
    drag.ghost.style.left = `${e.clientX}px`;
    drag.ghost.style.top = `${e.clientY}px`;
    this.hover(e.clientX, e.clientY);
  }

  hover(x, y) {
    document.querySelectorAll(".sq.drop").forEach((el) => el.classList.remove("drop"));
    const under = document.elementFromPoint(x, y);
    const square = under && under.closest(".sq");
    if (square) square.classList.add("drop");
  }

  up(e, cancelled) {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    document.querySelectorAll(".sq.drop").forEach((el) => el.classList.remove("drop"));
    if (!drag.ghost) return; // a click: the click handler selects
    drag.ghost.remove();
    drag.source.classList.remove("dragging");
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    if (cancelled) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    if (!under) return;
    const square = under.closest(".sq");
    if (square) {
      this.handlers.onDropSquare(drag.id, Number(square.dataset.r), Number(square.dataset.c));
      return;
    }
    if (!this.el.contains(under)) return;
    // Dropped on a tile, it takes that tile's place; on the rack's background, the end.
    const slot = under.closest("[data-index]");
    this.handlers.onReorder(drag.id, slot ? Number(slot.dataset.index) : this.items.length - 1);
  }
}
