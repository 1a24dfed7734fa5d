// The learner's submissions (kept current while any is pending) and one submission's page.
import { currentUser, hasRole } from "./account.js";
import { api } from "./api.js";
import { replaceDraft } from "./drafts.js";
import { badge, el, link, notice, problemHref, scrollBox, setTitle, show, submissionHref, timeText } from "./dom.js";
import { refreshWhilePending } from "./pending.js";
import { feedbackView } from "./feedback.js";
import { followInto } from "./results.js";

const PAGE_SIZE = 20;

export const verdictCell = (s) => (s.status === "done" ? badge(s.verdict, "verdict") : badge(s.status, "pending"));

function submissionTable(items) {
  const users = new Set(items.map((s) => s.user));
  const headings = ["#", "Problem", "Mode", "Verdict", "Score", "Submitted"];
  if (users.size > 1) headings.splice(2, 0, "User");
  const rows = items.map((s) => el("tr", {},
    el("td", {}, link(submissionHref(s.id), `#${s.id}`)),
    el("td", {}, link(problemHref(s.problem), s.problem)),
    users.size > 1 ? el("td", {}, s.user) : null,
    el("td", {}, s.mode),
    el("td", {}, verdictCell(s), s.new_comments ? [" ", el("span", { class: "badge comment-new" },
      `${s.new_comments} new comment${s.new_comments === 1 ? "" : "s"}`)] : null),
    el("td", { class: "number" }, typeof s.score === "number" ? s.score.toFixed(2) : ""),
    el("td", {}, timeText(s.created_at))));
  return scrollBox(el("table", { class: "list" },
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows)));
}

export async function submissionListPage(signal) {
  setTitle("My submissions");
  const query = new URLSearchParams(location.search);
  const offset = Math.max(0, Number.parseInt(query.get("offset") || "0", 10) || 0);
  const problem = query.get("problem");
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  if (problem) params.set("problem", problem);
  const pageHref = (newOffset) => {
    const next = new URLSearchParams({ offset: String(newOffset) });
    if (problem) next.set("problem", problem);
    return `/submissions?${next}`;
  };
  const load = async () => {
    const result = await api(`/submissions?${params}`, { signal });
    const last = Math.min(result.offset + result.items.length, result.total);
    show(
      el("h1", {}, "My submissions"),
      problem ? el("p", {}, "Only ", el("code", {}, problem), " · ",
        link(`${problemHref(problem)}/history`, "history and diffs"), " · ", link("/submissions", "show all")) : null,
      result.items.length
        ? submissionTable(result.items)
        : notice(offset ? "No more submissions." : "No submissions yet: open a problem and press Run or Submit."),
      el("p", { class: "pager" },
        offset > 0 ? link(pageHref(Math.max(0, offset - PAGE_SIZE)), "← newer") : null,
        el("span", { class: "muted" }, result.total ? `${result.offset + 1}–${last} of ${result.total}` : ""),
        last < result.total ? link(pageHref(offset + PAGE_SIZE), "older →") : null));
    return result.items;
  };
  await refreshWhilePending(await load(), load, signal);
}

// The assignment a submission was handed in for, as the viewer sees it (null for anything else,
// or one the viewer may not read): its role says whether the viewer teaches the course.
async function handedInFor(submission, signal) {
  if (!submission.assignment || submission.mode !== "submit") return null;
  return api(`/assignments/${submission.assignment}`, { signal }).catch((error) => {
    if (error.name === "AbortError") throw error;
    return null;
  });
}

// For the instructors of the course a late submission was handed in for: Excuse (it keeps its
// whole score and is not counted late) or take the excuse back. Nothing for anyone else.
function excuseControl(submission, assignment, signal) {
  if (!(submission.late || submission.excused)) return null;
  const state = el("span", { class: "muted", role: "status" });
  const button = el("button", { type: "button" });
  const draw = () => {
    button.textContent = submission.excused ? "Count it late again" : "Excuse the lateness";
    state.textContent = submission.excused ? " Excused: it keeps its whole score."
      : submission.penalty ? ` Late: it loses ${submission.penalty}% of its score.` : " Late.";
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const changed = await api(`/submissions/${submission.id}/excuse`, { method: "PUT", json: { excused: !submission.excused }, signal });
      Object.assign(submission, { excused: changed.excused, late: changed.late, penalty: changed.penalty });
      draw();
    } catch (error) {
      if (error.name !== "AbortError") state.textContent = ` Not changed: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });
  draw();
  return el("p", { class: "excuse actions" }, `For ${assignment.title}: `, button, state);
}

export async function submissionPage(id, signal) {
  setTitle(`Submission #${id}`);
  const submission = await api(`/submissions/${id}`, { signal });
  // Parameter names and types make the arguments readable; a problem we may not read is fine.
  const problem = await api(`/problems/${encodeURIComponent(submission.problem)}`, { signal }).catch((error) => {
    if (error.name === "AbortError") throw error;
    return null;
  });
  const parameters = problem ? problem.parameters : [];
  const panel = el("div", { class: "result-panel" });
  const status = el("p", { class: "verdict-status", role: "status" });
  const reopen = el("button", {
    type: "button",
    onclick: () => {
      if (replaceDraft(submission.problem, submission.code, `the code of submission #${submission.id}`)) {
        location.href = problemHref(submission.problem);
      }
    },
  }, "Open this code in the editor");
  const assignment = await handedInFor(submission, signal);
  const instructor = Boolean(assignment) && (assignment.role === "instructor" || hasRole("admin"));
  const excuse = instructor ? excuseControl(submission, assignment, signal) : null;
  // Handed in for an assignment: the code with its comments, and the feedback under the result.
  const feedback = assignment
    ? await feedbackView(submission, { instructor, own: currentUser()?.name === submission.user }, signal) : null;
  show(
    el("h1", {}, `Submission #${submission.id}`),
    el("p", { class: "meta" },
      link(problemHref(submission.problem), problem ? problem.title : submission.problem),
      el("span", { class: "muted" }, ` · ${submission.user} · ${timeText(submission.created_at)} · version `),
      el("code", {}, submission.problem_version),
      " · ", link(`${problemHref(submission.problem)}/history`, "history and diffs")),
    excuse,
    status,
    panel,
    feedback ? feedback.section : null,
    el("h2", {}, "Code"),
    feedback ? feedback.code : el("pre", { class: "code" }, submission.code),
    el("div", { class: "actions" }, reopen));
  await followInto(panel, status, submission, parameters, signal);
}
