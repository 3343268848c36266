// The lobby: play the computer at once, or set up a game (edition, lexicon, 2-4 seats, every
// rule option of the edition with its default, clock) and hand out its links; the games this
// browser remembers.
import { createGame, editions } from "./api.js";
import { clear, h } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { forgetGame, myGames, rememberGame } from "./store.js";

const CHALLENGE_RULES = ["void", "single", "double", "5pt", "10pt", "penalty10"];
// The rule options the form offers, in order (time_control is the clock; min/max players are
// the edition's bounds, not options). A number option's input takes 0 to 1000 (the server's).
const RULE_OPTIONS = ["challenge_rule", "exchange_min_bag", "pass_rounds_to_end",
  "exchange_counts_as_pass", "scoreless_turns_to_end", "end_when_no_play_possible",
  "bingo_bonus", "join_words_from_turn", "late_challenge"];
const CHECKBOXES = new Set(["exchange_counts_as_pass", "end_when_no_play_possible",
  "late_challenge"]);

const levelName = (level) => (has(`web.level.${level}`) ? t(`web.level.${level}`) : level);
const absolute = (path) => new URL(path, location.origin).href;

function remember(result) {
  const names = result.seats.map((s) => s.name);
  for (const seat of result.seats) {
    if (seat.token) {
      rememberGame({ id: result.id, seat: seat.seat, token: seat.token, names,
        name: seat.name, edition: result.edition });
    }
  }
}

// Names must differ: a second "Computador" becomes "Computador 2".
function distinct(seats) {
  const seen = new Map();
  return seats.map((seat) => {
    const base = seat.name.trim() || (seat.ai ? t("seat.computer") : t("seat.you"));
    const n = (seen.get(base) || 0) + 1;
    seen.set(base, n);
    return { ...seat, name: n > 1 ? `${base} ${n}` : base };
  });
}

export async function openLobby(main) {
  const error = h("p", { class: "error", role: "alert", id: "lobby-error" });
  const show = (e) => { error.textContent = (e.error && e.error.message) || e.message; };
  let data;
  try {
    data = await editions();
  } catch (e) {
    clear(main, error);
    show(e);
    return;
  }
  const levels = data.levels || [];
  const strongDefault = levels.includes("equity") ? "equity" : data.default_level;
  const own = data.editions.find((e) => e.language === language || e.name === language)
    || data.editions.find((e) => e.name === "pt-BR") || data.editions[0];

  // ----- play the computer at once
  const name = h("input", { id: "player-name", name: "name", value: t("seat.you"),
    autocomplete: "nickname", maxlength: "40" });
  const quick = h("button", { type: "button", class: "primary big", id: "play-computer",
    onclick: async () => {
      quick.disabled = true;
      error.textContent = "";
      try {
        const seats = distinct([{ name: name.value }, { name: t("seat.computer"), ai: strongDefault }]);
        const result = await createGame({ edition: own.name, seats });
        remember({ ...result, edition: own.name });
        const mine = result.seats.find((s) => s.token);
        location.assign(mine.url);
      } catch (e) {
        show(e);
        quick.disabled = false;
      }
    } }, t("web.lobby.play_computer"));

  // ----- a game of one's own
  const edition = h("select", { id: "edition", name: "edition" },
    data.editions.map((e) => h("option", { value: e.name, selected: e === own }, e.title)));
  const lexicon = h("select", { id: "lexicon", name: "lexicon" });
  const chosenEdition = () => data.editions.find((e) => e.name === edition.value) || own;

  // one input per rule option, its label and a short hint: a select (the challenge rule), a
  // checkbox (yes/no) or a number
  const inputs = new Map();
  const ruleRows = RULE_OPTIONS.map((key) => {
    const id = key === "challenge_rule" ? "challenge" : `rule-${key.replaceAll("_", "-")}`;
    const hint = `${id}-hint`;
    const common = { id, name: key, "aria-describedby": hint };
    let input;
    if (key === "challenge_rule") {
      input = h("select", common,
        CHALLENGE_RULES.map((r) => h("option", { value: r }, t(`rule.${r}`))));
    } else if (CHECKBOXES.has(key)) {
      input = h("input", { ...common, type: "checkbox" });
    } else {
      input = h("input", { ...common, type: "number", min: "0", max: "1000", step: "1",
        required: true });
    }
    inputs.set(key, input);
    const label = h("label", { for: id }, t(`web.lobby.rules.${key}`));
    const row = h("div", { class: `rule-row ${input.type === "checkbox" ? "check"
      : input.type === "number" ? "number" : "choice"}`,
      "data-rule": key },
    input.type === "checkbox" ? [input, label] : [label, input],
    h("small", { class: "hint", id: hint }, t(`web.lobby.rules.${key}_hint`)));
    return row;
  });
  const ruleValue = (key) => {
    const input = inputs.get(key);
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return Number(input.value);
    return input.value;
  };
  // the options that differ from the edition's defaults (the rest the server fills in)
  const changedRules = () => {
    const defaults = chosenEdition().rules || {};
    const out = {};
    for (const key of RULE_OPTIONS) {
      if (!(key in defaults)) continue;
      const value = ruleValue(key);
      if (value !== defaults[key]) out[key] = value;
    }
    return out;
  };

  const seatList = h("ol", { class: "seats" });
  const addSeat = h("button", { type: "button", id: "add-seat", onclick: () => seat("") },
    t("web.lobby.add_seat"));
  const refreshSeats = () => {
    const rows = [...seatList.children];
    rows.forEach((row, i) => {
      row.querySelector(".remove").disabled = rows.length <= 2;
      row.querySelector("legend").textContent = t("web.lobby.seat", { n: i + 1 });
    });
    addSeat.disabled = rows.length >= 4;
  };
  function seat(kind, who = "") {
    const type = h("select", { class: "seat-kind", "aria-label": t("web.lobby.seat_kind") },
      h("option", { value: "" }, t("web.lobby.person")),
      levels.map((level) => h("option", { value: level },
        t("web.lobby.computer_level", { level: levelName(level) }))));
    type.value = kind;
    const input = h("input", { class: "seat-name", "aria-label": t("web.lobby.name"),
      maxlength: "40", value: who || (kind ? t("seat.computer") : "") });
    type.addEventListener("change", () => {
      if (type.value && !input.value) input.value = t("seat.computer");
    });
    const row = h("li", {}, h("fieldset", {}, h("legend", {}), type, input,
      h("button", { type: "button", class: "remove",
        onclick: () => { row.remove(); refreshSeats(); } }, t("web.lobby.remove_seat"))));
    seatList.append(row);
    refreshSeats();
  }
  seat("", t("seat.you"));
  seat(strongDefault, t("seat.computer"));

  const clockKind = (value, label, checked) => h("label", { class: "radio" },
    h("input", { type: "radio", name: "clock", value, checked }), label);
  const gameMinutes = h("input", { type: "number", id: "game-minutes", min: "1", max: "180",
    value: "25", "aria-label": t("web.lobby.clock_game_minutes") });
  const moveMinutes = h("input", { type: "number", id: "move-minutes", min: "1", max: "60",
    value: "3", "aria-label": t("web.lobby.clock_move_minutes") });
  const clock = h("fieldset", { class: "clock" }, h("legend", {}, t("web.lobby.clock")),
    clockKind("none", t("web.lobby.clock_none"), true),
    h("span", { class: "clock-row" }, clockKind("game", t("web.lobby.clock_game")), gameMinutes,
      t("web.lobby.minutes")),
    h("span", { class: "clock-row" }, clockKind("move", t("web.lobby.clock_move")), moveMinutes,
      t("web.lobby.minutes")));

  // the chosen edition's defaults: its lexicons (its default first), every rule option, clock
  const setDefaults = () => {
    const ed = chosenEdition();
    const defaults = ed.rules || {};
    clear(lexicon, (ed.lexicons || []).map((name) => h("option", { value: name }, name)));
    for (const [key, input] of inputs) {
      const row = input.closest(".rule-row");
      row.hidden = !(key in defaults);
      if (row.hidden) continue;
      const value = defaults[key];
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = String(value);
    }
    const tc = defaults.time_control || { kind: "none" };
    const kind = ["game", "move"].includes(tc.kind) ? tc.kind : "none";
    clock.querySelector(`input[name=clock][value=${kind}]`).checked = true;
    if (kind === "game") gameMinutes.value = String(Math.max(1, Math.round(tc.seconds / 60)));
    if (kind === "move") moveMinutes.value = String(Math.max(1, Math.round(tc.seconds / 60)));
  };
  edition.addEventListener("change", setDefaults);
  setDefaults();

  const invites = h("section", { class: "invites", id: "invites", hidden: true,
    "aria-live": "polite" });
  const form = h("form", { class: "new-game", id: "new-game", onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = "";
    const seats = distinct([...seatList.children].map((row) => {
      const kind = row.querySelector(".seat-kind").value;
      const who = row.querySelector(".seat-name").value;
      return kind ? { name: who, ai: kind } : { name: who };
    }));
    const chosen = form.querySelector("input[name=clock]:checked").value;
    const clockText = chosen === "game" ? `${Number(gameMinutes.value) || 25}m`
      : chosen === "move" ? `move:${Number(moveMinutes.value) || 3}m` : "none";
    try {
      const result = await createGame({ edition: edition.value, lexicon: lexicon.value || null,
        seats, rules: changedRules(), clock: clockText });
      remember({ ...result, edition: edition.value });
      showInvites(invites, result);
      renderMine(mineList);
    } catch (err) {
      show(err);
    }
  } },
  h("h2", {}, t("web.lobby.new_game")),
  h("label", { for: "edition" }, t("web.lobby.edition")), edition,
  h("label", { for: "lexicon" }, t("web.lobby.lexicon")), lexicon,
  h("fieldset", { class: "seats-box" }, h("legend", {}, t("web.lobby.seats")), seatList, addSeat),
  h("fieldset", { class: "rules", id: "rules" }, h("legend", {}, t("web.lobby.rules.title")),
    ruleRows),
  clock,
  h("button", { type: "submit", class: "primary", id: "create" }, t("web.lobby.create")));

  const mineList = h("section", { class: "my-games", id: "my-games" });
  renderMine(mineList);
  clear(main, h("div", { class: "lobby" },
    h("section", { class: "quick" },
      h("h1", {}, t("web.title")),
      h("p", { class: "tagline" }, t("web.lobby.tagline")),
      h("label", { for: "player-name" }, t("web.lobby.your_name")), name, quick, error),
    form, invites, mineList));
}

function linkRow(label, url) {
  const full = absolute(url);
  const field = h("input", { readonly: true, value: full, "aria-label": label,
    onfocus: (e) => e.target.select() });
  return h("li", {}, h("span", { class: "who" }, label), field,
    h("button", { type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(full); } catch { field.select(); }
    } }, t("web.copy")),
    h("a", { href: url }, t("web.open")));
}

function showInvites(el, result) {
  el.hidden = false;
  clear(el, h("h2", {}, t("web.invites.title")),
    h("p", {}, t("web.invites.help")),
    h("ul", { class: "links" },
      result.seats.filter((s) => s.token).map((s) =>
        linkRow(t("web.invites.seat", { name: s.name }), s.url)),
      linkRow(t("web.invites.spectate"), result.spectate)));
}

function renderMine(el) {
  const games = myGames();
  clear(el, h("h2", {}, t("web.mine.title")),
    games.length ? h("ul", { class: "links" }, games.map((g) => {
      const url = g.token ? `/g/${g.id}?token=${encodeURIComponent(g.token)}` : `/g/${g.id}`;
      const names = (g.names || []).join(" × ");
      const as = g.seat === null || g.seat === undefined ? t("web.mine.spectator")
        : t("web.mine.as", { name: (g.names || [])[g.seat] || g.name || "" });
      return h("li", {},
        h("a", { href: url }, names || g.id), h("span", { class: "as" }, ` ${as}`),
        h("button", { type: "button", class: "forget",
          onclick: () => { forgetGame(g.id, g.seat); renderMine(el); } }, t("web.mine.forget")));
    })) : h("p", {}, t("web.mine.none")));
}
