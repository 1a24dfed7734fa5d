// An assignment's extensions, for its course's instructors: each learner given their own due
// time (and last accepted time), with the reason, who granted it and Revoke; and the form that
// grants one (or replaces a learner's), choosing among the course's learners.
import { api } from "../core/api.js";
import { el, scrollBox, timeText } from "../core/dom.js";
import { localInputToIso, toLocalInput } from "./due.js";
import { field, formError } from "../core/forms.js";

const DAY = 86400000;

export async function extensionsPanel(assignment, signal) {
  const section = el("section", { class: "extensions", "aria-labelledby": "extensions-heading" });
  const state = el("p", { class: "muted", role: "status" });
  const course = await api(`/courses/${assignment.course.id}`, { signal });
  const learners = (course.members || []).filter((m) => m.role === "learner");

  const draw = async (message) => {
    const granted = await api(`/assignments/${assignment.id}/extensions`, { signal });
    section.replaceChildren(
      el("h2", { id: "extensions-heading" }, "Extensions"),
      granted.length ? table(granted) : el("p", { class: "muted" }, "Every learner is on the assignment's due time."),
      learners.length ? grantForm(granted) : el("p", { class: "muted" }, "No learner has joined the course yet."),
      state);
    state.textContent = message || "";
  };

  const revoke = async (extension, button) => {
    if (!window.confirm(`Take ${extension.user}'s extension away? The assignment's due time applies to them again.`)) return;
    button.disabled = true;
    try {
      await api(`/assignments/${assignment.id}/extensions/${extension.user_id}`, { method: "DELETE", signal });
      await draw(`${extension.user} is back on the assignment's due time.`);
    } catch (error) {
      if (error.name !== "AbortError") state.textContent = `Not revoked: ${error.message}`;
      button.disabled = false;
    }
  };

  const table = (granted) => scrollBox(el("table", { class: "list extension-list" },
    el("caption", { class: "sr-only" }, `Extensions of ${assignment.title}`),
    el("thead", {}, el("tr", {}, ["Learner", "Due", "Last accepted", "Reason", "Granted", "Actions"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, granted.map((e) => {
      const button = el("button", { type: "button", class: "quiet danger", "aria-label": `Revoke ${e.user}'s extension` }, "Revoke");
      button.addEventListener("click", () => revoke(e, button));
      return el("tr", {},
        el("td", {}, e.user), el("td", {}, timeText(e.due_at)), el("td", {}, e.late_until ? timeText(e.late_until) : "any time"),
        el("td", {}, e.reason), el("td", {}, `${timeText(e.granted_at)}${e.granted_by ? ` by ${e.granted_by}` : ""}`),
        el("td", {}, el("div", { class: "row-actions" }, button)));
    }))));

  const grantForm = (granted) => {
    const who = el("select", { required: true }, learners.map((m) => el("option", { value: String(m.user_id) },
      granted.some((e) => e.user_id === m.user_id) ? `${m.user} (has one: replace it)` : m.user)));
    const due = el("input", { type: "datetime-local", required: true, value: toLocalInput(new Date(Date.parse(assignment.due_at) + 2 * DAY)) });
    const until = el("input", { type: "datetime-local" });
    const reason = el("input", { type: "text", required: true, maxlength: "500", autocomplete: "off" });
    const error = formError();
    const submit = el("button", { type: "submit" }, "Grant the extension");
    const form = el("form", { class: "extension-form", novalidate: true },
      el("h3", {}, "Grant an extension"),
      el("div", { class: "form-row" },
        field("extension-learner", "Learner", who),
        field("extension-due", "Their due time", due),
        field("extension-until", "Their last accepted time (optional)", until, "Empty: late work at any time.")),
      field("extension-reason", "Reason", reason, "Kept with the extension; the learner sees it."),
      el("div", { class: "actions" }, submit), error);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      const dueAt = localInputToIso(due.value);
      const untilAt = until.value ? localInputToIso(until.value) : null;
      if (!dueAt) { error.textContent = "Their due time: pick a date and a time."; due.focus(); return; }
      if (until.value && !untilAt) { error.textContent = "Last accepted time: pick a date and a time, or leave it empty."; until.focus(); return; }
      if (!reason.value.trim()) { error.textContent = "Say why (the reason is kept with the extension)."; reason.focus(); return; }
      submit.disabled = true;
      try {
        const made = await api(`/assignments/${assignment.id}/extensions/${who.value}`, {
          method: "PUT", json: { due_at: dueAt, late_until: untilAt, reason: reason.value.trim() }, signal,
        });
        await draw(`${made.user} is now due ${timeText(made.due_at)}.`);
      } catch (failure) {
        if (failure.name !== "AbortError") error.textContent = `Not granted: ${failure.message}`;
        submit.disabled = false;
      }
    });
    return form;
  };

  await draw();
  return section;
}
