// The game room: one game's state from the websocket, the board, the rack, placing tiles with
// a live preview, the actions, and the panels.
import { Live, editions, gameState, postAction, preview } from "./api.js";
import { BoardView } from "./board.js";
import { clear, debounce, h } from "./dom.js";
import { chooseExchange, chooseLetter, confirm } from "./dialogs.js";
import { ACROSS, Entry, boardLabel, playSquares, key, rackNotation } from "./entry.js";
import { t } from "./i18n.js";
import { RackView, moved, reconcile, shuffled } from "./rack.js";
import { Review } from "./review.js";
import { TypingField, coarsePointer } from "./typing.js";
import { rackOrder, rememberGame, saveRackOrder } from "./store.js";
import { renderBag, renderLog, renderResult, renderScores, renderSheet, turnText } from "./panels.js";

// The edition's tile values as label -> points, if /api/editions gives a tile table.
export function tileValues(edition) {
  const values = new Map();
  const table = edition && (edition.tiles || edition.values);
  if (Array.isArray(table)) {
    for (const row of table) {
      if (Array.isArray(row)) values.set(String(row[0]).toUpperCase(), Number(row[1]));
      else if (row && row.label !== undefined) values.set(row.label.toUpperCase(), Number(row.value));
    }
  } else if (table && typeof table === "object") {
    for (const [label, v] of Object.entries(table)) {
      values.set(label.toUpperCase(), Number(typeof v === "object" ? v.value : v));
    }
  }
  values.delete("?");
  return values;
}

const OWN_MOVES = new Set(["event.play", "event.exchange", "event.pass"]);
const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

export class Room {
  constructor(main, id, token, announcer) {
    this.main = main;
    this.id = id;
    this.token = token || null;
    this.announcer = announcer;
    this.state = null;
    this.events = [];
    this.entry = new Entry();
    this.items = [];
    this.rackLabels = null;
    this.selected = null;
    this.values = new Map();
    this.since = Date.now();
    this.previewSeq = 0;
    this.schedulePreview = debounce(() => this.preview(), 250);
    this.build();
  }

  get seat() { return this.state ? this.state.seat : null; }
  get view() { return this.state ? this.state.view : null; }
  get spectator() { return this.seat === null || this.seat === undefined; }

  build() {
    this.board = new BoardView({ onSquare: (r, c) => this.square(r, c), onKey: (e) => this.key(e) });
    this.board.el.addEventListener("focus", () => {
      // A keyboard arrival puts the cursor on the centre; a click puts it where it clicks.
      if (this.entry.cursor || this.spectator || !this.view) return;
      if (!this.board.el.matches(":focus-visible")) return;
      this.entry.setCursor(7, 7);
      this.render();
    });
    this.rack = new RackView({
      onSelect: (id) => { this.selected = this.selected === id ? null : id; this.render(); },
      onReorder: (id, index) => this.reorder(moved(this.items, id, index)),
      onDropSquare: (id, r, c) => this.place(id, r, c),
    });
    const button = (name, onclick, cls = "") =>
      h("button", { type: "button", class: cls, dataset: { action: name }, onclick },
        t(`web.action.${name}`));
    this.buttons = {
      play: button("play", () => this.play(), "primary"),
      recall: button("recall", () => { this.entry.recall(); this.changed(); }),
      shuffle: button("shuffle", () => this.reorder(shuffled(this.items))),
      pass: button("pass", () => this.pass()),
      exchange: button("exchange", () => this.exchange()),
      challenge: button("challenge", () => this.act({ challenge: true }), "warn"),
      accept: button("accept", () => this.act({ accept: true })),
      resign: button("resign", () => this.resign(), "danger"),
    };
    this.turn = h("p", { class: "turn", id: "turn" });
    this.countdown = h("span", { class: "countdown", id: "countdown", hidden: true });
    this.review = new Review(this);
    this.connection = h("span", { class: "conn", role: "status" });
    this.scores = h("ul", { class: "scores", "aria-label": t("web.scores") });
    this.previewEl = h("p", { class: "preview", id: "preview", "aria-live": "polite" });
    this.errorEl = h("p", { class: "error", id: "error", role: "alert" });
    this.typing = new TypingField({
      onLetter: (ch) => { this.typeLetter(ch); this.changed(); },
      onBlank: () => { this.typeBlank(); this.changed(); },
      onBackspace: () => { this.entry.backspace(); this.changed(); },
      onEnter: () => this.play(),
    });
    this.mine = h("div", { class: "mine" },
      this.rack.el, this.typing.el,
      h("div", { class: "controls" }, Object.values(this.buttons)),
      this.previewEl, this.errorEl,
      h("p", { class: "help", id: "board-help" }, t("web.help.keys")));
    this.bag = h("section", { class: "panel bag-panel", "aria-label": t("web.bag_title") });
    this.sheet = h("section", { class: "panel sheet-panel" });
    this.log = h("section", { class: "panel log-panel" });
    this.result = h("section", { class: "panel result", hidden: true, "aria-live": "polite" });
    // The record as GCG for this seat (a spectator's without a token): GET /api/games/ID/gcg.
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    this.downloads = h("p", { class: "downloads" },
      h("a", { id: "gcg", href: `/api/games/${encodeURIComponent(this.id)}/gcg${query}`,
        download: `letras-${this.id}.gcg` }, "GCG"));
    clear(this.main, h("div", { class: "room" },
      h("div", { class: "play-area" },
        h("div", { class: "status" }, this.turn, this.countdown, this.connection),
        this.scores, this.board.el, this.mine),
      h("aside", { class: "side" }, this.result, this.review.el, this.bag, this.sheet, this.log,
        this.downloads)));
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  async start() {
    this.live = new Live(this.id, this.token, {
      onState: (state, fresh) => this.receive(state, fresh),
      onError: (error) => this.showError(error),
      onStatus: (status) => this.status(status),
    }).start();
    try {
      const data = await editions();
      this.editions = data.editions || [];
      if (this.view) this.learnEdition();
    } catch { /* letters only */ }
  }

  learnEdition() {
    const edition = (this.editions || []).find((e) => e.name === this.view.edition);
    this.values = tileValues(edition);
    this.render();
  }

  status(status) {
    this.connection.textContent = t(`web.connection.${status}`);
    this.connection.className = `conn ${status}`;
  }

  // A state from the socket (or an HTTP answer): fresh ones carry the recent events entire.
  receive(state, fresh) {
    const first = !this.state;
    this.state = state;
    this.since = Date.now();
    const events = state.events || [];
    if (fresh) this.events = events;
    else {
      this.events = this.events.concat(events).slice(-200);
      this.announce(events);
    }
    const view = state.view;
    if (first) {
      this.main.querySelector(".room").classList.toggle("spectating", this.spectator);
      rememberGame({ id: this.id, seat: this.spectator ? null : state.seat, token: this.token,
        names: view.players.map((p) => p.name), edition: view.edition });
      if (this.editions) this.learnEdition();
    }
    const rack = view.rack || [];
    if (this.rackLabels === null || [...rack].sort().join() !== [...this.rackLabels].sort().join()) {
      this.entry.recall();
      this.selected = null;
    }
    this.rackLabels = rack;
    this.items = reconcile(this.spectator ? [] : rackOrder(this.id, this.seat), rack);
    for (const tile of [...this.entry.placed.values()]) {
      if (boardLabel(view, tile.r, tile.c)) this.entry.remove(tile.r, tile.c);
    }
    if (!this.spectator) saveRackOrder(this.id, this.seat, this.items.map((i) => i.label));
    this.render();
    this.schedulePreview();
  }

  // Say what others did (plays, challenges, the end); a seat's own moves it knows already.
  announce(events) {
    const own = (e) => !this.spectator && e.data && e.data.player === this.seat
      && OWN_MOVES.has(e.key);
    const said = events.filter((e) => !own(e));
    if (said.length) this.announcer.textContent = said.map((e) => e.text).join(" ");
  }

  get myTurn() {
    const step = this.state && this.state.step;
    return !this.spectator && step && !this.view.over && step.kind === "move"
      && step.seat === this.seat;
  }

  get mayChallenge() {
    const step = this.state && this.state.step;
    return !this.spectator && step && (step.may_challenge || []).includes(this.seat);
  }

  // Every letter of the edition: what is unseen, on this rack and on the board.
  letters() {
    const view = this.view;
    const out = new Set([...Object.keys(view.unseen.tiles), ...(view.rack || [])]);
    for (let r = 0; r < 15; r++) {
      for (let c = 0; c < 15; c++) {
        const label = boardLabel(view, r, c);
        if (label) out.add(label.toUpperCase());
      }
    }
    out.delete("?");
    const sorted = [...this.values.keys()].filter((l) => out.has(l));
    return sorted.length === out.size ? sorted : [...out].sort((a, b) => a.localeCompare(b));
  }

  lastPlay(view) {
    const turn = [...view.turns].reverse().find((x) => x.kind === "play" || x.kind === "withdrawn");
    const squares = turn && turn.kind === "play" ? playSquares(turn.play) : [];
    return new Set(squares.filter(([r, c]) => boardLabel(view, r, c)).map(([r, c]) => key(r, c)));
  }

  render() {
    const view = this.view;
    if (!view) return;
    const step = this.state.step;
    const examining = this.review.active;
    const shown = examining ? this.review.position.view : view;
    this.board.render({ view: shown, placed: examining ? new Map() : this.entry.placed,
      last: this.lastPlay(shown), values: this.values,
      cursor: this.spectator || view.over || examining ? null : this.entry.cursor,
      blankNext: this.entry.blankNext });
    this.rack.render({ items: this.items, used: this.entry.usedIds(), selected: this.selected,
      values: this.values, enabled: !view.over });
    this.turn.textContent = turnText(view, step, this.seat);
    this.turn.classList.toggle("yours", Boolean(this.myTurn));
    this.renderCountdown();
    renderScores(this.scores, { view: shown, step, mySeat: this.seat, since: this.since });
    renderBag(this.bag, shown);
    renderSheet(this.sheet, view, examining ? shown.turns.length : null);
    renderLog(this.log, this.events);
    renderResult(this.result, view, this.events);
    this.review.render(view, this.state);
    const b = this.buttons;
    const move = this.myTurn;
    b.play.disabled = !move || this.entry.size === 0;
    b.recall.disabled = this.entry.size === 0;
    b.shuffle.disabled = this.items.length < 2;
    b.pass.disabled = !move;
    b.exchange.disabled = !move || view.bag < view.rules.exchange_min_bag;
    b.exchange.title = b.exchange.disabled && move
      ? t("web.exchange.bag", { min: view.rules.exchange_min_bag, n: view.bag }) : "";
    b.challenge.hidden = !this.mayChallenge;
    // Playing accepts the last play: Accept is only for a window or a play that goes out.
    b.accept.hidden = !this.mayChallenge || !["window", "settle"].includes(step.kind);
    b.resign.disabled = view.over; // any time while the game is on, whoever is to move
    this.mine.hidden = this.spectator || examining;
  }

  // The seconds a challenge window has left, as the server keeps it (it closes by itself).
  renderCountdown() {
    const w = this.state && this.state.window;
    const el = this.countdown;
    if (!w || this.view.over) { el.hidden = true; return; }
    const left = Math.max(0, Math.ceil(w.seconds_left - (Date.now() - this.since) / 1000));
    el.hidden = false;
    el.textContent = t("web.window.left", { n: left });
    el.classList.toggle("low", left <= 5);
  }

  tick() {
    this.renderCountdown();
    if (this.view && this.view.rules.time_control.kind !== "none" && !this.view.over) {
      renderScores(this.scores, { view: this.view, step: this.state.step, mySeat: this.seat,
        since: this.since });
    }
  }

  changed() {
    this.render();
    this.schedulePreview();
  }

  reorder(items) {
    this.items = items;
    saveRackOrder(this.id, this.seat, items.map((i) => i.label));
    this.render();
  }

  clearError() { this.errorEl.textContent = ""; }

  showError(error) {
    this.errorEl.textContent = (error && error.message) || t("web.error.unknown");
  }

  // Put a rack tile on a square (a blank asks which letter).
  async place(id, r, c) {
    const view = this.view;
    if (this.spectator || !view || view.over || boardLabel(view, r, c)) return;
    const tile = this.items.find((i) => i.id === id);
    if (!tile || this.entry.usedIds().has(id)) return;
    let letter = tile.label;
    if (tile.label === "?") {
      letter = await chooseLetter(this.letters());
      if (!letter) return;
    }
    if (this.entry.at(r, c)) this.entry.remove(r, c);
    this.entry.put(r, c, tile, letter);
    this.entry.setCursor(r, c);
    this.selected = null;
    this.clearError();
    this.changed();
  }

  square(r, c) {
    if (this.spectator || !this.view) return;
    const view = this.view;
    const free = !boardLabel(view, r, c) && !this.entry.at(r, c);
    if (this.selected && free) { this.place(this.selected, r, c); return; }
    if (this.entry.at(r, c)) this.entry.remove(r, c);
    else if (this.entry.cursor && this.entry.cursor.r === r && this.entry.cursor.c === c) {
      this.entry.toggleDirection();
    } else this.entry.setCursor(r, c);
    // A phone shows its keyboard only for a text field: the typing field then takes the keys.
    if (coarsePointer() && !this.view.over) this.typing.focus();
    else this.board.el.focus({ preventScroll: true });
    this.changed();
  }

  letterOf(text) {
    const known = new Set(this.letters());
    const upper = text.toUpperCase();
    if (known.has(upper)) return upper;
    const plain = upper.normalize("NFD").replace(/\p{M}/gu, "");
    return known.has(plain) ? plain : upper;
  }

  key(e) {
    if (this.spectator || !this.view || e.ctrlKey || e.metaKey) return;
    const entry = this.entry;
    if (ARROWS[e.key]) {
      e.preventDefault();
      entry.moveCursor(...ARROWS[e.key]);
    } else if (e.key === " " || (e.key === "Tab" && !e.shiftKey && entry.cursor)) {
      e.preventDefault();
      if (!entry.cursor) entry.setCursor(7, 7);
      else entry.toggleDirection();
    } else if (e.key === "Backspace" || e.key === "Delete") {
      e.preventDefault();
      entry.backspace();
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (entry.size) entry.recall(); else entry.cursor = null;
    } else if (e.key === "Enter") {
      e.preventDefault();
      this.play();
      return;
    } else if (e.key === "?" && !e.altKey) {
      e.preventDefault();
      this.typeBlank();
    } else if (e.key.length === 1 && /\p{L}/u.test(e.key) && !e.altKey) {
      e.preventDefault();
      this.typeLetter(e.key);
    } else return;
    this.changed();
  }

  // "?" typed: the next letter is a blank standing for it.
  typeBlank() {
    if (this.spectator || !this.view || this.view.over) return;
    if (!this.entry.cursor) this.entry.setCursor(7, 7, ACROSS);
    if (this.entry.blank(this.items) === "no-blank") {
      this.showError({ message: t("web.error.no_blank") });
    } else this.clearError();
  }

  // A letter typed (on the board, or in the typing field of a phone) at the cursor.
  typeLetter(text) {
    if (this.spectator || !this.view || this.view.over) return;
    const entry = this.entry;
    if (!entry.cursor) entry.setCursor(7, 7, ACROSS);
    const letter = this.letterOf(text);
    const why = entry.type(letter, this.items, this.view);
    if (why === "not-on-rack") this.showError({ message: t("web.error.not_on_rack", { letter }) });
    else if (why === "no-blank") this.showError({ message: t("web.error.no_blank") });
    else if (why === "off-board") this.showError({ message: t("web.error.off_board") });
    else this.clearError();
  }

  multiLetter() {
    return this.letters().filter((l) => l.length > 1);
  }

  async preview() {
    const seq = ++this.previewSeq;
    const el = this.previewEl;
    const n = this.view && this.entry.notation(this.view, this.multiLetter());
    el.className = "preview";
    if (!n || !this.myTurn) { el.textContent = n && n.play ? n.play : ""; return; }
    if (n.error) {
      el.textContent = t(n.error.key, { square: n.error.square || "" });
      el.classList.add("illegal");
      return;
    }
    el.textContent = `${n.play} …`;
    try {
      const answer = await preview(this.id, this.token, n.play);
      if (seq !== this.previewSeq) return;
      if (answer.legal) {
        el.textContent = t("web.preview.legal", { play: n.play, text: answer.score.text,
          total: answer.score.total });
        el.classList.add("legal");
        el.dataset.total = answer.score.total;
      } else {
        el.textContent = t("web.preview.illegal", { play: n.play,
          reason: (answer.error && answer.error.message) || "" });
        el.classList.add("illegal");
      }
    } catch (e) {
      if (seq !== this.previewSeq) return;
      el.textContent = t("web.preview.illegal", { play: n.play, reason: e.message });
      el.classList.add("illegal");
    }
  }

  // Send an action over the socket, or by POST when it is down.
  async act(action) {
    this.clearError();
    if (this.live && this.live.send(action)) return;
    try {
      this.receive(await postAction(this.id, this.token, action), true);
    } catch (e) {
      this.showError(e.error || { message: e.message });
    }
  }

  play() {
    if (!this.myTurn) return;
    const n = this.entry.notation(this.view, this.multiLetter());
    if (!n) return;
    if (n.error) { this.showError({ message: t(n.error.key, { square: n.error.square || "" }) }); return; }
    this.act({ play: n.play });
  }

  async pass() {
    if (!this.myTurn) return;
    if (await confirm(t("web.pass.confirm"), t("web.action.pass"))) this.act({ pass: true });
  }

  async resign() {
    if (this.spectator || this.view.over) return;
    if (await confirm(t("web.resign.confirm"), t("web.action.resign"))) this.act({ resign: true });
  }

  async exchange() {
    if (!this.myTurn) return;
    const tiles = await chooseExchange(this.items, this.values);
    if (tiles && tiles.length) {
      this.entry.recall();
      this.act({ exchange: rackNotation(tiles.map((x) => x.label)) });
    }
  }

  async reload() {
    this.receive(await gameState(this.id, this.token), true);
  }
}

export function openRoom(main, id, token, announcer) {
  const room = new Room(main, id, token, announcer);
  room.start();
  window.letrasRoom = room; // for debugging and tests
  return room;
}
