// The courses I teach or take, what is due across them, and (instructors, admins) a new course.
import { currentUser } from "./account.js";
import { api } from "./api.js";
import { el, link, notice, scrollBox, setTitle, show, timeText } from "./dom.js";
import { dueWords } from "./due.js";
import { field, formError } from "./forms.js";

export const courseHref = (id) => `/courses/${encodeURIComponent(String(id))}`;
export const assignmentHref = (id) => `/assignments/${encodeURIComponent(String(id))}`;
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
        el("br"), el("span", { class: "muted" }, `due ${timeText(a.due_at)}`)),
      el("td", { class: "number" }, a.solved === null ? "" : `${a.solved} of ${a.problems.length}`))))));
}

export async function coursesPage(signal) {
  setTitle("Courses");
  const [courses, assignments] = await Promise.all([
    api("/courses", { signal }),
    api("/me/assignments", { signal }).catch((error) => {
      if (error.name === "AbortError") throw error;
      return []; // what is due is a nicety next to the list of courses
    }),
  ]);
  const user = currentUser();
  const teaches = user && (user.role === "instructor" || user.role === "admin");
  const now = Date.now();
  const pending = assignments.filter((a) => a.role === "learner" && a.state !== "due");
  show(
    el("h1", {}, "Courses"),
    courses.length
      ? scrollBox(el("table", { class: "list courses" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Course"), el("th", { scope: "col" }, "You are"))),
        el("tbody", {}, courses.map((c) => el("tr", {},
          el("td", {}, link(courseHref(c.id), c.title)), el("td", {}, roleText(c.role)))))))
      : notice(teaches ? "You have no courses yet: create one below."
        : "You are in no course yet: open the join link your instructor gave you."),
    pending.length ? el("section", { "aria-labelledby": "due-heading" },
      el("h2", { id: "due-heading" }, "What is due"), dueTable(pending, now)) : null,
    teaches ? createCourseForm() : null);
}
