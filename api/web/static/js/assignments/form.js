// The form that creates or edits an assignment: title, opening and due times (datetime-local,
// sent as ISO 8601 with this browser's offset), the late policy with its last accepted time and
// penalty, and the problems (published ones, as checkboxes). The problems keep the order they
// had; newly ticked ones follow in list order.
import { api } from "../core/api.js";
import { el } from "../core/dom.js";
import { localInputToIso, toLocalInput } from "./due.js";
import { field, formError } from "../core/forms.js";

const WEEK = 7 * 86400000;

function zoneText() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "this computer's time zone";
  return `Your local time (${zone}).`;
}

function percentInput(value) {
  return el("input", { type: "number", min: "0", max: "100", step: "any", inputmode: "decimal", value: String(value ?? 0) });
}

// Read a percent field: a number from 0 to 100, or null.
function percentOf(input) {
  const value = input.value.trim() === "" ? 0 : Number(input.value);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : null;
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
  const lateUntil = el("input", { type: "datetime-local", value: initial && initial.late_until ? toLocalInput(initial.late_until) : "" });
  const penalty = percentInput(initial ? initial.penalty_percent : 0);
  const unit = el("select", {}, ["day", "hour"].map((u) => el("option", { value: u, selected: Boolean(initial) && initial.penalty_unit === u }, `per started ${u}`)));
  const floor = percentInput(initial ? initial.penalty_floor : 0);
  const lateRules = el("div", { class: "late-rules" },
    el("div", { class: "form-row" },
      field(`${prefix}-late-until`, "Last accepted time (optional)", lateUntil, "Empty: late work is taken at any time."),
      field(`${prefix}-penalty`, "Penalty (% of the score)", penalty),
      field(`${prefix}-penalty-unit`, "Taken", unit),
      field(`${prefix}-penalty-floor`, "Keeps at least (%)", floor, "0: a late score can fall to nothing.")));
  const chosen = initial ? [...initial.problems] : [];
  const offered = problems.filter((p) => p.published).map((p) => ({ slug: p.slug, title: p.title }));
  for (const slug of chosen) if (!offered.some((p) => p.slug === slug)) offered.push({ slug, title: slug });
  const boxes = offered.map((p) => {
    const id = `${prefix}-problem-${p.slug}`;
    return el("div", { class: "choice" },
      el("input", { type: "checkbox", id, value: p.slug, checked: chosen.includes(p.slug) }),
      el("label", { for: id }, p.title, " ", el("code", {}, p.slug)));
  });
  // A whole track in one step: its problems ticked, in the track's order (and its title, if none yet).
  const fromTrack = el("select", {}, el("option", { value: "" }, "choose a track…"));
  const trackField = field(`${prefix}-track`, "Fill from a track", fromTrack, "Ticks the track's problems, in its order.");
  trackField.hidden = true;
  let tracks = [];
  api("/tracks").then((found) => {
    tracks = found.filter((t) => t.total);
    fromTrack.append(...tracks.map((t) => el("option", { value: t.slug }, `${t.title} (${t.total} problem${t.total === 1 ? "" : "s"})`)));
    trackField.hidden = !tracks.length;
  }).catch(() => {}); // a nicety: the boxes work without it
  fromTrack.addEventListener("change", () => {
    const track = tracks.find((t) => t.slug === fromTrack.value);
    if (!track) return;
    chosen.splice(0, chosen.length, ...track.problems.map((p) => p.slug));
    for (const box of boxes) box.querySelector("input").checked = chosen.includes(box.querySelector("input").value);
    if (!title.value.trim()) title.value = track.title;
  });
  // A search over titles and slugs: the list holds every published problem, too many to scroll.
  const search = el("input", { type: "search", autocomplete: "off", spellcheck: "false" });
  const shown = el("span", { class: "muted", role: "status" });
  const filter = () => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    offered.forEach((p, index) => {
      const text = `${p.title} ${p.slug}`.toLowerCase();
      const match = words.every((w) => text.includes(w)) || boxes[index].querySelector("input").checked;
      boxes[index].hidden = !match;
      count += match;
    });
    shown.textContent = words.length ? `${count} of ${offered.length} problems shown (ticked ones stay).` : "";
  };
  search.addEventListener("input", filter);
  search.addEventListener("keydown", (event) => { if (event.key === "Enter") event.preventDefault(); });
  const problemSet = el("fieldset", { class: "problem-choices" }, el("legend", {}, "Problems"), trackField,
    field(`${prefix}-problem-search`, "Find a problem", search, "Matches titles and slugs."), shown,
    el("div", { class: "choices-box" }, boxes));
  const holdId = `${prefix}-hold`;
  const hold = el("input", { type: "checkbox", id: holdId, checked: Boolean(initial && initial.grades_held) });
  const holding = el("div", { class: "choice" }, hold,
    el("label", { for: holdId }, "Hold scores and feedback until I release them"),
    el("p", { class: "hint muted" }, "Learners see that their work was judged, nothing more; unticking it releases them, and they are notified."));
  const error = formError();
  const submit = el("button", { type: "submit", class: "primary" }, submitText);
  const form = el("form", { class: "assignment-form", novalidate: true },
    field(`${prefix}-title`, "Assignment title", title),
    el("div", { class: "form-row" },
      field(`${prefix}-opens`, "Opens at", opens, zoneText()),
      field(`${prefix}-due`, "Due at", due)),
    el("fieldset", { class: "late-policy" }, el("legend", {}, "After the due time"),
      radio(policy, "accept", "Accept and mark late", !initial || initial.late_policy === "accept"),
      radio(policy, "refuse", "Refuse", Boolean(initial) && initial.late_policy === "refuse"),
      lateRules),
    holding,
    problemSet,
    el("div", { class: "actions" }, submit,
      cancel ? el("button", { type: "button", onclick: cancel }, "Cancel") : null),
    error);

  // The late rules mean something only while late work is accepted.
  const accepting = () => form.querySelector(`input[name="${policy}"]:checked`).value === "accept";
  const showRules = () => { lateRules.hidden = !accepting(); };
  for (const input of form.querySelectorAll(`input[name="${policy}"]`)) input.addEventListener("change", showRules);
  showRules();

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
    const late = accepting();
    const untilAt = late && lateUntil.value ? localInputToIso(lateUntil.value) : null;
    if (late && lateUntil.value && !untilAt) return refuse("Last accepted time: pick a date and a time, or leave it empty.", lateUntil);
    if (untilAt && new Date(untilAt) < new Date(dueAt)) return refuse("The last accepted time must not be before Due at.", lateUntil);
    const rules = { penalty_percent: late ? percentOf(penalty) : 0, penalty_floor: late ? percentOf(floor) : 0 };
    if (rules.penalty_percent === null) return refuse("Penalty: a percent from 0 to 100.", penalty);
    if (rules.penalty_floor === null) return refuse("Keeps at least: a percent from 0 to 100.", floor);
    const ordered = [...chosen.filter((slug) => ticked.includes(slug)), ...ticked.filter((slug) => !chosen.includes(slug))];
    const body = {
      title: title.value.trim(), opens_at: opensAt, due_at: dueAt,
      late_policy: late ? "accept" : "refuse", late_until: untilAt, penalty_unit: unit.value, ...rules,
      problems: ordered, grades_held: hold.checked,
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
