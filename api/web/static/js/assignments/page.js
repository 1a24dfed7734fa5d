// One assignment: its problems (each link carries ?assignment=ID, so Submit there counts for it),
// when it opens and is due (a learner's own due time when they have an extension), in words, and
// what late work costs. A learner sees their own best score, accepted, attempts and late marks per
// problem; an instructor gets the link to the gradebook and the extensions.
import { api } from "../core/api.js";
import { problemForAssignment } from "./link.js";
import { courseHref, insightHref } from "../courses/list.js";
import { el, link, scrollBox, setTitle, show, timeText } from "../core/dom.js";
import { dueWords, ownDueAt } from "./due.js";
import { extensionsPanel } from "./extensions-panel.js";

const score = (value) => (typeof value === "number" ? value.toFixed(2) : "–");

// What late work costs, in words: "" when it is refused or free.
export function penaltyWords(rules) {
  if (rules.late_policy !== "accept" || !rules.penalty_percent) return "";
  const floor = rules.penalty_floor ? `, never below ${rules.penalty_floor}% of the score` : "";
  return ` A late score loses ${rules.penalty_percent}% per started ${rules.penalty_unit}${floor}.`;
}

export function dueSentence(assignment, now) {
  // A learner's own due time and last accepted time (an extension's, or the assignment's).
  const learner = assignment.role === "learner";
  const own = assignment.extension;
  const due = ownDueAt(assignment);
  const until = learner ? assignment.your_late_until : assignment.late_policy === "accept" ? assignment.late_until : due;
  const { state, words } = dueWords(assignment, now);
  const yours = own ? ` Your extension: ${own.reason}.` : "";
  if (state === "upcoming") return `Opens ${timeText(assignment.opens_at)} (${words}); due ${timeText(due)}.${yours}`;
  const late = until === due
    ? "Submissions after that are refused."
    : `Submissions after that are accepted and marked late${until ? ` until ${timeText(until)}` : ""}.`;
  return `${own ? "You are due" : "Due"} ${timeText(due)} (${words}). ${late}${penaltyWords(assignment)}${yours}`;
}

// The score that counts was set by hand: it is the score, with who set it and why.
export function byHandLine(cell) {
  if (typeof cell.score_reason !== "string") return null;
  return el("div", { class: "muted by-hand-note" },
    `${score(cell.best_score)} set by hand${cell.score_set_by ? ` by ${cell.score_set_by}` : ""}: ${cell.score_reason}`);
}

const HELD_NOTE = "Your instructors hold this assignment's grades: scores and feedback appear here once they release them.";

// The grades' state and, for the course's instructors, the button that releases held grades.
export function releaseControl(assignment, signal, onReleased) {
  if (!assignment.grades_held) {
    return assignment.released_at ? el("p", { class: "muted" }, `Grades released ${timeText(assignment.released_at)}.`) : null;
  }
  if (assignment.role !== "instructor") return el("p", { class: "held-note" }, HELD_NOTE);
  const said = el("span", { role: "status" });
  const button = el("button", { type: "button", class: "primary" }, "Release grades");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const released = await api(`/assignments/${assignment.id}/release-grades`, { method: "POST", signal });
      Object.assign(assignment, { grades_held: released.grades_held, released_at: released.released_at });
      said.textContent = " Released: the learners see their scores and feedback, and were notified.";
      button.remove();
      onReleased?.();
    } catch (error) {
      if (error.name !== "AbortError") said.textContent = ` Not released: ${error.message}`;
      button.disabled = false;
    }
  });
  return el("p", { class: "held-note actions" }, "Grades are held: learners see that their work was judged, not its result. ", button, said);
}

function progressCells(progress, held) {
  if (held && progress && progress.attempts) {
    return [el("td", { class: "number" }, "–"), el("td", {}, el("span", { class: "tag held" }, "held")),
      el("td", { class: "number" }, String(progress.attempts)), el("td", {}, progress.late ? el("span", { class: "tag late" }, "late") : "")];
  }
  if (!progress) return [el("td", {}, "–"), el("td", {}, "not tried"), el("td", { class: "number" }, "0"), el("td", {}, "")];
  return [
    el("td", { class: "number" }, score(progress.best_score)),
    el("td", {}, progress.accepted
      ? el("span", { class: "progress progress-solved" }, `✓ accepted ${timeText(progress.first_accepted_at)}`)
      : progress.attempts ? "not yet" : "not tried"),
    el("td", { class: "number" }, String(progress.attempts)),
    el("td", {}, progress.late ? el("span", { class: "tag late" }, progress.penalty ? `late, −${score(progress.penalty)}` : "late") : "",
      byHandLine(progress)),
  ];
}

export async function assignmentPage(id, signal) {
  const assignment = await api(`/assignments/${id}`, { signal });
  setTitle(assignment.title);
  const learner = assignment.role === "learner";
  const headings = learner ? ["Problem", "Best score", "Accepted", "Attempts", "Late"] : ["Problem", "Slug", "Insight"];
  const when = el("p", { class: `due-line due-${assignment.state}` }, dueSentence(assignment, Date.now()));
  // The countdown in words, kept current while the page is open.
  const timer = setInterval(() => { when.textContent = dueSentence(assignment, Date.now()); }, 30000);
  signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  const teaching = assignment.role === "instructor";
  const extensions = teaching ? await extensionsPanel(assignment, signal) : null;
  show(
    el("p", { class: "course-crumbs" }, link("/courses", "Courses"), " › ", link(courseHref(assignment.course.id), assignment.course.title)),
    el("h1", {}, assignment.title),
    when,
    releaseControl(assignment, signal),
    learner ? el("p", { class: "summary" }, `Solved ${assignment.solved ?? 0} of ${assignment.problems.length}`) : null,
    learner ? null : el("p", {}, link(`/assignments/${assignment.id}/gradebook`, "Gradebook")),
    scrollBox(el("table", { class: "list assignment-problems" },
      el("caption", { class: "sr-only" }, `Problems of ${assignment.title}`),
      el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, assignment.problems.map((p) => el("tr", {},
        el("td", {}, link(problemForAssignment(p.slug, assignment.id), p.title)),
        learner ? progressCells(p.progress, assignment.grades_held) : [el("td", {}, el("code", {}, p.slug)),
          el("td", {}, link(insightHref(p.slug, assignment.course.id), "Insight",
            { "aria-label": `Insight into ${p.title} in this course` }))]))))),
    extensions);
}
