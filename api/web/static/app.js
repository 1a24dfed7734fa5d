// The judge's web pages. Every page is the same static shell; this script reads the path, loads
// its data from the JSON API (session cookie or kept token), and builds the DOM with createElement and
// textContent only. The one exception is HTML the server rendered from Markdown with raw HTML
// escaped (statements, hints, editorials), inserted by core/dom.js serverHtml alone.
// This is the entry point (the shell's one script). The modules it imports live in js/, a folder
// per area (account, problems, submissions, courses, assignments, author, lti; core for what all
// share), each area with its route table in routes.js, joined here.
import { drawHeader, loadUser, setUpHeader, signedIn } from "./js/account/user.js";
import { el, notice, show } from "./js/core/dom.js";
import { signInHref } from "./js/account/nextpath.js";
import { ACCOUNT_ROUTES } from "./js/account/routes.js";
import { AUTHOR_ROUTES } from "./js/author/routes.js";
import { LEARNER_ROUTES } from "./js/problems/routes.js";
import { COURSE_ROUTES } from "./js/courses/routes.js";
import { LTI_ROUTES } from "./js/lti/routes.js";

let page = new AbortController(); // aborted when the page is drawn again (e.g. a new token)

const ROUTES = [...LEARNER_ROUTES, ...COURSE_ROUTES, ...ACCOUNT_ROUTES, ...AUTHOR_ROUTES, ...LTI_ROUTES];

const findRoute = () => ROUTES.find(([pattern]) => pattern.test(location.pathname));

async function render() {
  page.abort();
  page = new AbortController();
  const signal = page.signal;
  let route = findRoute();
  // A page for signed-in people, asked for by a visitor: the sign-in page, which comes back here.
  if (route && !route[3]?.open && !signedIn()) {
    history.replaceState(null, "", signInHref(location.pathname + location.search + location.hash));
    route = findRoute();
  }
  drawHeader();
  for (const item of document.querySelectorAll("[data-nav]")) {
    if (route && item.dataset.nav === route[2]) item.setAttribute("aria-current", "page");
    else item.removeAttribute("aria-current");
  }
  if (!route) {
    show(notice("There is no such page.", "error"));
    return;
  }
  show(el("p", { class: "muted" }, "Loading…"));
  try {
    await route[1](location.pathname.match(route[0]))(signal);
  } catch (error) {
    if (error.name === "AbortError") return;
    if (error.status === 401 && error.code === "unauthorized" && !route[3]?.open) {
      // The session ended while the page was open (expired, signed out elsewhere): sign in again.
      await loadUser();
      if (!signedIn()) {
        render();
        return;
      }
    }
    show(notice(error.message || String(error), "error"));
  }
}

setUpHeader();
loadUser().finally(render);
