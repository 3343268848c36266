// What this browser remembers: its games (id, seat, token, names) and each rack's order.
const GAMES = "letras.games";

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* full or private */ }
}

export function myGames() {
  const games = read(GAMES, []);
  return Array.isArray(games) ? games : [];
}

// Remember a seat (or a spectated game, seat null); the newest first, one entry a seat.
export function rememberGame(entry) {
  const games = myGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  const old = myGames().find((g) => g.id === entry.id && g.seat === entry.seat) || {};
  games.unshift({ ...old, ...entry, at: entry.at || old.at || Date.now() });
  write(GAMES, games.slice(0, 50));
}

export function forgetGame(id, seat) {
  write(GAMES, myGames().filter((g) => !(g.id === id && g.seat === seat)));
}

export function rackOrder(game, seat) {
  const order = read(`letras.rack.${game}.${seat}`, []);
  return Array.isArray(order) ? order : [];
}

export function saveRackOrder(game, seat, labels) {
  write(`letras.rack.${game}.${seat}`, labels);
}
