// The form that creates or edits an assignment: title, opening and due times (datetime-local,
// sent as ISO 8601 with this browser's offset), the late policy and the problems (published ones,
// as checkboxes). The problems keep the order they had; newly ticked ones follow in list order.
import { el } from "./dom.js";
import { localInputToIso, toLocalInput } from "./due.js";
import { field, formError } from "./forms.js";

const WEEK = 7 * 86400000;

function zoneText() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "this computer's time zone";
  return `Your local time (${zone}).`;
}

function radio(name, value, text, checked) {
  const id = `${name}-${value}`;
  return el("div", { class: "choice" },
    el("input", { type: "radio", name, value, id, checked }), el("label", { for: id }, text));
}

// problems: GET /problems; initial: an assignment to edit, or null; prefix keeps ids unique;
// save(body) -> Promise (rejects with the API's error, shown under the form); cancel: optional.
export function assignmentForm({ problems, initial, prefix, submitText, save, cancel }) {
  const now = new Date();
  now.setSeconds(0, 0);
  const title = el("input", { type: "text", required: true, maxlength: "200", autocomplete: "off", value: initial ? initial.title : "" });
  const opens = el("input", { type: "datetime-local", required: true, value: toLocalInput(initial ? initial.opens_at : now) });
  const due = el("input", { type: "datetime-local", required: true, value: toLocalInput(initial ? initial.due_at : new Date(now.getTime() + WEEK)) });
  const policy = `${prefix}-late`;
  const chosen = initial ? [...initial.problems] : [];
  const offered = problems.filter((p) => p.published).map((p) => ({ slug: p.slug, title: p.title }));
  for (const slug of chosen) if (!offered.some((p) => p.slug === slug)) offered.push({ slug, title: slug });
  const boxes = offered.map((p) => {
    const id = `${prefix}-problem-${p.slug}`;
    return el("div", { class: "choice" },
      el("input", { type: "checkbox", id, value: p.slug, checked: chosen.includes(p.slug) }),
      el("label", { for: id }, p.title, " ", el("code", {}, p.slug)));
  });
  const problemSet = el("fieldset", { class: "problem-choices" }, el("legend", {}, "Problems"), el("div", { class: "choices-box" }, boxes));
  const error = formError();
  const submit = el("button", { type: "submit", class: "primary" }, submitText);
  const form = el("form", { class: "assignment-form", novalidate: true },
    field(`${prefix}-title`, "Assignment title", title),
    el("div", { class: "form-row" },
      field(`${prefix}-opens`, "Opens at", opens, zoneText()),
      field(`${prefix}-due`, "Due at", due)),
    el("fieldset", { class: "late-policy" }, el("legend", {}, "After the due time"),
      radio(policy, "accept", "Accept and mark late", !initial || initial.late_policy === "accept"),
      radio(policy, "refuse", "Refuse", Boolean(initial) && initial.late_policy === "refuse")),
    problemSet,
    el("div", { class: "actions" }, submit,
      cancel ? el("button", { type: "button", onclick: cancel }, "Cancel") : null),
    error);

  const refuse = (text, input) => {
    error.textContent = text;
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    error.textContent = "";
    const opensAt = localInputToIso(opens.value);
    const dueAt = localInputToIso(due.value);
    const ticked = boxes.map((box) => box.querySelector("input")).filter((box) => box.checked).map((box) => box.value);
    if (!title.value.trim()) return refuse("Give the assignment a title.", title);
    if (!opensAt) return refuse("Opens at: pick a date and a time.", opens);
    if (!dueAt) return refuse("Due at: pick a date and a time.", due);
    if (new Date(dueAt) <= new Date(opensAt)) return refuse("Due at must be after Opens at.", due);
    if (!ticked.length) return refuse("Tick at least one problem.", problemSet.querySelector("input"));
    const ordered = [...chosen.filter((slug) => ticked.includes(slug)), ...ticked.filter((slug) => !chosen.includes(slug))];
    const body = {
      title: title.value.trim(), opens_at: opensAt, due_at: dueAt,
      late_policy: form.querySelector(`input[name="${policy}"]:checked`).value, problems: ordered,
    };
    submit.disabled = true;
    try {
      await save(body);
    } catch (failure) {
      if (failure.name !== "AbortError") refuse(`Not saved: ${failure.message}`);
    } finally {
      submit.disabled = false;
    }
    return undefined;
  });
  return form;
}
