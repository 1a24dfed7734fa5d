// What the account pages' forms share: a labelled input with an optional hint and its own error
// (tied to the input by aria-describedby, marked with aria-invalid), a message line for the whole
// form, and the password rules the API holds (10 to 200 characters).
import { el } from "../core/dom.js";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

// A field { node, input, fail(text), clear() }: fail shows text under the input and marks it.
export function inputField(id, labelText, props, hint) {
  const input = el("input", { id, name: id, ...props });
  const hintNode = hint ? el("span", { class: "muted field-hint", id: `${id}-hint` }, hint) : null;
  const errorNode = el("span", { class: "field-error", id: `${id}-error`, hidden: true });
  const describedBy = () => [hintNode && hintNode.id, !errorNode.hidden && errorNode.id].filter(Boolean).join(" ");
  const update = () => {
    const ids = describedBy();
    if (ids) input.setAttribute("aria-describedby", ids);
    else input.removeAttribute("aria-describedby");
  };
  update();
  const field = {
    node: el("div", { class: "form-field" }, el("label", { for: id }, labelText), input, hintNode, errorNode),
    input,
    fail(text) {
      errorNode.textContent = text;
      errorNode.hidden = false;
      input.setAttribute("aria-invalid", "true");
      update();
    },
    clear() {
      errorNode.textContent = "";
      errorNode.hidden = true;
      input.removeAttribute("aria-invalid");
      update();
    },
  };
  input.addEventListener("input", () => field.clear());
  return field;
}

// A line under a form: said at once when it reports a failure (role alert), politely otherwise.
export function formMessage() {
  const failure = el("p", { class: "form-error", role: "alert" });
  const success = el("p", { class: "form-ok", role: "status" });
  return {
    nodes: [failure, success],
    fail(text) {
      success.textContent = "";
      failure.textContent = text;
    },
    ok(...parts) { // text, or text and links
      failure.textContent = "";
      success.replaceChildren(...parts);
    },
    clear() {
      failure.textContent = "";
      success.textContent = "";
    },
  };
}

// The first problem with a new password and its confirmation, for the field it belongs to; or null.
export function passwordProblem(password, confirmation) {
  if (password.length < PASSWORD_MIN) return ["password", `Use at least ${PASSWORD_MIN} characters.`];
  if (password.length > PASSWORD_MAX) return ["password", `Use at most ${PASSWORD_MAX} characters.`];
  if (password !== confirmation) return ["confirm", "The two passwords differ."];
  return null;
}

// What a refusal from the API means to someone filling in a form.
export function refusalText(error) {
  if (error.status === 429 && error.code === "busy") {
    return `The server is busy checking other passwords: try again in ${error.retryAfter ?? 1} s.`;
  }
  if (error.status === 429) {
    return error.retryAfter !== undefined ? `Too many failed attempts: try again in ${error.retryAfter} s.`
      : error.message;
  }
  return error.message || String(error);
}
