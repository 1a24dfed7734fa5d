// The courses I teach or take, invitations to courses waiting for my answer (Accept, Decline), what
// is due across them, and (instructors, admins) a new course.
import { currentUser } from "../account/user.js";
import { api } from "../core/api.js";
import { el, link, notice, scrollBox, setTitle, show, timeText } from "../core/dom.js";
import { dueWords, ownDueAt } from "../assignments/due.js";
import { field, formError } from "../core/forms.js";

export const courseHref = (id) => `/courses/${encodeURIComponent(String(id))}`;
export const assignmentHref = (id) => `/assignments/${encodeURIComponent(String(id))}`;
// Insight into one problem over one course's learners (the course's instructors may read it).
export const insightHref = (slug, courseId) =>
  `/author/${encodeURIComponent(slug)}/insight?${new URLSearchParams({ course: String(courseId) })}`;
export const roleText = (role) => (role === "instructor" ? "instructor" : role === "learner" ? "learner" : "admin (not a member)");

function createCourseForm() {
  const title = el("input", { type: "text", required: true, maxlength: "200", autocomplete: "off" });
  const error = formError();
  const submit = el("button", { type: "submit", class: "primary" }, "Create course");
  const form = el("form", { class: "course-form", novalidate: true },
    field("course-title", "Course title", title), el("div", { class: "actions" }, submit), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!title.value.trim()) {
      error.textContent = "Give the course a title.";
      title.focus();
      return;
    }
    submit.disabled = true;
    try {
      const course = await api("/courses", { method: "POST", json: { title: title.value.trim() } });
      location.href = courseHref(course.id);
    } catch (failure) {
      error.textContent = `The course was not created: ${failure.message}`;
      submit.disabled = false;
    }
  });
  return el("section", { class: "course-panel", "aria-labelledby": "new-course" },
    el("h2", { id: "new-course" }, "New course"), form);
}

function dueTable(assignments, now) {
  return scrollBox(el("table", { class: "list" },
    el("caption", { class: "sr-only" }, "Assignments that are open or about to open"),
    el("thead", {}, el("tr", {}, ["Assignment", "Course", "When", "Solved"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, assignments.map((a) => el("tr", {},
      el("td", {}, link(assignmentHref(a.id), a.title)),
      el("td", {}, link(courseHref(a.course.id), a.course.title)),
      el("td", {}, el("span", { class: `due due-${a.state}` }, dueWords(a, now).words),
        el("br"), el("span", { class: "muted" }, `due ${timeText(ownDueAt(a))}`)),
      el("td", { class: "number" }, a.solved === null ? "" : `${a.solved} of ${a.problems.length}`))))));
}

// Each invitation with Accept (a member at once: the course opens) and Decline (after a confirm).
function invitationsSection(invitations, redraw, signal) {
  const state = el("p", { class: "muted", role: "status" });
  const answer = async (invitation, verb, buttons) => {
    const course = invitation.course.title;
    if (verb === "decline" && !window.confirm(`Decline the invitation to “${course}”?`)) return;
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const joined = await api(`/me/invitations/${invitation.id}/${verb}`, { method: "POST", signal });
      if (verb === "accept") location.href = courseHref(joined.id);
      else await redraw(`Declined the invitation to “${course}”.`);
    } catch (error) {
      if (error.name === "AbortError") return;
      state.textContent = `Not done: ${error.message}`;
      buttons.forEach((b) => { b.disabled = false; });
    }
  };
  const actions = (i) => {
    const accept = el("button", { type: "button", class: "primary", "aria-label": `Accept the invitation to “${i.course.title}”` }, "Accept");
    const decline = el("button", { type: "button", class: "quiet danger", "aria-label": `Decline the invitation to “${i.course.title}”` }, "Decline");
    accept.addEventListener("click", () => answer(i, "accept", [accept, decline]));
    decline.addEventListener("click", () => answer(i, "decline", [accept, decline]));
    return el("div", { class: "row-actions" }, accept, decline);
  };
  return el("section", { "aria-labelledby": "invitations-heading" },
    el("h2", { id: "invitations-heading" }, "Invitations"),
    el("p", {}, "An instructor invited you. Accept to join the course: its instructors then see the work you hand in for its assignments."),
    scrollBox(el("table", { class: "list invitations" },
      el("thead", {}, el("tr", {}, ["Course", "As", "From", "Invited", "Answer"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, invitations.map((i) => el("tr", {},
        el("td", {}, i.course.title), el("td", {}, i.role), el("td", {}, i.invited_by || "—"),
        el("td", {}, timeText(i.created_at)), el("td", {}, actions(i))))))),
    state);
}

export async function coursesPage(signal, message) {
  setTitle("Courses");
  const [courses, assignments, invitations] = await Promise.all([
    api("/courses", { signal }),
    api("/me/assignments", { signal }).catch((error) => {
      if (error.name === "AbortError") throw error;
      return []; // what is due is a nicety next to the list of courses
    }),
    api("/me/invitations", { signal }),
  ]);
  const redraw = (said) => coursesPage(signal, said);
  const user = currentUser();
  const teaches = user && (user.role === "instructor" || user.role === "admin");
  const now = Date.now();
  const pending = assignments.filter((a) => a.role === "learner" && a.state !== "due");
  const said = message ? notice(message) : null;
  show(
    el("h1", {}, "Courses"),
    said,
    invitations.length ? invitationsSection(invitations, redraw, signal) : null,
    courses.length
      ? scrollBox(el("table", { class: "list courses" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Course"), el("th", { scope: "col" }, "You are"))),
        el("tbody", {}, courses.map((c) => el("tr", {},
          el("td", {}, link(courseHref(c.id), c.title)), el("td", {}, roleText(c.role)))))))
      : notice(teaches ? "You have no courses yet: create one below."
        : `You are in no course yet: open the join link your instructor gave you${invitations.length ? ", or accept an invitation above" : ""}.`),
    pending.length ? el("section", { "aria-labelledby": "due-heading" },
      el("h2", { id: "due-heading" }, "What is due"), dueTable(pending, now)) : null,
    teaches ? createCourseForm() : null);
}
