// Form pieces the course pages share: a labelled field and the error line under a form.
import { el } from "./dom.js";

// A labelled field: the label above its input (ids are unique per page).
export function field(id, text, input, hint) {
  input.id = id;
  const hintNode = hint ? el("span", { class: "muted field-hint", id: `${id}-hint` }, hint) : null;
  if (hintNode) input.setAttribute("aria-describedby", hintNode.id);
  return el("div", { class: "form-field" }, el("label", { for: id }, text), input, hintNode);
}

// An error under a form, said when it appears (role alert), empty otherwise.
export const formError = () => el("p", { class: "form-error", role: "alert" });
