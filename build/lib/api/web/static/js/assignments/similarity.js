// /assignments/{id}/similarity, for the course's instructors: the learners whose accepted
// solutions look alike over every problem of the assignment, most alike first (GET
// /assignments/{id}/similarity), each pair opened side by side below the table.
import { api } from "../core/api.js";
import { assignmentHref } from "../courses/list.js";
import { el, link, notice, percent, setTitle, show } from "../core/dom.js";
import { dataTable } from "../author/parts.js";
import { openPair } from "../author/side-by-side.js";

export async function assignmentSimilarityPage(id, signal) {
  const [assignment, report] = await Promise.all([
    api(`/assignments/${id}`, { signal }), api(`/assignments/${id}/similarity`, { signal })]);
  setTitle(`Similar solutions · ${assignment.title}`);
  const state = el("p", { class: "form-state", role: "status" });
  const viewer = el("div", { class: "sbs-holder" });
  const open = (pair) => openPair(pair, viewer, state, signal, ` on ${pair.problem}`);
  show(
    el("p", { class: "course-crumbs" }, link("/courses", "Courses"), " › ",
      link(assignmentHref(assignment.id), assignment.title), " › ", link(`${assignmentHref(assignment.id)}/gradebook`, "Gradebook")),
    el("h1", {}, `Similar solutions: ${assignment.title}`),
    el("p", { class: "muted" }, `Each learner's latest accepted solution of each problem, compared with the others' of the same problem; ` +
      `${report.compared} solutions compared, pairs at least ${percent(report.threshold)} alike.`),
    report.messages.map((message) => notice(message)),
    report.pairs.length
      ? dataTable("Pairs of solutions that look alike, over every problem, most alike first",
        ["Problem", "Learner A", "Learner B", "Similarity", "Compare"],
        report.pairs.map((pair) => [pair.problem, pair.a.user, pair.b.user, { number: percent(pair.similarity) },
          el("button", { type: "button", onclick: () => open(pair),
            "aria-label": `Side by side: ${pair.a.user} and ${pair.b.user} on ${pair.problem}` }, "Side by side")]))
      : notice("No two learners' accepted solutions look alike."),
    state,
    viewer);
}
