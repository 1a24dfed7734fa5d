// "Copy this problem to adapt it": on a shareable problem's page (shipped, or shared by its
// owner), for instructors who do not own it. The copy is a draft of their own (validated like any
// upload), opened on its author page once made.
import { hasRole } from "../account/user.js";
import { api } from "../core/api.js";
import { el } from "../core/dom.js";
import { field, formError } from "../core/forms.js";

const SLUG = /^[a-z][a-z0-9_]*$/;

export function copyControl(problem, signal) {
  if (!problem.shareable || problem.owned || !hasRole("instructor")) return null;
  const slug = el("input", { type: "text", value: `${problem.slug}_mine`, maxlength: "64", autocomplete: "off", spellcheck: "false" });
  const error = formError();
  const submit = el("button", { type: "submit" }, "Make my copy");
  const form = el("form", { class: "copy-form", novalidate: true },
    field("copy-slug", "Slug of your copy", slug, "Lower-case letters, digits and _; it starts with a letter."),
    el("div", { class: "actions" }, submit), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const wanted = slug.value.trim();
    if (!SLUG.test(wanted)) {
      error.textContent = "Slug: lower-case letters, digits and _ only, starting with a letter.";
      slug.focus();
      return;
    }
    submit.disabled = true;
    try {
      await api(`/problems/${encodeURIComponent(problem.slug)}/copy`, { method: "POST", json: { new_slug: wanted }, signal });
      location.assign(`/author/${encodeURIComponent(wanted)}`);
    } catch (failure) {
      if (failure.name !== "AbortError") error.textContent = `No copy made: ${failure.message}`;
      submit.disabled = false;
    }
  });
  return el("details", { class: "copy-problem" },
    el("summary", {}, "Copy this problem to adapt it"),
    el("p", { class: "muted" }, "Your copy is a draft of your own with every file of this problem (hidden tests included); change it and publish it when it is ready."),
    form);
}
