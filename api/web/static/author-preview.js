// /author/{slug}/preview?version=V: a version of a problem (published or not) as its public page
// shows it, read-only: statement, signature, limits, checker and public tests. For the owner or
// an administrator (GET /problems/{slug}/preview answers 404 to anyone else).
import { api } from "./api.js";
import { shortVersion } from "./author-format.js";
import { authorHref, problemApi, scrollable } from "./author-parts.js";
import { badge, el, link, serverHtml, setTitle, show } from "./dom.js";
import { publicTests } from "./problem.js";

function limitsText(limits) {
  return `${limits.time_per_test} s per test · ${limits.time_per_submission} s per submission · ${limits.memory_mb} MB memory`;
}

export async function previewPage(slug, signal) {
  const wanted = new URLSearchParams(location.search).get("version");
  setTitle(`Preview ${slug}`);
  const query = wanted ? `?version=${encodeURIComponent(wanted)}` : "";
  const problem = await api(`${problemApi(slug)}/preview${query}`, { signal });
  setTitle(`Preview: ${problem.title}`);
  const version = (problem.versions || []).find((v) => v.version === wanted) ||
    (problem.versions || [])[(problem.versions || []).length - 1];
  const which = version
    ? `version ${shortVersion(version.version)} (${version.published ? "published" : version.status === "valid" ? "valid, not published" : version.status})`
    : "the newest version";

  // Server-rendered Markdown (raw HTML escaped), as the public page shows it.
  const statement = serverHtml(problem.statement_html, "statement rendered");
  const first = statement.firstElementChild;
  if (first && first.tagName === "H1" && first.textContent.trim() === problem.title) first.remove();

  // A wide table or formula in the statement scrolls in its own box, which the keyboard must reach.
  for (const wide of statement.querySelectorAll("table, pre, math[display='block']")) scrollable(wide, "wide content of the statement");
  show(
    el("p", { class: "notice preview-note", role: "note" }, `Preview of ${which}: learners see this page only once it is published. `,
      link(authorHref(slug), "Back to authoring")),
    el("div", { class: "problem-head" },
      el("h1", {}, problem.title),
      el("p", { class: "meta" }, badge(problem.difficulty, "difficulty"), problem.tags.map((t) => el("span", { class: "tag" }, t)))),
    el("section", { class: "author-box preview" },
      statement,
      el("h2", {}, "Signature"), el("pre", { class: "signature" }, problem.signature),
      el("h2", {}, "Limits"), el("p", {}, limitsText(problem.limits)),
      el("p", {}, `Checker: ${problem.checker.name}`),
      el("h2", {}, "Public tests"), publicTests(problem),
      el("p", { class: "muted" }, `${problem.hidden_test_count} hidden tests are judged on Submit.`),
      el("h2", {}, "Starter code"), el("pre", { class: "code signature" }, problem.starter)));
}
