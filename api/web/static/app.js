// The judge's web pages. Every page is the same static shell; this script reads the path, loads
// its data from the JSON API with the learner's token, and builds the DOM with createElement and
// textContent only. The one exception is HTML the server rendered from Markdown with raw HTML
// escaped (statements, hints, editorials), inserted by dom.js serverHtml alone.
import { loadUser, setUpTokenBox } from "./account.js";
import { getToken } from "./api.js";
import { el, notice, setTitle, show } from "./dom.js";
import { LEARNER_ROUTES } from "./routes.js";
import { COURSE_ROUTES } from "./routes-courses.js";

let page = new AbortController(); // aborted when the page is drawn again (e.g. a new token)

const ROUTES = [...LEARNER_ROUTES, ...COURSE_ROUTES];

async function render() {
  page.abort();
  page = new AbortController();
  const signal = page.signal;
  const route = ROUTES.find(([pattern]) => pattern.test(location.pathname));
  for (const item of document.querySelectorAll("[data-nav]")) {
    if (route && item.dataset.nav === route[2]) item.setAttribute("aria-current", "page");
    else item.removeAttribute("aria-current");
  }
  if (!route) {
    show(notice("There is no such page.", "error"));
    return;
  }
  if (!getToken()) {
    setTitle("");
    show(
      el("h1", {}, "Welcome"),
      el("p", { class: "notice" }, "Paste your API token in the box at the top of the page. An administrator ",
        "makes one with ", el("code", {}, "judge users create NAME"), "; ", el("code", {}, "judge serve"),
        " prints an admin token on its first start."));
    return;
  }
  show(el("p", { class: "muted" }, "Loading…"));
  try {
    await route[1](location.pathname.match(route[0]))(signal);
  } catch (error) {
    if (error.name === "AbortError") return;
    show(notice(error.message || String(error), "error"));
  }
}

setUpTokenBox(render);
loadUser().finally(render);
