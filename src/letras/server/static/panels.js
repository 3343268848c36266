// The room's side panels: scores and clocks, the turn, bag and unseen tiles, the scoresheet,
// the log of events and the final count.
import { clear, h } from "./dom.js";
import { has, t, tn } from "./i18n.js";

export function clockText(seconds) {
  const sign = seconds < 0 ? "-" : "";
  const s = Math.floor(Math.abs(seconds));
  return `${sign}${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Seconds on each player's clock now: the clock of the player to move runs since `since`.
function clocks(view, step, since) {
  const kind = view.rules.time_control.kind;
  if (kind === "none") return view.players.map(() => null);
  const running = !view.over && step && step.kind === "move" ? step.seat : null;
  const elapsed = (Date.now() - since) / 1000;
  return view.clocks.map((clock, p) => {
    const extra = p === running ? elapsed : 0;
    if (kind === "game") return clockText((clock.left ?? 0) - extra);
    return p === running ? clockText(view.rules.time_control.seconds - extra) : null;
  });
}

export function renderScores(el, { view, step, mySeat, since }) {
  const times = clocks(view, step, since);
  clear(el, view.players.map((player, p) => h("li", {
    class: `player${p === view.to_move && !view.over ? " to-move" : ""}${p === mySeat ? " me" : ""}`,
    "aria-current": p === view.to_move && !view.over ? "true" : null,
  },
  h("span", { class: "name" }, player.name),
  h("span", { class: "score", "aria-label": tn("points", player.score) }, player.score),
  h("span", { class: "more" },
    h("span", { class: "rack-count" }, tn("tiles", player.rack_count)),
    times[p] !== null ? h("span", { class: "clock",
      "aria-label": t("web.clock", { time: times[p] }) }, times[p]) : null))));
}

export function turnText(view, step, mySeat) {
  const name = (p) => (p !== null && p !== undefined && view.players[p] ? view.players[p].name : "");
  if (view.over || (step && step.kind === "over")) return t("web.turn.over");
  if (!step) return "";
  const mine = step.seat === mySeat && mySeat !== null;
  const pending = view.pending;
  if (step.kind === "ai") return t("web.turn.thinking", { name: name(step.seat) });
  if (step.kind === "window" || step.kind === "settle") {
    if (pending && (step.may_challenge || []).includes(mySeat)) {
      return t("web.turn.may_challenge", { name: name(pending.player), play: pending.play });
    }
    return t("web.turn.window", { name: name(pending ? pending.player : step.seat),
      play: pending ? pending.play : "" });
  }
  return mine ? t("web.turn.yours") : t("web.turn.of", { name: name(step.seat) });
}

export function renderBag(el, view) {
  const unseen = view.unseen;
  clear(el,
    h("p", { class: "bag" }, t("web.bag", { n: view.bag })),
    h("p", { class: "unseen-head" }, t("web.unseen.head", {
      n: unseen.count, vowels: unseen.vowels, consonants: unseen.consonants,
      blanks: unseen.blanks })),
    h("ul", { class: "unseen", "aria-label": t("web.unseen.title") },
      Object.entries(unseen.tiles).map(([label, n]) =>
        h("li", { "aria-label": `${label === "?" ? t("web.tile.blank") : label}: ${n}` },
          h("span", { class: "u-letter", "aria-hidden": "true" }, label),
          h("span", { class: "u-count", "aria-hidden": "true" }, n)))));
}

function turnWhat(turn) {
  if (turn.kind === "play") return turn.play || "";
  if (turn.kind === "exchange") {
    return t("web.kind.exchange", { n: turn.count || (turn.tiles || []).length });
  }
  const key = `web.kind.${turn.kind}`;
  const what = has(key) ? t(key) : turn.kind;
  return turn.play ? `${what} ${turn.play}` : what;
}

// The scoresheet; while examining, the lines after the examined position (`upto`) are dimmed.
export function renderSheet(el, view, upto = null) {
  const rows = view.turns.map((turn, i) => h("tr", {
    class: `k-${turn.kind}${upto !== null && i >= upto ? " later" : ""}` },
    h("td", { class: "n" }, i + 1),
    h("td", { class: "who" }, view.players[turn.player] ? view.players[turn.player].name : ""),
    h("td", { class: "what" }, turnWhat(turn),
      turn.text ? h("span", { class: "words" }, turn.text) : null),
    h("td", { class: "pts" }, turn.points > 0 ? `+${turn.points}` : turn.points),
    h("td", { class: "total" }, turn.total)));
  const table = h("table", { class: "sheet" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, t("web.sheet.player")),
      h("th", { scope: "col" }, t("web.sheet.play")),
      h("th", { scope: "col" }, t("web.sheet.points")),
      h("th", { scope: "col" }, t("web.sheet.total")))),
    h("tbody", {}, rows.length ? rows
      : h("tr", {}, h("td", { colspan: "5", class: "empty" }, t("web.sheet.empty")))));
  const scroll = h("div", { class: "scroll" }, table);
  clear(el, h("h2", { id: "sheet-title" }, t("web.sheet.title")), scroll);
  table.setAttribute("aria-labelledby", "sheet-title");
  scroll.scrollTop = scroll.scrollHeight;
}

export function renderLog(el, events) {
  const scroll = h("div", { class: "scroll" },
    h("ol", { class: "log" }, events.map((e) => h("li", { class: `ev ${e.key.split(".")[0]}` },
      e.text))));
  clear(el, h("h2", {}, t("web.log.title")), scroll);
  scroll.scrollTop = scroll.scrollHeight;
}

const FINAL = /^(end\.reason|count)\./;

// The final count as the events told it, else the scores (events older than the last 50).
export function renderResult(el, view, events) {
  if (!view.over) { el.hidden = true; return; }
  el.hidden = false;
  let lines = events.filter((e) => FINAL.test(e.key));
  const start = lines.findIndex((e) => e.key.startsWith("end.reason"));
  if (start > 0) lines = lines.slice(start);
  // The server says who won (a player who resigned never does); older views: the top score.
  const top = Math.max(...view.players.map((p) => p.score));
  const seats = Array.isArray(view.winners) && view.winners.length ? view.winners
    : view.players.map((p, i) => i).filter((i) => view.players[i].score === top);
  const winners = seats.map((i) => view.players[i].name);
  const best = view.players[seats[0]].score;
  clear(el, h("h2", {}, t("web.result.title")),
    lines.length ? h("ul", { class: "count" }, lines.map((e) =>
      h("li", { class: e.key === "count.winner" || e.key === "count.tie" ? "winner"
        : e.key === "count.line" ? "line" : "" }, e.text)))
      : h("p", { class: "winner" }, winners.length > 1
        ? t("web.result.tie", { names: winners.join(", "), score: best })
        : t("web.result.winner", { name: winners[0], score: best })));
}
