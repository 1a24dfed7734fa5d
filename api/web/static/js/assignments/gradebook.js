// An assignment's gradebook: learners x problems (best score after late penalties, what lateness
// cost, accepted, attempts, first accepted, late, a link to the submission: the first accepted,
// else the latest; a score set by hand is tagged), each learner's own due time when they have an extension, a total per learner
// out of the most it can be,
// sortable by each column (buttons in the headers, aria-sort on the sorted one), and the CSV
// export. The table scrolls sideways in its own box.
import { api, ApiError, getToken } from "../core/api.js";
import { byHandLine, penaltyWords, releaseControl } from "./page.js";
import { assignmentHref, insightHref } from "../courses/list.js";
import { el, link, notice, setTitle, show, submissionHref, timeText } from "../core/dom.js";
import { sortRows } from "./gradebook-order.js";
import { ltiGradesPanel } from "../lti/grades-panel.js";

const score = (value) => (typeof value === "number" ? value.toFixed(2) : "–");

// learner: the row's user name, for the link's accessible name.
function cellView(cell, learner) {
  if (!cell.attempts) return el("td", { class: "grade none" }, el("span", { class: "muted" }, "not tried"));
  return el("td", { class: "grade" },
    el("div", { class: "grade-line" }, el("span", { class: "number" }, score(cell.best_score)),
      cell.accepted ? el("span", { class: "badge verdict-accepted" }, "accepted") : el("span", { class: "muted" }, "not accepted"),
      cell.late ? el("span", { class: "tag late" }, "late") : null,
      cell.score_set_by_hand ? el("span", { class: "tag by-hand", title: "An instructor set a score of this cell by hand" }, "set by hand") : null,
      cell.open_regrade_requests ? el("span", { class: "tag regrade-open" }, "regrade asked") : null),
    cell.penalty ? el("div", { class: "muted" }, `${score(cell.score_before_penalty)} less ${score(cell.penalty)} for lateness`) : null,
    byHandLine(cell),
    el("div", { class: "muted" }, `${cell.attempts} attempt${cell.attempts === 1 ? "" : "s"}`),
    cell.first_accepted_at ? el("div", { class: "muted" }, `first accepted ${timeText(cell.first_accepted_at)}`) : null,
    cell.submission ? el("div", {}, link(submissionHref(cell.submission), cell.accepted ? "Accepted submission" : "Latest submission",
      { "aria-label": `${cell.accepted ? "Accepted" : "Latest"} submission of ${learner} for ${cell.problem}` })) : null);
}

function filenameOf(response, fallback) {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get("Content-Disposition") || "");
  return match ? match[1] : fallback;
}

// A plain link carries the session cookie; with a token only, the file is fetched with the
// token and handed to the browser as a blob: URL. form: "long" (every detail) or "wide" (an LMS's).
function csvLink(id, say, form, words) {
  const path = `/api/v1/assignments/${id}/gradebook.csv${form === "wide" ? "?form=wide" : ""}`;
  return link(path, words, {
    download: `gradebook-${id}${form === "wide" ? "-wide" : ""}.csv`,
    onclick: async (event) => {
      const token = getToken();
      if (!token) return;
      event.preventDefault();
      say("Preparing the CSV…");
      try {
        const response = await fetch(path, {
          headers: { Authorization: `Bearer ${token}`, Accept: "text/csv" }, cache: "no-store", credentials: "omit",
        });
        if (!response.ok) {
          const data = await response.json().catch(() => null);
          throw new ApiError(response.status, "http", (data && data.error && data.error.message) || `HTTP ${response.status}`);
        }
        const url = URL.createObjectURL(await response.blob());
        const save = el("a", { href: url, download: filenameOf(response, `gradebook-${id}${form === "wide" ? "-wide" : ""}.csv`), hidden: true });
        document.body.append(save);
        save.click();
        save.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
        say("The CSV was downloaded.");
      } catch (error) {
        say(`No CSV: ${error.message || error}`);
      }
    },
  });
}

export async function gradebookPage(id, signal) {
  const book = await api(`/assignments/${id}/gradebook`, { signal });
  const assignment = book.assignment;
  setTitle(`Gradebook · ${assignment.title}`);
  const state = el("p", { class: "muted", role: "status" });
  const say = (text) => { state.textContent = text; };
  let order = { column: "learner", direction: "ascending" };
  const columns = [
    { key: "learner", text: "Learner", first: "ascending" },
    ...book.problems.map((slug, index) => ({ key: index, text: slug, first: "descending" })),
    { key: "total", text: `Total (of ${score(book.max_total)})`, first: "descending" },
  ];
  const body = el("tbody");
  const headers = columns.map((column) => {
    const th = el("th", { scope: "col", class: column.key === "total" ? "number" : null });
    const button = el("button", {
      type: "button", class: "sort",
      onclick: () => {
        const again = order.column === column.key;
        order = { column: column.key, direction: again ? (order.direction === "ascending" ? "descending" : "ascending") : column.first };
        draw();
        say(`Sorted by ${column.text}, ${order.direction}.`);
      },
    }, column.text, el("span", { class: "sort-mark", "aria-hidden": "true" }));
    th.append(button);
    return { column, th, mark: button.lastChild };
  });
  const draw = () => {
    for (const { column, th, mark } of headers) {
      const sorted = order.column === column.key;
      if (sorted) th.setAttribute("aria-sort", order.direction);
      else th.removeAttribute("aria-sort");
      mark.textContent = sorted ? (order.direction === "ascending" ? " ▲" : " ▼") : "";
    }
    body.replaceChildren(...sortRows(book.rows, order.column, order.direction).map((row) => el("tr", {},
      el("th", { scope: "row" }, row.user,
        row.extension ? el("div", { class: "muted extension-note" }, `extension: due ${timeText(row.due_at)} (${row.extension})`) : null),
      row.cells.map((cell) => cellView(cell, row.user)),
      el("td", { class: "number total" }, `${score(row.total_score)} / ${score(book.max_total)}`))));
  };
  draw();
  const scroller = el("div", { class: "table-scroll gradebook-scroll", tabindex: "0", role: "region", "aria-labelledby": "gradebook-caption" },
    el("table", { class: "list gradebook" },
      el("caption", { id: "gradebook-caption", class: "sr-only" },
        `Gradebook of ${assignment.title}: one row per learner, one column per problem`),
      el("thead", {}, el("tr", {}, headers.map((h) => h.th))),
      body));
  const cue = el("p", { class: "muted scroll-cue" }, "Scroll the table sideways for every problem: the learner and total columns stay in view.");
  show(
    el("p", { class: "course-crumbs" }, link("/courses", "Courses"), " › ",
      link(assignmentHref(assignment.id), assignment.title)),
    el("h1", {}, `Gradebook: ${assignment.title}`),
    el("p", { class: "muted" }, `Due ${timeText(assignment.due_at)} · late work `,
      assignment.late_policy === "accept" ? "accepted and marked late" : "refused",
      assignment.late_policy === "accept" && assignment.late_until ? ` until ${timeText(assignment.late_until)}` : "",
      penaltyWords(assignment) ? ` ·${penaltyWords(assignment)}` : "",
      ` · ${book.rows.length} learner${book.rows.length === 1 ? "" : "s"}`),
    // Whoever reads a gradebook manages the assignment: the course's instructors, or an admin.
    releaseControl({ ...assignment, role: "instructor" }, signal),
    el("p", { class: "actions" }, csvLink(assignment.id, say, "long", "Download CSV"), " ",
      csvLink(assignment.id, say, "wide", "CSV for an LMS"),
      el("span", { class: "muted" }, " (one row per learner: each problem's score and the total)")),
    el("p", {}, link(`${assignmentHref(assignment.id)}/similarity`, "Similar solutions across this assignment")),
    el("p", { class: "insight-links" }, "Insight over this course: ", book.problems.map((slug, i) => [i ? " · " : "",
      link(insightHref(slug, assignment.course_id), slug, { "aria-label": `Insight into ${slug} over this course` })])),
    state,
    book.rows.length ? [cue, scroller] : notice("No learner has joined this course yet."),
    ltiGradesPanel(assignment.id, signal));
  // Said only while the problems do not all fit: the learner and total columns stay in view.
  const fits = () => { cue.hidden = scroller.scrollWidth <= scroller.clientWidth + 1; };
  fits();
  window.addEventListener("resize", fits, { signal });
}
