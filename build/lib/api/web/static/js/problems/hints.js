// Hints and the editorial of a problem. "Show a hint" reveals the next hint (the judge records
// which ones each learner saw); when a public test fails that a hint not shown yet is about, the
// section offers that hint first ("Show the hint about ..."); "Read the editorial" appears once the learner may read it, and
// until then the page says why it is not there. Hint and editorial HTML is the server's own
// rendering of the problem's Markdown (raw HTML escaped), inserted by core/dom.js serverHtml.
import { api } from "../core/api.js";
import { el, serverHtml } from "../core/dom.js";

const path = (slug, what) => `/problems/${encodeURIComponent(slug)}/${what}`;

function hintList(revealed) {
  return el("ol", { class: "hints" }, revealed.map((hint) => el("li", { class: "hint-item" },
    el("h3", {}, `Hint ${hint.index}`),
    hint.tests && hint.tests.length ? el("p", { class: "muted" }, `About the test${hint.tests.length === 1 ? "" : "s"} ${hint.tests.join(", ")}.`) : null,
    serverHtml(hint.html, "rendered"))));
}

function hintsSection(problem, signal) {
  const total = problem.hints_total;
  const about = problem.hint_tests || [];
  const list = el("div");
  const status = el("p", { class: "muted", "aria-live": "polite" });
  const button = el("button", { type: "button" }, "Show a hint");
  const offer = el("div", { class: "hint-offer" });
  let shownIndexes = new Set();
  const draw = (data) => {
    const revealed = data.revealed || [];
    shownIndexes = new Set(revealed.map((h) => h.index));
    list.replaceChildren(revealed.length ? hintList(revealed) : "");
    const left = data.total - revealed.length;
    status.textContent = left > 0
      ? `${revealed.length} of ${data.total} hints shown. Each hint gives away a little more.`
      : `All ${data.total} hints shown.`;
    button.hidden = left <= 0;
  };
  const reveal = async (trigger, index) => {
    trigger.disabled = true;
    try {
      const data = await api(path(problem.slug, "hints") + (index ? `?hint=${index}` : ""), { method: "POST", signal });
      draw(data);
      if (index) offer.replaceChildren();
      const items = list.querySelectorAll("li");
      if (items.length) items[items.length - 1].scrollIntoView({ block: "nearest", behavior: "smooth" });
    } catch (error) {
      if (error.name === "AbortError") return;
      if (error.code === "no_more_hints") button.hidden = true;
      status.textContent = error.message;
    } finally {
      trigger.disabled = false;
    }
  };
  button.addEventListener("click", () => reveal(button));
  draw({ total, revealed: [] });
  if (problem.hints_revealed) {
    api(path(problem.slug, "hints"), { signal }).then(draw).catch((error) => {
      if (error.name !== "AbortError") status.textContent = `The hints you saw could not be loaded: ${error.message}`;
    });
  }
  const section = el("section", { class: "hints-section", "aria-labelledby": "hints-heading" },
    el("h2", { id: "hints-heading" }, "Hints"), list, status, offer, button);
  // failing: the names of the public tests that failed in the latest result.
  section.offerFor = (failing) => {
    const index = about.findIndex((tests, i) => !shownIndexes.has(i + 1) && tests.some((t) => failing.includes(t)));
    if (index < 0) return offer.replaceChildren();
    const test = about[index].find((t) => failing.includes(t));
    const take = el("button", { type: "button", class: "primary" }, `Show the hint about “${test}”`);
    take.addEventListener("click", () => reveal(take, index + 1));
    return offer.replaceChildren(el("p", {}, `Test “${test}” failed, and hint ${index + 1} is about it.`), take);
  };
  return section;
}

function editorialSection(problem, signal) {
  const body = el("div");
  if (!problem.editorial_available) {
    return el("section", { class: "editorial-section" }, el("h2", {}, "Editorial"),
      el("p", { class: "muted" }, "The editorial explains the idea and the pitfalls the hidden tests probe. ",
        "It opens once you have solved the problem: solve it first (an accepted submission)."));
  }
  const button = el("button", {
    type: "button",
    onclick: async () => {
      button.disabled = true;
      try {
        const editorial = await api(path(problem.slug, "editorial"), { signal });
        body.replaceChildren(serverHtml(editorial.html, "rendered editorial"));
        button.hidden = true;
      } catch (error) {
        if (error.name !== "AbortError") body.replaceChildren(el("p", { class: "bad" }, error.message));
        button.disabled = false;
      }
    },
  }, "Read the editorial");
  return el("section", { class: "editorial-section" }, el("h2", {}, "Editorial"), button, body);
}

// Both sections for a problem, or nothing where the judge tells of neither (an older judge).
export function hintsAndEditorial(problem, signal) {
  let hints = null;
  if (problem.hints_total > 0) hints = hintsSection(problem, signal);
  else if (problem.hints_total === 0) hints = el("p", { class: "muted" }, "This problem has no hints.");
  const hasEditorial = problem.has_editorial ?? problem.editorial_available;
  const editorial = hasEditorial ? editorialSection(problem, signal) : null;
  const help = el("div", { class: "help" }, hints, editorial);
  help.offerFor = (failing) => hints?.offerFor?.(failing);
  return help;
}
