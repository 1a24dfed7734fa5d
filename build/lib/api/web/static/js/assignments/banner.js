// The problem page opened from an assignment (?assignment=ID): a banner "For assignment TITLE,
// due …" (what happens when it is past due, or not open yet), and the field Submit adds so the
// submission counts for the assignment. Runs and tries are sent without it. Opened any other way,
// a notice says which assignment Submit counts for anyway (the API's counts_for), and by when.
import { api } from "../core/api.js";
import { assignmentFromSearch, submissionFields } from "./link.js";
import { el, link, timeText } from "../core/dom.js";
import { dueWords, ownDueAt, parseTime } from "./due.js";

// Past the learner's last accepted time (their extension's, or the assignment's): refused.
function closed(assignment, now) {
  if (assignment.late_policy === "refuse") return true;
  const until = parseTime(assignment.your_late_until || assignment.late_until);
  return until !== null && now > until.getTime();
}

function bannerText(assignment, now) {
  const { state, words } = dueWords(assignment, now);
  const due = timeText(ownDueAt(assignment));
  const yours = assignment.extension ? " (your extension)" : "";
  if (state === "upcoming") return [`, opens ${timeText(assignment.opens_at)} (${words}). `, el("strong", {}, "Submitting before then is refused.")];
  if (state === "open") return [`, due ${due}${yours} (${words}).`];
  return [`, due ${due}${yours} (${words}). `, el("strong", {}, closed(assignment, now)
    ? "This assignment no longer accepts submissions." : "Submitting now is late.")];
}

// { banner: element or null, fields(mode): the extra body of POST /submissions }
export function assignmentContext(slug, signal) {
  const id = assignmentFromSearch(location.search);
  if (id === null) return { banner: null, fields: () => ({}) };
  const banner = el("p", { class: "notice assignment-banner" }, `For assignment #${id}…`);
  api(`/assignments/${id}`, { signal }).then((assignment) => {
    const draw = () => {
      const state = dueWords(assignment, Date.now()).state;
      banner.className = `notice assignment-banner due-${state}${state === "due" ? ` late-${assignment.late_policy}` : ""}`;
      banner.replaceChildren("For assignment ", link(`/assignments/${assignment.id}`, assignment.title), ...bannerText(assignment, Date.now()));
      if (!assignment.problems.some((p) => p.slug === slug)) {
        banner.append(" ", el("strong", {}, "This problem is not part of it: Submit will be refused."));
      }
    };
    draw();
    const timer = setInterval(draw, 30000);
    signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  }).catch((error) => {
    if (error.name === "AbortError") return;
    banner.classList.add("error");
    banner.textContent = `Assignment #${id} could not be loaded: ${error.message}`;
  });
  return { banner, fields: (mode) => submissionFields(mode, id) };
}

const named = (c) => [link(`/assignments/${c.id}`, c.title), ` (${c.course.title})`];
const dueOf = (c, now) => `due ${timeText(c.due_at)} (${dueWords(c, now).words})`;

// counts_for: the assignments of the learner's courses that hold the problem, each with the
// learner's own times; null when there are none.
export function countsForNotice(countsFor, now = Date.now()) {
  if (!countsFor || !countsFor.length) return null;
  const current = countsFor.find((c) => c.counts_now);
  const list = countsFor.filter((c) => c !== current).flatMap((c, i) => [i ? "; " : "", ...named(c), `, ${dueOf(c, now)}`]);
  if (!current) {
    return el("p", { class: "notice counts-for" }, el("strong", {}, "Submit counts for no assignment now. "),
      "This problem is part of ", ...list, ".");
  }
  const late = now > parseTime(current.due_at).getTime();
  return el("p", { class: `notice counts-for${late ? " late" : ""}` }, "Submit counts for ", ...named(current),
    `, ${dueOf(current, now)}.`, late ? el("strong", {}, " It is late now.") : "",
    ...(list.length ? [" It is also part of ", ...list, "."] : []));
}
