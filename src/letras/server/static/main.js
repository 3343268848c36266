// The page: language first, then the lobby (/) or a game room (/g/{id}?token=...).
import { h } from "./dom.js";
import { LANGUAGES, language, loadMessages, pickLanguage, t } from "./i18n.js";
import { openLobby } from "./lobby.js";
import { openRoom } from "./room.js";

async function main() {
  await loadMessages(pickLanguage());
  const header = document.getElementById("top");
  const choose = h("select", { id: "language", "aria-label": t("web.language_label"),
    onchange: () => {
      const url = new URL(location.href);
      url.searchParams.set("lang", choose.value);
      location.assign(url.href);
    } }, LANGUAGES.map((l) => h("option", { value: l, selected: l === language },
    t(`web.languages.${l}`))));
  header.replaceChildren(
    h("a", { href: "/", class: "home" }, t("web.title")),
    h("span", { class: "spacer" }), choose);
  const app = document.getElementById("app");
  const announcer = document.getElementById("announcer");
  const room = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
  if (room) {
    document.title = t("web.room.title");
    const token = new URLSearchParams(location.search).get("token");
    openRoom(app, decodeURIComponent(room[1]), token, announcer);
  } else {
    document.title = t("web.title");
    await openLobby(app);
  }
  document.body.dataset.ready = "true";
}

main().catch((e) => {
  document.getElementById("app").textContent = String(e);
});
