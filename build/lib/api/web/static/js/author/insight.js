// /author/{slug}/insight: acceptance with its Wilson interval in words, the server's two SVG charts
// (scores, failing tests), each with the same numbers as a table, the most common verdicts and
// failure categories, and the pairs of learners whose accepted solutions look alike, each opening
// a side-by-side view.
//
// The charts need the API's authorization, and an <img src> request carries no Bearer token; so
// each is read with fetch (author/http.js) and shown from an object URL (blob:, which the pages'
// img-src allows; an image cannot run script). An image is one opaque picture to a screen reader,
// so the numbers it draws are also given as a table, the chart's alt text pointing to it.
import { ApiError, api } from "../core/api.js";
import { acceptanceWords } from "./format.js";
import { readBlob } from "./http.js";
import { authorHref, dataTable, problemApi } from "./parts.js";
import { courseHref } from "../courses/list.js";
import { el, label, link, notice, percent, problemHref, setTitle, show, timeText } from "../core/dom.js";
import { openPair } from "./side-by-side.js";

// "?course=ID" when the page studies one course's learners (from a course, an assignment or a
// gradebook), else "": every route of the page is asked with the same scope.
const courseScope = () => {
  const course = new URLSearchParams(location.search).get("course");
  return course ? `?${new URLSearchParams({ course })}` : "";
};

function chart(slug, file, alt, signal) {
  const image = el("img", { class: "chart", alt, width: "640", height: "320" });
  const box = el("div", { class: "chart-box" }, image);
  readBlob(`${problemApi(slug)}/insight/${file}${courseScope()}`, signal).then((blob) => {
    const url = URL.createObjectURL(blob);
    image.addEventListener("load", () => URL.revokeObjectURL(url), { once: true });
    image.src = url;
  }).catch((error) => {
    if (error.name !== "AbortError") box.replaceChildren(notice(`The chart could not be drawn: ${error.message}`, "error"));
  });
  return box;
}

// A chart's numbers, folded under it: the picture for the eye, the table for a screen reader.
const numbers = (summary, table) => el("details", { class: "chart-numbers" }, el("summary", {}, summary), table);

const failingName = (t) => (t.name === null ? "every hidden test together" : t.name);

function chartsSection(slug, insight, signal) {
  const scores = insight.scores;
  return el("section", { class: "author-box", "aria-labelledby": "charts-heading" },
    el("h2", { id: "charts-heading" }, "Scores and failing tests"),
    el("div", { class: "charts" },
      el("figure", {},
        chart(slug, "scores.svg", "Bar chart of the scores of judged submissions; its numbers are in the table below it.", signal),
        el("figcaption", {}, "Scores of judged submissions, in ranges of 10%"),
        numbers("The scores as a table", dataTable("Scores", ["Score range", "Submissions"],
          scores.bins.map(([low, high], i) => [`${percent(low)} to ${percent(high)}`, { number: scores.counts[i] }]), "compact"))),
      el("figure", {},
        chart(slug, "failing.svg", "Bar chart of the tests that fail most often; every failing test is in the table below it.", signal),
        el("figcaption", {}, "Tests that fail most often", insight.hidden_tests_by_name ? " (hidden ones included)" : ""),
        insight.failing_tests.length
          ? numbers(`Every failing test as a table (${insight.failing_tests.length})`, dataTable("Failing tests", ["Test", "Visibility", "Failures"],
            insight.failing_tests.map((t) => [el("code", {}, failingName(t)), t.visibility, { number: t.failures }]), "compact"))
          : el("p", { class: "muted" }, "No test has failed."))));
}

function countsSection(insight) {
  return el("section", { class: "author-box", "aria-labelledby": "counts-heading" },
    el("h2", { id: "counts-heading" }, "Verdicts and explanation categories"),
    el("div", { class: "count-tables" },
      insight.verdicts.length
        ? dataTable("Most common verdicts", ["Verdict", "Submissions"], insight.verdicts.map((v) => [label(v.verdict), { number: v.count }]), "compact")
        : el("p", { class: "muted" }, "No verdicts yet."),
      insight.categories.length
        ? dataTable("Most common explanation categories", ["Category", "Failed tests"], insight.categories.map((c) => [label(c.category), { number: c.count }]), "compact")
        : el("p", { class: "muted" }, "No failing tests, so no categories.")));
}

// Who needed which hint: how many learners revealed each one, and the reveals newest first.
// Only the problem's owner and admins may read them (a course instructor is told so).
async function hintsSection(slug, signal) {
  const section = el("section", { class: "author-box", "aria-labelledby": "hints-heading" },
    el("h2", { id: "hints-heading" }, "Hints revealed"));
  let reveals;
  try {
    reveals = await api(`${problemApi(slug)}/hint-reveals`, { signal });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    section.append(el("p", { class: "muted" }, "Only the problem's owner and administrators see who revealed hints."));
    return section;
  }
  if (!reveals.length) {
    section.append(el("p", { class: "muted" }, "No learner has revealed a hint yet."));
    return section;
  }
  const learners = new Map();
  for (const reveal of reveals) learners.set(reveal.index, (learners.get(reveal.index) || 0) + 1);
  const newest = [...reveals].sort((a, b) => String(b.revealed_at).localeCompare(String(a.revealed_at)));
  section.append(
    dataTable("Learners who revealed each hint", ["Hint", "Learners"],
      [...learners.entries()].sort((a, b) => a[0] - b[0]).map(([index, count]) => [`Hint ${index}`, { number: count }]), "compact"),
    dataTable("Reveals, newest first", ["Learner", "Hint", "When"],
      newest.slice(0, 100).map((r) => [r.user, `Hint ${r.index}`, timeText(r.revealed_at)]), "compact"));
  return section;
}

function similaritySection(slug, signal) {
  const results = el("div");
  const viewer = el("div", { class: "sbs-holder" });
  const threshold = el("input", { id: "similarity-threshold", type: "number", min: "0", max: "100", step: "5", value: "50" });
  const state = el("p", { class: "form-state", role: "status" });
  const form = el("form", { class: "add-file" },
    el("label", { for: "similarity-threshold" }, "Least similarity (%)"), threshold,
    el("button", { type: "submit" }, "Show pairs"));

  const open = (pair) => openPair(pair, viewer, state, signal);

  async function load(value) {
    const query = new URLSearchParams(courseScope());
    if (value !== undefined) query.set("threshold", String(value));
    const report = await api(`${problemApi(slug)}/similarity${query.size ? `?${query}` : ""}`, { signal });
    threshold.value = String(Math.round(report.threshold * 100));
    viewer.replaceChildren();
    const summary = el("p", {}, `${report.compared} accepted solutions compared (the latest of each learner)` +
      `${report.total !== report.compared ? ` of ${report.total}` : ""}; ${report.pairs.length} pair${report.pairs.length === 1 ? "" : "s"} ` +
      `at least ${percent(report.threshold)} alike.`);
    results.replaceChildren(...[summary, report.message ? notice(report.message) : null,
      report.pairs.length
        ? dataTable("Pairs of solutions that look alike, most alike first", ["Learner A", "Learner B", "Similarity", "Matching ranges", "Compare"],
          report.pairs.map((p) => [p.a.user, p.b.user, { number: percent(p.similarity) }, { number: p.matches.length },
            el("button", { type: "button", onclick: () => open(p) }, "Side by side",
              el("span", { class: "sr-only" }, `: ${p.a.user} and ${p.b.user}`))]), "pairs")
        : el("p", { class: "muted" }, "No pair is that alike.")].filter(Boolean));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = Number(threshold.value);
    if (!Number.isFinite(value) || value < 0 || value > 100) {
      state.textContent = "The least similarity is a percentage from 0 to 100.";
      return;
    }
    load(value / 100).catch((error) => {
      if (error.name !== "AbortError") state.textContent = `Not shown: ${error.message}`;
    });
  });

  const element = el("section", { class: "author-box", "aria-labelledby": "similarity-heading" },
    el("h2", { id: "similarity-heading" }, "Solutions that look alike"),
    el("p", { class: "muted" }, "Accepted solutions compared by their fingerprints (winnowing over Python tokens, names and literals ignored). ",
      "Alike is not copied: short problems have few ways to be solved."),
    form, state, results, viewer);
  return { element, load };
}

// Where the page was reached from, never a page the viewer would be refused: the owner's author
// page, or (for a course's instructor) the course, else the problem itself.
async function crumbs(slug, insight, signal) {
  if (insight.hidden_tests_by_name) { // the problem's owner (or an admin)
    return el("p", { class: "author-crumbs" }, link("/author", "My problems"), " · ", link(authorHref(slug), `Author ${slug}`));
  }
  const course = insight.course === null ? null
    : await api(`/courses/${insight.course}`, { signal }).catch((error) => {
      if (error.name === "AbortError") throw error;
      return null;
    });
  return el("p", { class: "course-crumbs" }, link("/courses", "Courses"),
    course ? [" › ", link(courseHref(course.id), course.title)] : null,
    " › ", link(problemHref(slug), `Problem ${slug}`));
}

export async function insightPage(slug, signal) {
  setTitle(`Insight ${slug}`);
  const me = await api("/me", { signal });
  if (me.role !== "instructor" && me.role !== "admin") { // asked before the API would refuse
    show(el("h1", {}, `Insight: ${slug}`), notice("Insight is for instructors and administrators.", "error"));
    return;
  }
  let insight;
  try {
    insight = await api(`${problemApi(slug)}/insight${courseScope()}`, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      show(el("h1", {}, `Insight: ${slug}`), notice(error.message, "error"));
      return;
    }
    throw error;
  }
  setTitle(`Insight: ${slug}`);
  const similar = similaritySection(slug, signal);
  show(
    el("div", { class: "problem-head" },
      await crumbs(slug, insight, signal),
      el("h1", {}, `Insight: ${slug}`),
      insight.course ? el("p", { class: "muted" }, "Over this course's learners only.") : null),
    el("section", { class: "author-box", "aria-labelledby": "acceptance-heading" },
      el("h2", { id: "acceptance-heading" }, "Acceptance"),
      el("p", { class: "acceptance" }, acceptanceWords(insight.acceptance)),
      insight.hidden_tests_by_name ? null : el("p", { class: "muted" }, "Hidden tests are counted together, unnamed.")),
    chartsSection(slug, insight, signal),
    countsSection(insight),
    similar.element);
  const hints = await hintsSection(slug, signal);
  similar.element.before(hints);
  await similar.load();
}
