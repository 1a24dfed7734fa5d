// /lti/deep-link/<token>: an instructor who launched from an LMS to add content picks problems, an
// assignment of the course, or a track. The form posts to the judge (plain HTML, with the session's
// CSRF token), whose answer page hands the signed choice back to the LMS.
import { api, csrfToken } from "../core/api.js";
import { el, setTitle, show } from "../core/dom.js";

function choices(name, type, options, legend) {
  if (!options.length) return null;
  return el("fieldset", {}, el("legend", {}, legend),
    type === "radio" ? el("label", { class: "choice" }, el("input", { type, name, value: "", checked: true }), " None") : null,
    options.map((option) => el("label", { class: "choice" },
      el("input", { type, name, value: option.key }), " ", option.title, " ", el("code", { class: "muted" }, option.key))));
}

export async function deepLinkPage(token, signal) {
  setTitle("Add to the LMS course");
  const [request, csrf] = await Promise.all([
    api(`/lti/deep-links/${encodeURIComponent(token)}`, { signal }), csrfToken(signal)]);
  const form = el("form", { method: "post", action: `/lti/deep-link/${encodeURIComponent(token)}`, class: "stacked" },
    el("input", { type: "hidden", name: "csrf_token", value: csrf }),
    choices("problem", request.accept_multiple ? "checkbox" : "radio", request.problems, "Problems (each graded out of 1)"),
    choices("assignment", "radio", request.assignments, "An assignment of this course (graded out of its number of problems)"),
    choices("track", "radio", request.tracks, "A track (not graded)"),
    el("button", { type: "submit" }, "Add to the LMS course"));
  show(
    el("h1", {}, "Add to the LMS course"),
    el("p", {}, `For ${request.course_title}, in ${request.platform}. Each item becomes a link in the LMS; `
      + "graded ones send each learner's score back to the LMS's gradebook."),
    form);
}
