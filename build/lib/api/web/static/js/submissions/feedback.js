// A submission's feedback on its page: the code with each line's comments under it, comments on
// the whole submission, and a score set by hand with its trail. The course's instructors (and
// admins) also get the forms that write them; the submission's learner reads them, and opening
// the page marks them read (their list shows new ones until then). Comment bodies arrive rendered
// by the server from Markdown with raw HTML escaped (api/rendering.py).
import { api } from "../core/api.js";
import { el, scrollBox, serverHtml, timeText } from "../core/dom.js";
import { field, formError } from "../core/forms.js";

const scoreText = (value) => (typeof value === "number" ? value.toFixed(2) : "the judged score");

// ``own``: the viewer is the submission's learner, for whom an unread comment is "new".
function commentNode(comment, onDelete, own) {
  const remove = onDelete ? el("button", {
    type: "button", class: "quiet danger", "aria-label": `Delete the comment of ${timeText(comment.created_at)}`,
    onclick: () => onDelete(comment),
  }, "Delete") : null;
  return el("article", { class: "comment" },
    el("p", { class: "comment-meta muted" },
      comment.read_at ? null : el("span", { class: "badge comment-new" }, own ? "new" : "not read yet"), " ",
      `${comment.author || "a former instructor"} · ${timeText(comment.created_at)} `, remove),
    serverHtml(comment.html, "comment-body"));
}

// The code as numbered lines, each line's comments under it; ``pick(line)`` (instructors) puts a
// line into the comment form.
function codeWithComments(code, comments, pick, onDelete, own) {
  const byLine = new Map();
  for (const comment of comments.filter((c) => c.line !== null)) {
    byLine.set(comment.line, [...(byLine.get(comment.line) || []), comment]);
  }
  const lines = code.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return el("ol", { class: "code-lines", "aria-label": "Code, by line", tabindex: "0" }, lines.map((text, index) => {
    const number = index + 1;
    const notes = byLine.get(number) || [];
    return el("li", { class: notes.length ? "has-comments" : null },
      el("div", { class: "code-line" },
        el("code", {}, text || " "),
        pick ? el("button", {
          type: "button", class: "quiet line-comment", "aria-label": `Comment on line ${number}`,
          onclick: () => pick(number),
        }, "+") : null),
      notes.length ? el("div", { class: "line-comments" }, notes.map((c) => commentNode(c, onDelete, own))) : null);
  }));
}

function commentForm(submission, lineCount, onAdded, signal) {
  const line = el("input", { type: "number", min: "1", max: String(lineCount), step: "1", inputmode: "numeric" });
  const body = el("textarea", { rows: "4", maxlength: "5000", required: true });
  const error = formError();
  const submit = el("button", { type: "submit" }, "Add the comment");
  const form = el("form", { class: "comment-form", novalidate: true },
    el("h3", {}, "Add a comment"),
    field("comment-line", "On line (optional)", line, "Empty: on the whole submission."),
    field("comment-body", "Comment", body, "Markdown; the learner sees it on this page."),
    el("div", { class: "actions" }, submit), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const number = line.value.trim() === "" ? null : Number(line.value);
    if (number !== null && !(Number.isInteger(number) && number >= 1 && number <= lineCount)) {
      error.textContent = `Line: a whole number from 1 to ${lineCount}, or empty for the whole submission.`;
      line.focus();
      return;
    }
    if (!body.value.trim()) { error.textContent = "Write the comment first."; body.focus(); return; }
    submit.disabled = true;
    try {
      await api(`/submissions/${submission.id}/comments`, { method: "POST", json: { body: body.value, line: number }, signal });
      await onAdded(number === null ? "Comment added." : `Comment added on line ${number}.`);
    } catch (failure) {
      if (failure.name !== "AbortError") error.textContent = `Not added: ${failure.message}`;
      submit.disabled = false;
    }
  });
  return { form, pick: (number) => { line.value = String(number); body.focus(); } };
}

function trailTable(changes) {
  return scrollBox(el("table", { class: "list score-trail" },
    el("caption", {}, "Every change of the score by hand"),
    el("thead", {}, el("tr", {}, ["When", "Who", "From", "To", "Why"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, changes.map((c) => el("tr", {},
      el("td", {}, timeText(c.changed_at)), el("td", {}, c.changed_by || "a former instructor"),
      el("td", { class: "number" }, scoreText(c.previous)), el("td", { class: "number" }, scoreText(c.score)),
      el("td", {}, c.reason))))));
}

function scoreForm(submission, onChanged, signal) {
  const score = el("input", { type: "number", min: "0", max: "1", step: "0.01", inputmode: "decimal" });
  if (typeof submission.score_override === "number") score.value = String(submission.score_override);
  const reason = el("input", { type: "text", maxlength: "500", autocomplete: "off", required: true });
  const error = formError();
  const set = el("button", { type: "submit" }, "Set this score");
  const back = typeof submission.score_override === "number"
    ? el("button", { type: "button", class: "quiet" }, "Back to the judged score") : null;
  const form = el("form", { class: "score-form", novalidate: true },
    el("h3", {}, "Set the score by hand"),
    el("div", { class: "form-row" },
      field("score-value", "Score (0 to 1)", score, "It counts in the gradebook as it is: no late penalty."),
      field("score-reason", "Reason", reason, "Kept in the trail; the learner sees it.")),
    el("div", { class: "actions" }, set, back), error);
  const send = async (value) => {
    error.textContent = "";
    if (!reason.value.trim()) { error.textContent = "Say why (the reason is kept in the trail)."; reason.focus(); return; }
    set.disabled = true;
    try {
      const changed = await api(`/submissions/${submission.id}/score`, { method: "PUT", json: { score: value, reason: reason.value.trim() }, signal });
      submission.score_override = changed.score_override;
      await onChanged(changed.score_override === null ? "Back to the judged score." : `The score is now ${scoreText(changed.score_override)}.`);
    } catch (failure) {
      if (failure.name !== "AbortError") error.textContent = `Not changed: ${failure.message}`;
      set.disabled = false;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = Number(score.value);
    if (score.value.trim() === "" || !(value >= 0 && value <= 1)) {
      error.textContent = "Score: a number from 0 to 1.";
      score.focus();
      return;
    }
    send(value);
  });
  back?.addEventListener("click", () => send(null));
  return form;
}

// The code and the feedback: { code, section }, drawn again after every change the page makes.
// ``instructor``: the viewer may write feedback; ``own``: the viewer sent the submission.
export async function feedbackView(submission, { instructor, own }, signal) {
  const code = el("div", { class: "code-with-comments" });
  const section = el("section", { class: "feedback", "aria-labelledby": "feedback-heading" });
  const status = el("p", { class: "muted", role: "status" });
  const lineCount = Math.max(1, submission.code.split("\n").length - (submission.code.endsWith("\n") ? 1 : 0));
  const draw = async (said) => {
    const [comments, changes] = await Promise.all([
      api(`/submissions/${submission.id}/comments`, { signal }),
      api(`/submissions/${submission.id}/score-changes`, { signal }),
    ]);
    const remove = instructor ? async (comment) => {
      if (!window.confirm("Delete this comment? The learner will no longer see it.")) return;
      try {
        await api(`/submissions/${submission.id}/comments/${comment.id}`, { method: "DELETE", signal });
        await draw("Comment deleted.");
      } catch (failure) {
        if (failure.name !== "AbortError") status.textContent = `Not deleted: ${failure.message}`;
      }
    } : null;
    const writer = instructor ? commentForm(submission, lineCount, draw, signal) : null;
    code.replaceChildren(codeWithComments(submission.code, comments, writer?.pick, remove, own));
    const whole = comments.filter((c) => c.line === null);
    const byHand = typeof submission.score_override === "number";
    status.textContent = said || "";
    section.replaceChildren(...[
      el("h2", { id: "feedback-heading" }, "Feedback"),
      byHand ? el("p", { class: "score-by-hand" }, `Score set by hand: ${scoreText(submission.score_override)} `,
        el("span", { class: "muted" }, `(judged ${scoreText(submission.score)}); it is the one the gradebook counts.`)) : null,
      whole.length ? el("div", { class: "whole-comments" }, whole.map((c) => commentNode(c, remove, own)))
        : comments.length || byHand ? null : el("p", { class: "muted" }, "No feedback yet."),
      changes.length ? trailTable(changes) : null,
      status,
      writer ? writer.form : null,
      instructor && submission.status === "done" ? scoreForm(submission, draw, signal) : null,
    ].filter(Boolean)); // replaceChildren would write a null as the text "null"
    if (own && comments.some((c) => !c.read_at)) {
      // Seen now: the learner's list stops marking them new (this view still shows which were).
      await api(`/submissions/${submission.id}/comments/read`, { method: "POST", signal }).catch((failure) => {
        if (failure.name === "AbortError") throw failure;
      });
    }
  };
  await draw();
  return { code, section, redraw: draw };
}
