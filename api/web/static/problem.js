// A problem: statement, signature, limits, public tests, the editor, Run and Submit, the result.
import { api } from "./api.js";
import { badge, el, link, notice, percent, setTitle, show } from "./dom.js";
import { editor, loadDraft, saveDraft } from "./editor.js";
import { follow } from "./results.js";
import { argumentsText, parseType, py } from "./values.js";

function limitsText(problem) {
  const { time_per_test: test, time_per_submission: all, memory_mb: memory } = problem.limits;
  return `${test} s per test · ${all} s per submission · ${memory} MB memory`;
}

function checkerText(checker) {
  const tolerances = [];
  if (checker.abs_tol) tolerances.push(`absolute ${checker.abs_tol}`);
  if (checker.rel_tol) tolerances.push(`relative ${checker.rel_tol}`);
  return `${checker.name}${tolerances.length ? ` (tolerance: ${tolerances.join(", ")})` : ""}`;
}

function publicTests(problem) {
  const returns = parseType(problem.returns);
  return el("ol", { class: "tests samples" }, problem.public_tests.map((t) => el("li", { class: "test" },
    el("div", { class: "test-head" }, el("span", { class: "test-name" }, t.name)),
    el("dl", { class: "test-detail" },
      el("dt", {}, "Arguments"), el("dd", {}, el("pre", {}, argumentsText(t.args, t.kwargs, problem.parameters))),
      el("dt", {}, "Expected"), el("dd", {}, el("pre", {}, "raises" in t ? `raises ${t.raises}` : py(t.expected, returns))),
      t.explanation ? [el("dt", {}, "Why"), el("dd", {}, t.explanation)] : null))));
}

function statsLine(slug, signal) {
  const line = el("p", { class: "muted stats" });
  api(`/problems/${encodeURIComponent(slug)}/stats`, { signal }).then((s) => {
    if (!s.submissions) return;
    const rate = s.acceptance_rate === null ? "" : `, ${percent(s.acceptance_rate)} accepted`;
    const interval = s.wilson_95 ? ` (95% interval ${percent(s.wilson_95[0])} to ${percent(s.wilson_95[1])})` : "";
    line.textContent = `${s.submissions} judged submissions${rate}${interval}`;
  }).catch(() => {}); // the statistics are a nicety; the page works without them
  return line;
}

export async function problemPage(slug, signal) {
  setTitle(slug);
  const problem = await api(`/problems/${encodeURIComponent(slug)}`, { signal });
  setTitle(problem.title);
  const statement = el("div", { class: "statement" });
  // The one place markup from the server is used: markdown-it output with raw HTML escaped.
  statement.innerHTML = problem.statement_html;
  const heading = statement.firstElementChild;
  if (heading && heading.tagName === "H1" && heading.textContent.trim() === problem.title) heading.remove();

  const panel = el("div", { class: "result-panel", "aria-live": "polite" },
    el("p", { class: "muted" }, "Run checks the public tests; Submit judges every test."));
  let following = null; // the submission being polled; a new one replaces it
  const buttons = [];
  const send = async (mode) => {
    if (buttons.some((b) => b.disabled)) return;
    if (following) following.abort();
    const mine = (following = new AbortController());
    const signals = AbortSignal.any ? AbortSignal.any([signal, mine.signal]) : mine.signal;
    buttons.forEach((b) => { b.disabled = true; });
    panel.replaceChildren(el("p", { class: "muted" }, mode === "run" ? "Sending to run…" : "Submitting…"));
    try {
      const created = await api("/submissions", { method: "POST", json: { problem: slug, code: area.value, mode }, signal: signals });
      buttons.forEach((b) => { b.disabled = false; });
      await follow(created, panel, problem.parameters, signals);
    } catch (error) {
      if (error.name !== "AbortError") panel.replaceChildren(notice(error.message, "error"));
    } finally {
      // A send that a newer one replaced must not re-enable the buttons while that one is posting.
      if (following === mine) buttons.forEach((b) => { b.disabled = false; });
    }
  };
  const area = editor(loadDraft(slug) ?? problem.starter, (code) => saveDraft(slug, code), send);
  const run = el("button", { type: "button", onclick: () => send("run") }, "Run");
  const submit = el("button", { type: "button", class: "primary", onclick: () => send("submit") }, "Submit");
  const reset = el("button", {
    type: "button", class: "quiet",
    onclick: () => {
      if (area.value === problem.starter || window.confirm("Replace your code with the starter code?")) {
        area.value = problem.starter;
        saveDraft(slug, area.value);
      }
    },
  }, "Reset to starter");
  buttons.push(run, submit);

  show(
    el("div", { class: "problem-head" },
      el("h1", {}, problem.title),
      el("p", { class: "meta" }, badge(problem.difficulty, "difficulty"),
        problem.tags.map((t) => el("span", { class: "tag" }, t)),
        problem.published ? null : el("span", { class: "tag draft" }, "draft"),
        link(`/submissions?problem=${encodeURIComponent(slug)}`, "my submissions to this problem")),
      statsLine(slug, signal)),
    el("div", { class: "columns" },
      el("section", { class: "left" },
        statement,
        el("h2", {}, "Signature"), el("pre", { class: "signature" }, problem.signature),
        el("h2", {}, "Limits"),
        el("p", {}, limitsText(problem)),
        el("p", {}, `Checker: ${checkerText(problem.checker)}`),
        el("h2", {}, "Public tests"),
        publicTests(problem),
        el("p", { class: "muted" }, `${problem.hidden_test_count} hidden tests are judged on Submit.`)),
      el("section", { class: "right" },
        el("h2", {}, "Your solution"),
        area.element,
        el("div", { class: "actions" }, run, submit, reset,
          el("span", { class: "muted hint" }, "Tab indents · Ctrl+Enter runs · Ctrl+Shift+Enter submits · Esc, Tab leaves")),
        el("h2", {}, "Result"),
        panel)));
}
