// The learner's submissions (kept current while any is pending) and one submission's page.
import { currentUser, hasRole } from "../account/user.js";
import { api } from "../core/api.js";
import { replaceDraft } from "../problems/drafts.js";
import { badge, el, label, link, notice, problemHref, scrollBox, setTitle, show, submissionHref, timeText } from "../core/dom.js";
import { field } from "../core/forms.js";
import { refreshWhilePending } from "./pending.js";
import { feedbackView } from "./feedback.js";
import { followInto, heldTag, tryOutcome } from "./results.js";
import { regradeSection } from "./regrades.js";

const PAGE_SIZE = 20;

export const verdictCell = (s) => {
  if (s.status !== "done") return badge(s.status, "pending");
  if (s.held) return heldTag();
  return s.mode === "try" ? tryOutcome(s) : badge(s.verdict, "verdict");
};

const VERDICTS = ["accepted", "wrong_answer", "runtime_error", "time_limit_exceeded", "memory_limit_exceeded",
  "output_limit_exceeded", "compile_error", "forbidden", "internal_error"];
// The filters the list takes from its address (?learner=ann&verdict=accepted...), as the API names them.
const FILTERS = ["problem", "learner", "assignment", "verdict", "late"];

// A learner's history of one problem: their own, or (for an instructor) the named learner's.
export const historyHref = (slug, learner) =>
  `${problemHref(slug)}/history${learner ? `?${new URLSearchParams({ learner })}` : ""}`;

// Submissions and runs in one table, tries (the learner's own arguments, never graded) in
// another after it.
function submissionTables(items, withLearner) {
  const graded = items.filter((s) => s.mode !== "try");
  const tries = items.filter((s) => s.mode === "try");
  return [
    graded.length ? submissionTable(graded, withLearner, "Submissions and runs") : null,
    tries.length ? [el("h2", { id: "tries-heading" }, "Tries"),
      el("p", { class: "muted" }, "Your own arguments run against the reference: never graded, never counted."),
      submissionTable(tries, withLearner, "Tries")] : null];
}

function submissionTable(items, withLearner, caption) {
  const headings = ["#", "Problem", "Mode", "Verdict", "Score", "Submitted"];
  if (withLearner) headings.splice(2, 0, "Learner");
  const rows = items.map((s) => el("tr", {},
    el("td", {}, link(submissionHref(s.id), `#${s.id}`)),
    el("td", {}, link(problemHref(s.problem), s.problem)),
    withLearner ? el("td", {}, link(`/submissions?${new URLSearchParams({ learner: s.user })}`, s.user,
      { "aria-label": `Only ${s.user}'s submissions` })) : null,
    el("td", {}, s.mode),
    el("td", {}, verdictCell(s), s.late && !s.excused ? [" ", el("span", { class: "tag late" }, "late")] : null,
      s.new_comments ? [" ", el("span", { class: "badge comment-new" },
        `${s.new_comments} new comment${s.new_comments === 1 ? "" : "s"}`)] : null),
    el("td", { class: "number" }, typeof s.score_override === "number"
      ? [s.score_override.toFixed(2), " ", el("span", { class: "tag by-hand" }, "set by hand")]
      : typeof s.score === "number" && s.mode !== "try" ? s.score.toFixed(2) : ""),
    el("td", {}, timeText(s.created_at))));
  return scrollBox(el("table", { class: "list" },
    el("caption", { class: "sr-only" }, caption),
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows)));
}

// For instructors: the filters as a form that reloads the list with them in its address.
function filterForm(chosen) {
  const input = (name, props) => {
    const node = el("input", { name, value: chosen[name] || "", autocomplete: "off", ...props });
    return node;
  };
  const choice = (name, options) => el("select", { name }, options.map(([value, text]) =>
    el("option", { value, selected: (chosen[name] || "") === value }, text)));
  const form = el("form", { class: "submission-filters", method: "get", action: "/submissions", role: "search",
    "aria-label": "Filter the submissions" },
  field("filter-learner", "Learner", input("learner", { type: "text", maxlength: "100" })),
  field("filter-problem", "Problem", input("problem", { type: "text", maxlength: "100" })),
  field("filter-assignment", "Assignment (id)", input("assignment", { type: "number", min: "1", step: "1" })),
  field("filter-verdict", "Verdict", choice("verdict", [["", "any"], ...VERDICTS.map((v) => [v, label(v)])])),
  field("filter-late", "Late", choice("late", [["", "any"], ["true", "late"], ["false", "on time or excused"]])),
  el("div", { class: "actions" }, el("button", { type: "submit" }, "Filter"),
    FILTERS.some((name) => chosen[name]) ? link("/submissions", "clear the filters") : null));
  form.addEventListener("submit", (event) => {
    // Empty fields stay out of the address, so it reads as what was asked.
    event.preventDefault();
    const kept = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (String(value).trim()) kept.set(name, String(value).trim());
    location.assign(`/submissions${kept.size ? `?${kept}` : ""}`);
  });
  return form;
}

export async function submissionListPage(signal) {
  const staff = hasRole("instructor");
  const heading = staff ? "Submissions" : "My submissions";
  setTitle(heading);
  const query = new URLSearchParams(location.search);
  const offset = Math.max(0, Number.parseInt(query.get("offset") || "0", 10) || 0);
  const chosen = Object.fromEntries(FILTERS.filter((name) => query.get(name)).map((name) => [name, query.get(name)]));
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), ...chosen });
  const pageHref = (newOffset) => `/submissions?${new URLSearchParams({ ...chosen, offset: String(newOffset) })}`;
  const problem = chosen.problem;
  const load = async () => {
    const result = await api(`/submissions?${params}`, { signal });
    const last = Math.min(result.offset + result.items.length, result.total);
    const filtered = Object.keys(chosen).length > 0;
    show(
      el("h1", {}, chosen.learner ? `Submissions of ${chosen.learner}` : heading),
      staff ? filterForm(chosen) : null,
      problem ? el("p", {}, "Only ", el("code", {}, problem), " · ",
        link(historyHref(problem, chosen.learner), "history and diffs"),
        staff ? null : [" · ", link("/submissions", "show all")]) : null,
      result.items.length
        ? submissionTables(result.items, staff)
        : notice(offset ? "No more submissions." : filtered ? "No submission matches these filters."
          : "No submissions yet: open a problem and press Run or Submit."),
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
  // The live region that announces each state to a screen reader; the result's own head shows
  // the verdict on screen, so this one is not drawn a second time.
  const status = el("p", { class: "verdict-status sr-only", role: "status" });
  const reopen = el("button", {
    type: "button",
    onclick: () => {
      if (replaceDraft(submission.problem, submission.code, `the code of submission #${submission.id}`)) {
        location.href = problemHref(submission.problem);
      }
    },
  }, "Open this code in the editor");
  const own = currentUser()?.name === submission.user;
  // Held grades: no feedback or regrade to show or ask for until they are released.
  const assignment = submission.held ? null : await handedInFor(submission, signal);
  const instructor = Boolean(assignment) && (assignment.role === "instructor" || hasRole("admin"));
  const excuse = instructor ? excuseControl(submission, assignment, signal) : null;
  // Handed in for an assignment: the code with its comments, and the feedback under the result.
  const feedback = assignment
    ? await feedbackView(submission, { instructor, own }, signal) : null;
  const regrades = assignment ? await regradeSection(submission, { instructor, own }, async (score) => {
    submission.score_override = score;
    await feedback?.redraw(`The score is now ${score.toFixed(2)}.`);
  }, signal) : null;
  show(
    el("h1", {}, `Submission #${submission.id}`),
    el("p", { class: "meta" },
      link(problemHref(submission.problem), problem ? problem.title : submission.problem),
      el("span", { class: "muted" }, ` · ${submission.user} · ${timeText(submission.created_at)} · version `),
      el("code", {}, submission.problem_version),
      " · ", link(historyHref(submission.problem, own ? null : submission.user), "history and diffs")),
    excuse,
    status,
    panel,
    feedback ? feedback.section : null,
    regrades,
    el("h2", {}, "Code"),
    feedback ? feedback.code : el("pre", { class: "code" }, submission.code),
    el("div", { class: "actions" }, reopen));
  await followInto(panel, status, submission, parameters, signal);
}
