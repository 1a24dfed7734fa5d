// /author/{slug}/preview?version=V: a version of a problem (published or not) as its public page
// shows it: statement, signature, limits, the checker with its tolerance, public tests, every hint
// and the editorial, and an editor whose Run judges the code against that version's public tests
// (POST /problems/{slug}/versions/{version}/runs). For the owner or an administrator (the API
// answers 404 to anyone else).
import { api } from "../core/api.js";
import { shortVersion } from "./format.js";
import { authorHref, problemApi, scrollable } from "./parts.js";
import { badge, el, link, notice, serverHtml, setTitle, show } from "../core/dom.js";
import { editor } from "../problems/editor.js";
import { holdButton } from "../problems/inflight.js";
import { checkerText, publicTests } from "../problems/page.js";
import { follow, liveStatus, resultView } from "../submissions/results.js";

function limitsText(limits) {
  return `${limits.time_per_test} s per test · ${limits.time_per_submission} s per submission · ${limits.memory_mb} MB memory`;
}

// A wide table or formula scrolls in its own box, which the keyboard must reach.
function widened(html, name) {
  for (const wide of html.querySelectorAll("table, pre, math[display='block']")) scrollable(wide, name);
  return html;
}

// Every hint, folded as a learner finds them before revealing each, and the editorial.
function hintsAndEditorial(problem) {
  const hints = problem.hints || [];
  return [
    el("h2", { id: "preview-hints" }, "Hints"),
    hints.length
      ? el("ol", { class: "hints preview-hints", "aria-labelledby": "preview-hints" }, hints.map((hint) => el("li", { class: "hint-item" },
        el("details", {},
          el("summary", {}, `Hint ${hint.index}`, hint.tests.length ? ` (about ${hint.tests.join(", ")})` : ""),
          widened(serverHtml(hint.html, "rendered"), `wide content of hint ${hint.index}`)))))
      : el("p", { class: "muted" }, "This version has no hints."),
    el("h2", {}, "Editorial"),
    problem.editorial
      ? el("details", { class: "preview-editorial" }, el("summary", {}, "Read the editorial (learners: once solved)"),
        widened(serverHtml(problem.editorial.html, "rendered"), "wide content of the editorial"))
      : el("p", { class: "muted" }, "This version has no editorial."),
  ];
}

// The editor and Run against this version's public tests, the result below as the learner's page shows it.
function runPanel(slug, version, problem, signal) {
  const status = el("span", { class: "verdict-status", role: "status" });
  const say = liveStatus(status);
  const panel = el("div", { class: "result-panel" },
    el("p", { class: "muted" }, `Run judges the code against the public tests of version ${shortVersion(version)}.`));
  let code = null;
  const button = el("button", { type: "button", class: "primary" }, "Run");
  const hold = holdButton(button);
  const run = async () => {
    if (hold.busy) return;
    hold.hold();
    say.say("Sending to run…");
    try {
      const created = await api(`${problemApi(slug)}/versions/${encodeURIComponent(version)}/runs`,
        { method: "POST", json: { code: code.value }, signal });
      await follow(created, (s, elapsed) => {
        say.show(s);
        panel.replaceChildren(resultView(s, problem.parameters, { elapsed, goToLine: (line, column) => code.goToLine(line, column) }));
      }, signal);
    } catch (error) {
      if (error.name !== "AbortError") {
        say.say("Not run: see the message below");
        panel.replaceChildren(notice(`Not run: ${error.message}`, "error"));
      }
    } finally {
      hold.release();
    }
  };
  code = editor(problem.starter, () => {}, () => run(), "Code to run against the public tests (Python)");
  button.addEventListener("click", run);
  return el("section", { class: "author-box preview-run", "aria-labelledby": "preview-run-heading" },
    el("h2", { id: "preview-run-heading" }, "Try it: Run"),
    el("p", { class: "muted" }, "The starter code, as a learner gets it. Ctrl+Enter runs; nothing is kept as a draft."),
    code.element,
    el("div", { class: "actions" }, button, status),
    el("h3", {}, "Result"), panel);
}

export async function previewPage(slug, signal) {
  const wanted = new URLSearchParams(location.search).get("version");
  setTitle(`Preview ${slug}`);
  const query = wanted ? `?version=${encodeURIComponent(wanted)}` : "";
  const problem = await api(`${problemApi(slug)}/preview${query}`, { signal });
  setTitle(`Preview: ${problem.title}`);
  const versions = problem.versions || [];
  const version = versions.find((v) => v.version === wanted) || versions[versions.length - 1];
  const which = version
    ? `version ${shortVersion(version.version)} (${version.published ? "published" : version.status === "valid" ? "valid, not published" : version.status})`
    : "the newest version";

  // Server-rendered Markdown (raw HTML escaped), as the public page shows it.
  const statement = widened(serverHtml(problem.statement_html, "statement rendered"), "wide content of the statement");
  const first = statement.firstElementChild;
  if (first && first.tagName === "H1" && first.textContent.trim() === problem.title) first.remove();

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
      el("p", { class: "preview-checker" }, `Checker: ${checkerText(problem.checker)}`),
      el("h2", {}, "Public tests"), publicTests(problem),
      el("p", { class: "muted" }, `${problem.hidden_test_count} hidden tests are judged on Submit.`),
      hintsAndEditorial(problem)),
    version ? runPanel(slug, version.version, problem, signal) : null);
}
