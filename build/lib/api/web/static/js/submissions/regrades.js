// A handed-in submission's regrade requests on its page: the thread (the learner's reason, the
// instructor's answer and whether the score changed), "Ask for a regrade" for the submission's
// learner when none is open, and the answer form (with an optional new score) for the course's
// instructors. Text arrives as plain strings and is drawn with textContent only.
import { api } from "../core/api.js";
import { el, timeText } from "../core/dom.js";
import { field, formError } from "../core/forms.js";

const OUTCOME = { open: "waiting for an answer", changed: "answered: the score was changed", kept: "answered: the score stands" };

function requestNode(request) {
  return el("article", { class: `regrade regrade-${request.outcome}` },
    el("p", { class: "muted" }, `${request.requested_by || "a former learner"} asked · ${timeText(request.created_at)} · `,
      el("span", { class: "tag" }, OUTCOME[request.outcome] || request.outcome)),
    el("p", { class: "regrade-reason" }, request.reason),
    request.answer ? [el("p", { class: "muted" }, `${request.answered_by || "a former instructor"} answered · ${timeText(request.answered_at)}`),
      el("p", { class: "regrade-answer" }, request.answer)] : null);
}

function askForm(submission, redraw, signal) {
  const reason = el("textarea", { rows: "3", maxlength: "2000", required: true });
  const error = formError();
  const button = el("button", { type: "submit" }, "Ask for a regrade");
  const form = el("form", { class: "regrade-form", novalidate: true },
    field("regrade-reason", "Why should the score change?", reason, "The course's instructors read it and answer here."),
    el("div", { class: "actions" }, button), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!reason.value.trim()) { error.textContent = "Say why the score should change."; reason.focus(); return; }
    button.disabled = true;
    try {
      await api(`/submissions/${submission.id}/regrade-requests`, { method: "POST", json: { reason: reason.value.trim() }, signal });
      await redraw("Your regrade request is sent.");
    } catch (failure) {
      if (failure.name !== "AbortError") error.textContent = `Not sent: ${failure.message}`;
      button.disabled = false;
    }
  });
  return form;
}

function answerForm(submission, request, redraw, onScore, signal) {
  const text = el("textarea", { rows: "3", maxlength: "5000", required: true });
  const score = el("input", { type: "number", min: "0", max: "1", step: "0.01", inputmode: "decimal" });
  const error = formError();
  const button = el("button", { type: "submit" }, "Answer");
  const form = el("form", { class: "regrade-form", novalidate: true },
    field("regrade-answer", "Answer", text, "The learner reads it here."),
    field("regrade-score", "New score (0 to 1, optional)", score, "Empty: the score stands. A score is set by hand, the answer its reason."),
    el("div", { class: "actions" }, button), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = score.value.trim() === "" ? null : Number(score.value);
    if (!text.value.trim()) { error.textContent = "Write the answer the learner will read."; text.focus(); return; }
    if (value !== null && !(value >= 0 && value <= 1)) { error.textContent = "New score: a number from 0 to 1, or empty."; score.focus(); return; }
    button.disabled = true;
    try {
      await api(`/submissions/${submission.id}/regrade-requests/${request.id}/answer`,
        { method: "POST", json: { answer: text.value.trim(), score: value }, signal });
      if (value !== null) await onScore(value);
      await redraw(value === null ? "Answered; the score stands." : `Answered; the score is now ${value.toFixed(2)}.`);
    } catch (failure) {
      if (failure.name !== "AbortError") error.textContent = `Not answered: ${failure.message}`;
      button.disabled = false;
    }
  });
  return form;
}

// onScore(score): an answer set a new score by hand (the page's feedback redraws with it).
export async function regradeSection(submission, { instructor, own }, onScore, signal) {
  const section = el("section", { class: "regrades", "aria-labelledby": "regrades-heading" });
  const status = el("p", { class: "muted", role: "status" });
  const draw = async (said) => {
    const requests = await api(`/submissions/${submission.id}/regrade-requests`, { signal });
    const open = requests.find((r) => r.outcome === "open");
    status.textContent = said || "";
    section.replaceChildren(...[
      el("h2", { id: "regrades-heading" }, "Regrade requests"),
      requests.length ? requests.map(requestNode) : el("p", { class: "muted" }, "None yet."),
      status,
      own && !open && submission.status === "done" ? askForm(submission, draw, signal) : null,
      instructor && open ? answerForm(submission, open, draw, onScore, signal) : null,
    ].flat().filter(Boolean));
  };
  await draw();
  return section;
}
