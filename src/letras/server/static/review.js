// After the game: step through its positions (examine), the best plays of any turn, and the
// rematch. The room shows the examined position on its board while this panel is stepping.
import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export const examinePosition = (id, token, n) =>
  api(`/api/games/${encodeURIComponent(id)}/examine/${n}`, { token });
export const bestPlays = (id, token, n, count = 10) =>
  api(`/api/games/${encodeURIComponent(id)}/best`, { method: "POST", body: { n, count }, token });
export const askRematch = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/rematch`, { method: "POST", body: {}, token });

// The address of a game for this seat (its token opens the rematch too) or a spectator.
export function gameUrl(id, token) {
  return `/g/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

export class Review {
  constructor(room) {
    this.room = room;
    this.position = null; // the answer of GET .../examine/N while examining
    this.best = null; // the answer of POST .../best for that position
    this.busy = false;
    this.el = h("section", { class: "panel review", hidden: true,
      "aria-label": t("web.review.title") });
  }

  get active() { return this.position !== null; }

  async go(n) {
    if (n === null || n === undefined || this.busy) return;
    this.busy = true;
    try {
      this.position = await examinePosition(this.room.id, this.room.token, n);
      this.best = null;
      this.room.announcer.textContent = this.where();
    } catch (e) {
      this.room.showError(e.error || { message: e.message });
    } finally {
      this.busy = false;
    }
    this.room.render();
  }

  leave() {
    this.position = null;
    this.best = null;
    this.room.render();
  }

  where() {
    const p = this.position;
    return t("web.review.where", { n: p.positions.indexOf(p.n), total: p.positions.length - 1 });
  }

  async askBest() {
    if (!this.position || this.busy) return;
    this.busy = true;
    this.best = { loading: true };
    this.room.render();
    try {
      this.best = await bestPlays(this.room.id, this.room.token, this.position.n);
    } catch (e) {
      this.best = { error: (e.error && e.error.message) || e.message };
    } finally {
      this.busy = false;
    }
    this.room.render();
  }

  async rematch() {
    try {
      const answer = await askRematch(this.room.id, this.room.token);
      location.assign(gameUrl(answer.id, this.room.token));
    } catch (e) {
      this.room.showError(e.error || { message: e.message });
    }
  }

  render(view, state) {
    if (!view.over) { this.el.hidden = true; return; }
    this.el.hidden = false;
    const button = (name, onclick, attrs = {}) => h("button", { type: "button",
      dataset: { review: name }, onclick, ...attrs }, t(`web.review.${name}`));
    const parts = [h("h2", {}, t("web.review.title"))];
    const p = this.position;
    if (!p) {
      parts.push(button("examine", () => this.go(0)));
    } else {
      const last = p.positions[p.positions.length - 1];
      parts.push(h("div", { class: "steps", role: "group", "aria-label": t("web.review.steps") },
        button("first", () => this.go(0), { disabled: p.prev === null,
          "aria-label": t("web.review.first_label") }),
        button("prev", () => this.go(p.prev), { disabled: p.prev === null,
          "aria-label": t("web.review.prev_label") }),
        h("span", { class: "where", id: "review-where" }, this.where()),
        button("next", () => this.go(p.next), { disabled: p.next === null,
          "aria-label": t("web.review.next_label") }),
        button("last", () => this.go(last), { disabled: p.next === null,
          "aria-label": t("web.review.last_label") })));
      const seat = p.rack_of;
      const shown = p.view;
      if (seat !== null && shown.rack && !shown.over) {
        parts.push(h("p", { class: "rack-of" }, t("web.review.rack", {
          name: shown.players[seat].name, rack: shown.rack.join(" ") || "-" })));
        parts.push(button("best", () => this.askBest(), { disabled: this.busy }));
      }
      parts.push(this.bestList());
      parts.push(button("back", () => this.leave()));
    }
    if (state.rematch) {
      parts.push(h("p", {}, h("a", { class: "rematch-link", href: gameUrl(state.rematch,
        this.room.token) }, t("web.review.go_rematch"))));
    } else if (!this.room.spectator) {
      parts.push(button("rematch", () => this.rematch(), { class: "primary" }));
    }
    clear(this.el, parts);
  }

  bestList() {
    const best = this.best;
    if (!best) return null;
    if (best.loading) return h("p", { class: "best-loading", "aria-live": "polite" }, t("web.review.thinking"));
    if (best.error) return h("p", { class: "error", role: "alert" }, best.error);
    return h("ol", { class: "best", "aria-label": t("web.review.best_title") },
      best.plays.map((x) => h("li", {},
        h("span", { class: "best-play" }, x.play === "-" ? t("web.kind.pass") : x.play),
        h("span", { class: "best-score" }, t("web.review.score", { score: x.score,
          equity: x.equity.toFixed(1) })))));
  }
}
