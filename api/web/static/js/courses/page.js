// One course. Its instructors (and admins) see the join link (Copy, New join link), the members
// (Remove), the invitations waiting for an answer (Withdraw), the form that invites by user name,
// the assignments with Edit and Delete, and the form that creates one; its learners see the
// assignments with what is due and their progress.
import { api } from "../core/api.js";
import { assignmentForm } from "../assignments/form.js";
import { assignmentHref, insightHref, roleText } from "./list.js";
import { el, link, notice, scrollBox, setTitle, show, timeText } from "../core/dom.js";
import { dueWords, ownDueAt } from "../assignments/due.js";
import { rosterPanel } from "../lti/roster-panel.js";
import { field, formError } from "../core/forms.js";

const POLICY = { accept: "late work accepted, marked late", refuse: "late work refused" };

const heading = (id, text) => el("h2", { id }, text);
const whenCell = (a, now) => el("td", {},
  el("span", { class: `due due-${dueWords(a, now).state}` }, dueWords(a, now).words),
  el("br"), el("span", { class: "muted" }, `due ${timeText(ownDueAt(a))}`));

async function copyText(input, say) {
  try {
    await navigator.clipboard.writeText(input.value);
    say("Copied the join link.");
  } catch {
    input.select(); // no clipboard permission: leave it selected for Ctrl+C
    say("Copying was not allowed here: the address is selected, press Ctrl+C.");
  }
}

function joinLinkSection(course, redraw, signal) {
  const address = new URL(course.join_url, location.origin).href;
  const input = el("input", { type: "text", readonly: true, value: address, class: "join-address", "aria-label": "Join link address" });
  const state = el("span", { class: "muted", role: "status" });
  const say = (text) => { state.textContent = text; };
  const rotate = el("button", {
    type: "button",
    onclick: async () => {
      if (!window.confirm("Make a new join link? The current link stops working at once.")) return;
      rotate.disabled = true;
      try {
        await api(`/courses/${course.id}/join-code`, { method: "POST", signal });
        await redraw("A new join link replaced the old one.");
      } catch (error) {
        if (error.name !== "AbortError") say(`No new link: ${error.message}`);
        rotate.disabled = false;
      }
    },
  }, "New join link");
  return el("section", { "aria-labelledby": "join-heading" },
    heading("join-heading", "Inviting learners"),
    el("p", {}, "Learners join this course through its ", link(course.join_url, "Join link"),
      ". Share this address with them:"),
    el("div", { class: "join-row" }, input,
      el("button", { type: "button", onclick: () => copyText(input, say) }, "Copy"), rotate),
    state);
}

// The members, each with Remove (after a confirm; never the course's only instructor, whom the API
// keeps too); the invitations not answered yet, each with Withdraw; and the form that invites a
// user by name, as learner or instructor: they join only once they accept (on their /courses page).
function membersSection(course, redraw, signal) {
  const members = course.members || [];
  const invitations = course.invitations || [];
  const instructors = members.filter((m) => m.role === "instructor").length;
  const state = el("p", { class: "muted", role: "status" });
  const remove = async (member, button) => {
    if (!window.confirm(`Remove ${member.user} from “${course.title}”? Their submissions stay.`)) return;
    button.disabled = true;
    try {
      await api(`/courses/${course.id}/members/${member.user_id}`, { method: "DELETE", signal });
      const me = await api("/me", { signal });
      if (me.id === member.user_id) location.assign("/courses"); // no longer theirs to see
      else await redraw(`Removed ${member.user}.`);
    } catch (error) {
      if (error.name !== "AbortError") state.textContent = `Not removed: ${error.message}`;
      button.disabled = false;
    }
  };
  const actions = (m) => {
    if (m.role === "instructor" && instructors < 2) return el("span", { class: "muted" }, "only instructor");
    const button = el("button", { type: "button", class: "quiet danger", "aria-label": `Remove ${m.user}` }, "Remove");
    button.addEventListener("click", () => remove(m, button));
    return el("div", { class: "row-actions" }, button);
  };
  const withdraw = async (invitation, button) => {
    button.disabled = true;
    try {
      await api(`/courses/${course.id}/invitations/${invitation.id}`, { method: "DELETE", signal });
      await redraw(`Withdrew the invitation of ${invitation.user}.`);
    } catch (error) {
      if (error.name !== "AbortError") state.textContent = `Not withdrawn: ${error.message}`;
      button.disabled = false;
    }
  };
  const withdrawButton = (i) => {
    const button = el("button", { type: "button", class: "quiet danger", "aria-label": `Withdraw the invitation of ${i.user}` }, "Withdraw");
    button.addEventListener("click", () => withdraw(i, button));
    return el("div", { class: "row-actions" }, button);
  };
  const pending = invitations.length
    ? scrollBox(el("table", { class: "list invitations" },
      el("caption", { class: "sr-only" }, "Invitations not answered yet"),
      el("thead", {}, el("tr", {}, ["Name", "Invited as", "Invited", "By", "Actions"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, invitations.map((i) => el("tr", {},
        el("td", {}, i.user), el("td", {}, i.role), el("td", {}, timeText(i.created_at)),
        el("td", {}, i.invited_by || "—"), el("td", {}, withdrawButton(i)))))))
    : el("p", { class: "muted" }, "No invitation is waiting for an answer.");
  const name = el("input", { type: "text", required: true, maxlength: "100", autocomplete: "off", spellcheck: "false" });
  const role = el("select", {}, el("option", { value: "learner" }, "learner"), el("option", { value: "instructor" }, "instructor"));
  const error = formError();
  const add = el("button", { type: "submit" }, "Invite");
  const form = el("form", { class: "course-form member-form", novalidate: true, "aria-labelledby": "invite-heading" },
    el("h3", { id: "invite-heading" }, "Invite by user name"),
    field("invite-name", "User name", name, "They join once they accept the invitation, on their Courses page."),
    field("invite-role", "Invite as", role, "An instructor sees and changes this course as you do; only instructors and admins can be one."),
    el("div", { class: "actions" }, add), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const wanted = name.value.trim();
    if (!wanted) {
      error.textContent = "Type the user name of the person to invite.";
      name.setAttribute("aria-invalid", "true");
      name.focus();
      return;
    }
    add.disabled = true;
    error.textContent = "";
    name.removeAttribute("aria-invalid");
    try {
      // 202 with the invitation; 200 (outcome "member") for someone in the course already.
      const named = await api(`/courses/${course.id}/members`, { method: "POST", json: { name: wanted, role: role.value }, signal });
      await redraw(named.outcome === "member" ? `${wanted} is ${role.value === "instructor" ? "an instructor" : "a learner"} of this course now.`
        : `Invited ${wanted} as ${role.value === "instructor" ? "an instructor" : "a learner"}: they join once they accept.`);
    } catch (problem) {
      if (problem.name === "AbortError") return;
      error.textContent = `Not invited: ${problem.message}`;
      name.setAttribute("aria-invalid", "true");
      name.focus();
      add.disabled = false;
    }
  });
  return el("section", { "aria-labelledby": "members-heading" },
    heading("members-heading", `Members (${members.length})`),
    scrollBox(el("table", { class: "list" },
      el("thead", {}, el("tr", {}, ["Name", "Role", "Joined", "Actions"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, members.map((m) => el("tr", {},
        el("td", {}, m.user), el("td", {}, m.role), el("td", {}, timeText(m.joined_at)), el("td", {}, actions(m))))))),
    state,
    el("h3", { id: "invitations-heading" }, `Invitations waiting for an answer (${invitations.length})`),
    pending,
    el("div", { class: "course-panel" }, form));
}

function teacherAssignments(course, problems, redraw, signal) {
  const editor = el("div", { class: "assignment-editor" });
  const now = Date.now();
  const edit = (brief) => {
    const form = assignmentForm({
      problems, initial: brief, prefix: `edit-${brief.id}`, submitText: "Save assignment",
      save: async (body) => {
        await api(`/assignments/${brief.id}`, { method: "PUT", json: body, signal });
        await redraw(`Saved “${body.title}”.`);
      },
      cancel: () => editor.replaceChildren(),
    });
    editor.replaceChildren(el("section", { class: "course-panel", "aria-labelledby": "edit-heading" },
      heading("edit-heading", `Edit “${brief.title}”`), form));
    form.querySelector("input").focus();
  };
  const remove = async (brief) => {
    if (!window.confirm(`Delete the assignment “${brief.title}”? Its submissions stay, counted for no assignment.`)) return;
    try {
      await api(`/assignments/${brief.id}`, { method: "DELETE", signal });
      await redraw(`Deleted “${brief.title}”.`);
    } catch (error) {
      if (error.name !== "AbortError") editor.replaceChildren(notice(`Not deleted: ${error.message}`, "error"));
    }
  };
  const list = course.assignments.length
    ? scrollBox(el("table", { class: "list assignments" },
      el("thead", {}, el("tr", {}, ["Assignment", "When", "Opens", "Late work", "Problems", "Actions"]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, course.assignments.map((a) => el("tr", {},
        el("td", {}, link(assignmentHref(a.id), a.title)),
        whenCell(a, now),
        el("td", {}, timeText(a.opens_at)),
        el("td", {}, a.late_policy === "accept" ? "accepted, marked late" : "refused"),
        el("td", { class: "number" }, String(a.problems.length)),
        el("td", {}, el("div", { class: "row-actions" },
          link(`${assignmentHref(a.id)}/gradebook`, "Gradebook", { "aria-label": `Gradebook of “${a.title}”` }),
          el("button", { type: "button", onclick: () => edit(a), "aria-label": `Edit “${a.title}”` }, "Edit"),
          el("button", { type: "button", class: "quiet danger", onclick: () => remove(a), "aria-label": `Delete “${a.title}”` }, "Delete"))))))))
    : notice("No assignments yet: create one below.");
  const create = assignmentForm({
    problems, initial: null, prefix: "new", submitText: "Create assignment",
    save: async (body) => {
      await api(`/courses/${course.id}/assignments`, { method: "POST", json: body, signal });
      await redraw(`Created “${body.title}”.`);
    },
  });
  const slugs = [...new Set(course.assignments.flatMap((a) => a.problems))];
  const insight = slugs.length ? el("p", { class: "insight-links" }, "Insight over this course: ",
    slugs.map((slug, i) => [i ? " · " : "", link(insightHref(slug, course.id), slug,
      { "aria-label": `Insight into ${slug} over this course` })])) : null;
  return [
    el("section", { "aria-labelledby": "assignments-heading" }, heading("assignments-heading", "Assignments"), list, insight, editor),
    el("section", { class: "course-panel", "aria-labelledby": "create-heading" }, heading("create-heading", "New assignment"), create),
  ];
}

function learnerAssignments(mine) {
  const now = Date.now();
  return el("section", { "aria-labelledby": "assignments-heading" },
    heading("assignments-heading", "Assignments"),
    mine.length
      ? scrollBox(el("table", { class: "list assignments" },
        el("thead", {}, el("tr", {}, ["Assignment", "When", "Late work", "Solved"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, mine.map((a) => el("tr", {},
          el("td", {}, link(assignmentHref(a.id), a.title)),
          whenCell(a, now),
          el("td", {}, POLICY[a.late_policy] || a.late_policy),
          el("td", { class: "number" }, `${a.solved ?? 0} of ${a.problems.length}`))))))
      : notice("No assignments in this course yet."));
}

export async function coursePage(id, signal) {
  const draw = async (message) => {
    const course = await api(`/courses/${id}`, { signal });
    setTitle(course.title);
    const teaching = Boolean(course.join_url); // the API gives the join link to its instructors and admins
    let body;
    if (teaching) {
      const problems = await api("/problems", { signal });
      body = [joinLinkSection(course, draw, signal), ...teacherAssignments(course, problems, draw, signal),
        rosterPanel(course.id, draw, signal), membersSection(course, draw, signal)];
    } else {
      const mine = (await api("/me/assignments", { signal })).filter((a) => a.course.id === course.id);
      body = [learnerAssignments(mine)];
    }
    const said = message ? notice(message) : null;
    if (said) said.tabIndex = -1;
    show(
      el("p", { class: "course-crumbs" }, link("/courses", "Courses")),
      el("h1", {}, course.title),
      el("p", { class: "muted" }, `You are ${roleText(course.role)} here.`),
      said,
      ...body);
    if (said) said.focus(); // after a change the page is drawn anew: say what happened, from the top
  };
  await draw();
}
