// The lobby: play the computer at once, or set up a game (edition, 2-4 seats, challenge rule,
// clock) and hand out its links; the games this browser remembers.
import { createGame, editions } from "./api.js";
import { clear, h } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { forgetGame, myGames, rememberGame } from "./store.js";

const CHALLENGE_RULES = ["void", "single", "double", "5pt", "10pt", "penalty10"];

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
  const rule = h("select", { id: "challenge", name: "challenge" },
    CHALLENGE_RULES.map((r) => h("option", { value: r }, t(`rule.${r}`))));
  const setDefaults = () => {
    const ed = data.editions.find((e) => e.name === edition.value);
    rule.value = (ed && ed.rules && ed.rules.challenge_rule) || "double";
  };
  edition.addEventListener("change", setDefaults);
  setDefaults();

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
      : chosen === "move" ? `move:${Number(moveMinutes.value) || 3}m` : null;
    try {
      const result = await createGame({ edition: edition.value, seats,
        rules: { challenge_rule: rule.value }, clock: clockText });
      remember({ ...result, edition: edition.value });
      showInvites(invites, result);
      renderMine(mineList);
    } catch (err) {
      show(err);
    }
  } },
  h("h2", {}, t("web.lobby.new_game")),
  h("label", { for: "edition" }, t("web.lobby.edition")), edition,
  h("fieldset", { class: "seats-box" }, h("legend", {}, t("web.lobby.seats")), seatList, addSeat),
  h("label", { for: "challenge" }, t("web.lobby.challenge")), rule,
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
