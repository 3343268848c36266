// The server's contract (docs/web-api.md): JSON over HTTP and one websocket a game.
import { language, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, error) {
    const fallback = { key: "web.error.http", message: `${t("web.error.http")} (${status})` };
    super((error && error.message) || fallback.message);
    this.status = status;
    this.error = error && error.message ? error : fallback;
  }
}

function withLang(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(language)}`;
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(withLang(path), {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, { key: "web.error.network", message: t("web.error.network") });
  }
  let data = null;
  try { data = await response.json(); } catch { /* empty or not JSON */ }
  if (!response.ok) throw new ApiError(response.status, data && data.error);
  return data;
}

export const editions = () => api("/api/editions");
export const createGame = (body) => api("/api/games", { method: "POST", body });
export const gameState = (id, token) => api(`/api/games/${id}`, { token });
export const postAction = (id, token, action) =>
  api(`/api/games/${id}/actions`, { method: "POST", body: action, token });
export const preview = (id, token, play) =>
  api(`/api/games/${id}/preview`, { method: "POST", body: { play }, token });

// A websocket that reconnects by itself with backoff (0.5 s doubling to 15 s) after a drop.
// onState(state, fresh): fresh is true for the first state after each (re)connection.
export class Live {
  constructor(id, token, { onState, onError, onStatus }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams({ lang: language });
    if (token) query.set("token", token);
    this.url = `${scheme}//${location.host}/ws/games/${id}?${query}`;
    this.handlers = { onState, onError, onStatus };
    this.delay = 500;
    this.socket = null;
    this.closed = false;
    this.fresh = true;
    this.timer = null;
    this.opened = 0; // connections made (a reconnection counts)
  }

  start() {
    this.closed = false;
    this.connect();
    return this;
  }

  connect() {
    clearTimeout(this.timer);
    this.handlers.onStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.fresh = true;
    socket.onopen = () => {
      this.delay = 500;
      this.opened += 1;
      this.handlers.onStatus("open");
    };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.type === "state") {
        const fresh = this.fresh;
        this.fresh = false;
        this.handlers.onState(data, fresh);
      } else if (data.type === "error") this.handlers.onError(data.error || {});
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code >= 4000 && event.code < 5000) { // refused (4000 + status): no retry
        this.closed = true;
        this.handlers.onStatus("failed");
        return;
      }
      this.handlers.onStatus("down");
      const wait = this.delay * (0.8 + Math.random() * 0.4);
      this.delay = Math.min(this.delay * 2, 15000);
      this.timer = setTimeout(() => this.connect(), wait);
    };
    socket.onerror = () => { /* onclose follows */ };
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  // Send an action; false when the socket is down (the caller then POSTs it).
  send(action) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify({ action }));
    return true;
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
  }
}
