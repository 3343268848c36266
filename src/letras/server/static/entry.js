// Placing tiles: a cursor, the tiles put on squares this turn, and the play's notation (GCG:
// row number first is across "8H CASA", column letter first is down "H8 CASA", "." a tile
// already on the board, a small letter a blank).
export const COLUMNS = "ABCDEFGHIJKLMNO";
export const SIZE = 15;
export const ACROSS = "across";
export const DOWN = "down";

export const key = (r, c) => `${r},${c}`;
export const squareName = (r, c) => `${COLUMNS[c]}${r + 1}`;
const onBoard = (r, c) => r >= 0 && c >= 0 && r < SIZE && c < SIZE;
const step = (dir) => (dir === ACROSS ? [0, 1] : [1, 0]);

// The label on a board square, or null: view.board is a string a row or a list of labels.
export function boardLabel(view, r, c) {
  const label = view.board[r][c];
  return label === "." ? null : label;
}

// "8H CASA" -> {row: 7, col: 7, dir: ACROSS, tiles: ["C", "A", "S", "A"]}, null for "." squares.
export function parsePlay(text) {
  const m = /^\s*(?:(\d{1,2})([A-Oa-o])|([A-Oa-o])(\d{1,2}))\s+(\S+)\s*$/.exec(text || "");
  if (!m) return null;
  const across = m[1] !== undefined;
  const row = Number(across ? m[1] : m[4]) - 1;
  const col = COLUMNS.indexOf((across ? m[2] : m[3]).toUpperCase());
  const tiles = [];
  const word = m[5];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === ".") tiles.push(null);
    else if (word[i] === "[") {
      const end = word.indexOf("]", i);
      tiles.push(word.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? word.length : end;
    } else tiles.push(word[i]);
  }
  return { row, col, dir: across ? ACROSS : DOWN, tiles };
}

// The squares a play put tiles on (not those it played through).
export function playSquares(text) {
  const play = parsePlay(text);
  if (!play) return [];
  const [dr, dc] = step(play.dir);
  return play.tiles.flatMap((label, i) =>
    label === null ? [] : [[play.row + dr * i, play.col + dc * i]]);
}

export class Entry {
  constructor() {
    this.placed = new Map(); // key -> {r, c, id, label, blank}
    this.order = []; // keys, the order tiles were placed (Backspace takes the last)
    this.cursor = null; // {r, c, dir}
    this.prefix = null; // a letter typed that only begins a tile on the rack (L of LL)
    this.blankNext = false; // "?" typed: the next letter is a blank standing for it
  }

  get size() { return this.placed.size; }
  usedIds() { return new Set([...this.placed.values()].map((p) => p.id)); }
  at(r, c) { return this.placed.get(key(r, c)) || null; }

  setCursor(r, c, dir) {
    this.prefix = null;
    this.blankNext = false;
    this.cursor = { r, c, dir: dir || (this.cursor ? this.cursor.dir : ACROSS) };
  }

  toggleDirection() {
    if (this.cursor) this.cursor.dir = this.cursor.dir === ACROSS ? DOWN : ACROSS;
  }

  moveCursor(dr, dc) {
    this.prefix = null;
    this.blankNext = false;
    if (!this.cursor) { this.setCursor(7, 7); return; }
    const r = Math.min(SIZE - 1, Math.max(0, this.cursor.r + dr));
    const c = Math.min(SIZE - 1, Math.max(0, this.cursor.c + dc));
    this.cursor = { r, c, dir: this.cursor.dir };
  }

  put(r, c, tile, letter) {
    const k = key(r, c);
    this.placed.set(k, { r, c, id: tile.id, label: tile.label === "?" ? letter : tile.label,
      blank: tile.label === "?" });
    this.order = this.order.filter((o) => o !== k).concat(k);
  }

  remove(r, c) {
    const k = key(r, c);
    const tile = this.placed.get(k) || null;
    this.placed.delete(k);
    this.order = this.order.filter((o) => o !== k);
    return tile;
  }

  recall() {
    this.prefix = null;
    this.blankNext = false;
    this.placed.clear();
    this.order = [];
  }

  // The first free square from the cursor along its direction (board tiles are skipped).
  freeSquare(view) {
    if (!this.cursor) return null;
    const [dr, dc] = step(this.cursor.dir);
    let { r, c } = this.cursor;
    while (onBoard(r, c) && (boardLabel(view, r, c) || this.at(r, c))) { r += dr; c += dc; }
    return onBoard(r, c) ? [r, c] : null;
  }

  // "?": the next letter typed is a blank standing for it, even when the rack holds that
  // letter (typed again, "?" changes its mind). Returns null, or "no-blank" when the rack has
  // no blank left.
  blank(rack) {
    const used = this.usedIds();
    if (!rack.some((t) => t.label === "?" && !used.has(t.id))) return "no-blank";
    this.prefix = null;
    this.blankNext = !this.blankNext;
    return null;
  }

  // Type a letter: the rack's tile of that label, else a blank standing for it (after "?", a
  // blank whatever the rack holds). Two letters typed in a row that make a tile on the rack
  // (Spanish L L with LL) become that tile, also when the first is not on the rack by itself.
  // Returns null when placed, else a reason: "no-cursor", "off-board", "not-on-rack",
  // "no-blank", or "prefix" (the first letter of such a tile).
  type(letter, rack, view) {
    if (!this.cursor) return "no-cursor";
    const used = this.usedIds();
    const free = (label) => rack.find((t) => t.label === label && !used.has(t.id));
    const prefix = this.prefix;
    this.prefix = null;
    if (this.blankNext) {
      this.blankNext = false;
      const blank = free("?");
      return blank ? this.putAtCursor(blank, view, letter) : "no-blank";
    }
    if (prefix && free(prefix + letter)) return this.putAtCursor(free(prefix + letter), view);
    const last = this.order.length ? this.placed.get(this.order[this.order.length - 1]) : null;
    if (last && !last.blank && this.justBefore(last) && free(last.label + letter)) {
      const tile = free(last.label + letter);
      this.remove(last.r, last.c);
      this.put(last.r, last.c, tile, tile.label);
      return null;
    }
    const tile = free(letter) || free("?");
    if (tile) return this.putAtCursor(tile, view, letter);
    if (rack.some((t) => t.label.length > 1 && t.label.startsWith(letter) && !used.has(t.id))) {
      this.prefix = letter;
      return "prefix";
    }
    return "not-on-rack";
  }

  // Put a tile on the first free square from the cursor and move the cursor past it.
  putAtCursor(tile, view, letter = tile.label) {
    const square = this.freeSquare(view);
    if (!square) return "off-board";
    const [r, c] = square;
    this.put(r, c, tile, letter);
    const { dir } = this.cursor;
    const [dr, dc] = step(dir);
    // At the board's edge the cursor stays on the last tile ("end"): nothing more fits.
    this.cursor = onBoard(r + dr, c + dc) ? { r: r + dr, c: c + dc, dir } : { r, c, dir, end: true };
    return null;
  }

  // Is the cursor just past this placed tile (nothing typed since)?
  justBefore(tile) {
    if (!this.cursor) return false;
    const [dr, dc] = step(this.cursor.dir);
    if (this.cursor.end) return this.cursor.r === tile.r && this.cursor.c === tile.c;
    return this.cursor.r === tile.r + dr && this.cursor.c === tile.c + dc;
  }

  // Backspace: take back the last tile placed (the cursor goes to its square).
  backspace() {
    this.prefix = null;
    if (this.blankNext) { this.blankNext = false; return null; } // "?" taken back

    if (!this.order.length) {
      if (this.cursor) {
        const [dr, dc] = step(this.cursor.dir);
        this.moveCursor(-dr, -dc);
      }
      return null;
    }
    const k = this.order[this.order.length - 1];
    const tile = this.placed.get(k);
    this.remove(tile.r, tile.c);
    this.cursor = { r: tile.r, c: tile.c, dir: this.cursor ? this.cursor.dir : ACROSS };
    return tile;
  }

  // Which way the placed tiles run: their line, or for one tile the way it touches a word.
  direction(view) {
    const tiles = [...this.placed.values()];
    if (tiles.length > 1) {
      if (tiles.every((t) => t.r === tiles[0].r)) return ACROSS;
      if (tiles.every((t) => t.c === tiles[0].c)) return DOWN;
      return null;
    }
    const [{ r, c }] = tiles;
    const has = (rr, cc) => onBoard(rr, cc) && boardLabel(view, rr, cc) !== null;
    const across = has(r, c - 1) || has(r, c + 1);
    const down = has(r - 1, c) || has(r + 1, c);
    const preferred = this.cursor ? this.cursor.dir : ACROSS;
    if (across && down) return preferred;
    if (across) return ACROSS;
    if (down) return DOWN;
    return preferred;
  }

  // {play: "8H CASA"} or {error: {key, square}} (a gap, not in one line), or null (no tiles).
  notation(view, multiLetter = []) {
    if (!this.placed.size) return null;
    const dir = this.direction(view);
    if (!dir) return { error: { key: "illegal.not-in-line" } };
    const tiles = [...this.placed.values()];
    const along = (t) => (dir === ACROSS ? t.c : t.r);
    const fixed = dir === ACROSS ? tiles[0].r : tiles[0].c;
    const rc = (i) => (dir === ACROSS ? [fixed, i] : [i, fixed]);
    let start = Math.min(...tiles.map(along));
    let end = Math.max(...tiles.map(along));
    while (start > 0 && boardLabel(view, ...rc(start - 1))) start--;
    while (end < SIZE - 1 && boardLabel(view, ...rc(end + 1))) end++;
    const parts = [];
    for (let i = start; i <= end; i++) {
      const [r, c] = rc(i);
      const mine = this.at(r, c);
      if (mine) parts.push(mine.blank ? mine.label.toLowerCase() : mine.label);
      else if (boardLabel(view, r, c)) parts.push(".");
      else return { error: { key: "illegal.gap", square: squareName(r, c) } };
    }
    const [r0, c0] = rc(start);
    const coordinate = dir === ACROSS ? `${r0 + 1}${COLUMNS[c0]}` : `${COLUMNS[c0]}${r0 + 1}`;
    return { play: `${coordinate} ${spell(parts, multiLetter)}`, dir };
  }
}

// Tiles as notation: multi-letter tiles bracketed ([CH]), and a single tile bracketed when it
// and the next would read as one (Spanish C then H is [C]H).
export function spell(parts, multiLetter = []) {
  const known = new Set(multiLetter.map((l) => l.toUpperCase()));
  const out = parts.map((p) => (p.length > 1 ? `[${p}]` : p));
  for (let i = 0; i + 1 < out.length; i++) {
    const pair = out[i] + out[i + 1];
    const sameCase = pair === pair.toUpperCase() || pair === pair.toLowerCase();
    if (pair.length === 2 && sameCase && known.has(pair.toUpperCase())) out[i] = `[${out[i]}]`;
  }
  return out.join("");
}

// A rack for an exchange: "?" a blank, multi-letter tiles bracketed.
export function rackNotation(labels) {
  return labels.map((l) => (l.length > 1 ? `[${l}]` : l)).join("");
}
