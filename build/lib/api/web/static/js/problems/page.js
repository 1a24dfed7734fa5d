// A problem: statement, signature, limits, public tests, hints and editorial, the editor, Run,
// Submit and Try, and the result: its verdict in the status next to the buttons as it changes,
// its details below them. A reload shows the latest submission to the problem again.
import { api } from "../core/api.js";
import { assignmentContext, countsForNotice } from "../assignments/banner.js";
import { currentUser } from "../account/user.js";
import { badge, el, link, notice, percent, problemHref, serverHtml, setTitle, show } from "../core/dom.js";
import { editor, loadDraft, saveDraft } from "./editor.js";
import { hintsAndEditorial } from "./hints.js";
import { copyControl } from "./copy.js";
import { holdButton, idempotencyKey } from "./inflight.js";
import { follow, liveStatus, resultView } from "../submissions/results.js";
import { isNarrow, tabs } from "./tabs.js";
import { tryInput } from "./tryinput.js";
import { argumentsText, parseType, py } from "./values.js";

const problemPath = (slug) => `/problems/${encodeURIComponent(slug)}`;

function limitsText(problem) {
  const { time_per_test: test, time_per_submission: all, memory_mb: memory } = problem.limits;
  return `${test} s per test · ${all} s per submission · ${memory} MB memory`;
}

export function checkerText(checker) {
  const tolerances = [];
  if (checker.abs_tol) tolerances.push(`absolute ${checker.abs_tol}`);
  if (checker.rel_tol) tolerances.push(`relative ${checker.rel_tol}`);
  return `${checker.name}${tolerances.length ? ` (tolerance: ${tolerances.join(", ")})` : ""}`;
}

// Also the authoring preview's (author/preview.js): one rendering of a problem's samples.
export function publicTests(problem) {
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
  api(`${problemPath(slug)}/stats`, { signal }).then((s) => {
    if (!s.submissions) return;
    const rate = s.acceptance_rate === null ? "" : `, ${percent(s.acceptance_rate)} accepted`;
    const interval = s.wilson_95 ? ` (95% interval ${percent(s.wilson_95[0])} to ${percent(s.wilson_95[1])})` : "";
    line.textContent = `${s.submissions} judged submissions${rate}${interval}`;
  }).catch(() => {}); // the statistics are a nicety; the page works without them
  return line;
}

function progressBadge(problem) {
  if (!problem.progress) return null;
  const best = typeof problem.best_score === "number" ? ` · best score ${problem.best_score.toFixed(2)}` : "";
  return el("span", { class: `progress progress-${problem.progress}` },
    problem.progress === "solved" ? "✓ solved" : "attempted", best);
}

function statementSection(problem) {
  // Server-rendered Markdown (raw HTML escaped): the page's only markup from the server.
  const statement = serverHtml(problem.statement_html, "statement rendered");
  const heading = statement.firstElementChild;
  if (heading && heading.tagName === "H1" && heading.textContent.trim() === problem.title) heading.remove();
  return statement;
}

// The signed-in user's own latest submission of the problem (never a learner's, for an
// instructor who may read theirs), in full, or null: shown again after a reload (followed if
// pending), and its code put in the editor of a browser that holds no draft.
async function latestSubmission(slug, signal) {
  const me = currentUser();
  if (!me) return null;
  const page = await api(`/submissions?${new URLSearchParams({ problem: slug, learner: me.name, limit: "1" })}`, { signal });
  const latest = page && page.items && page.items[0];
  return latest ? api(`/submissions/${latest.id}`, { signal }) : null;
}

// "Track: Overlap metrics · 3 of 16 · ← previous · next →", when the problem is in a track.
function trackNav(place) {
  if (!place) return null;
  return el("nav", { class: "track-nav", "aria-label": "Track" },
    "Track: ", link(`/?track=${encodeURIComponent(place.slug)}`, place.title),
    ` · problem ${place.position} of ${place.total}`,
    place.previous ? [" · ", link(problemHref(place.previous), "← previous", { rel: "prev" })] : null,
    place.next ? [" · ", link(problemHref(place.next), "next →", { rel: "next" })] : null);
}

export async function problemPage(slug, signal) {
  setTitle(slug);
  let problem = await api(problemPath(slug), { signal });
  setTitle(problem.title);

  // The status beside the buttons is the live region; the panel takes the focus a held button
  // gives up (tabindex -1: reachable by script, never a tab stop).
  const panel = el("div", { class: "result-panel", tabindex: "-1", "aria-label": "Result" },
    el("p", { class: "muted" }, "Run checks the public tests; Submit judges every test."));
  const status = el("span", { class: "verdict-status", role: "status" });
  const holds = {}; // mode -> the hold on its button (problems/inflight.js): one submission in flight each
  let shown = null; // the id of the submission the panel shows: the newest one sent
  let sentHere = false; // sent from this page since it loaded, so the reload's latest is not shown
  let layout = null;
  const help = el("div");
  let helpNode = null;
  const drawHelp = () => {
    helpNode = hintsAndEditorial(problem, signal);
    help.replaceChildren(helpNode);
  };

  const draft = loadDraft(slug);
  // The editor: { element, value, goToLine(line, column), focus() } (problems/editor.js).
  const code = editor(draft ?? problem.starter, (text) => saveDraft(slug, text), (mode) => send(mode));
  const goToLine = (line, column) => {
    if (isNarrow()) layout.select("Code");
    code.goToLine(line, column);
  };

  const say = liveStatus(status); // the ticking seconds stay out of the live region
  const publicNames = problem.public_tests.map((t) => t.name);
  const draw = (submission, elapsed) => {
    say.show(submission);
    panel.replaceChildren(resultView(submission, problem.parameters, { elapsed, goToLine }));
    if (submission.status === "done" && submission.mode !== "try") {
      const failing = (submission.tests || []).filter((t) => t.status !== "passed" && publicNames.includes(t.name));
      helpNode?.offerFor?.(failing.map((t) => t.name));
    }
  };
  const reveal = () => {
    if (isNarrow()) {
      layout.select("Results");
      panel.scrollIntoView({ block: "start" });
      return;
    }
    // The status beside the buttons shows the verdict; bring the details below it into view too,
    // keeping the buttons (and that status) on the screen.
    const box = panel.getBoundingClientRect();
    if (box.top > window.innerHeight - 160) actions.scrollIntoView({ block: "start", behavior: "smooth" });
  };
  // Follows a submission to its verdict. Each is followed to its end, so that its button is held
  // until then; only the newest draws, so a Run sent while a Submit is judged takes the panel.
  const track = async (submission, sentNow) => {
    shown = submission.id;
    const mine = () => shown === submission.id;
    try {
      const done = await follow(submission, (s, elapsed) => { if (mine()) draw(s, elapsed); }, signal);
      if (sentNow && done.mode === "submit") {
        // Solved, a better best score, the editorial open: the header says so without a reload.
        problem = await api(problemPath(slug), { signal });
        progressSlot.replaceChildren(progressBadge(problem) ?? "");
        drawHelp();
      }
    } catch (error) {
      if (error.name !== "AbortError" && mine()) panel.replaceChildren(notice(error.message, "error"));
    }
  };
  // Sends one submission for a button and holds that button until its verdict or its refusal.
  const post = async (body, label) => {
    const held = holds[body.mode];
    if (held?.busy) return;
    const lost = document.activeElement;
    held?.hold();
    // A disabled button drops the focus to the page's body: keyboard and screen reader users
    // go on from the result instead. Ctrl+Enter from the editor keeps the editor focused.
    if (lost instanceof HTMLButtonElement && lost.disabled) panel.focus({ preventScroll: true });
    sentHere = true;
    say.say(label);
    panel.replaceChildren(el("p", { class: "muted" }, label));
    reveal();
    let created;
    try {
      created = await api("/submissions", { method: "POST", json: { problem: slug, code: code.value, ...body },
        headers: { "Idempotency-Key": idempotencyKey() }, signal });
    } catch (error) {
      held?.release();
      if (error.name !== "AbortError") {
        // The refusal keeps the panel: a submission still followed must not draw over it.
        shown = null;
        const tried = body.mode === "try"; // the try form shows its refusal under the fields
        say.say(`Not sent: see the message ${tried ? "under the form" : "below"}`);
        panel.replaceChildren(tried ? el("p", { class: "muted" }, "Not tried: the message is under the form.")
          : notice(error.message, "error"));
      }
      throw error;
    }
    try {
      await track(created, true);
    } finally {
      held?.release();
    }
  };
  const assignment = assignmentContext(slug, signal); // ?assignment=ID: a banner, and Submit counts for it
  const send = (mode) => post({ mode, ...assignment.fields(mode) }, mode === "run" ? "Sending to run…" : "Submitting…").catch(() => {});
  // The try form holds its own button around this call (problems/tryinput.js), so its hold is not here.
  const tryForm = tryInput(problem, (values) => post({ mode: "try", arguments: values }, "Trying your arguments…"));

  const run = el("button", { type: "button", onclick: () => send("run") }, "Run");
  const submit = el("button", { type: "button", class: "primary", onclick: () => send("submit") }, "Submit");
  const reset = el("button", {
    type: "button", class: "quiet",
    onclick: () => {
      if (code.value === problem.starter || window.confirm("Replace your code with the starter code?")) {
        code.value = problem.starter;
        saveDraft(slug, problem.starter);
      }
    },
  }, "Reset to starter");
  holds.run = holdButton(run);
  holds.submit = holdButton(submit);
  const actions = el("div", { class: "actions" }, run, submit, tryForm.toggle, reset, status);

  const statementPanel = el("section", { class: "left" },
    statementSection(problem),
    el("h2", {}, "Signature"), el("pre", { class: "signature" }, problem.signature),
    el("h2", {}, "Limits"),
    el("p", {}, limitsText(problem)),
    el("p", {}, `Checker: ${checkerText(problem.checker)}`),
    el("h2", {}, "Public tests"),
    publicTests(problem),
    el("p", { class: "muted" }, `${problem.hidden_test_count} hidden tests are judged on Submit.`),
    help);
  const codeNote = el("p", { class: "muted code-note" });
  const progressSlot = el("span", { class: "progress-slot" }, progressBadge(problem));
  const codePanel = el("div", { class: "code-panel" },
    el("div", { class: "code-head" },
      el("h2", {}, "Your solution"),
      el("span", { class: "muted time-limit" }, `Time limit: ${problem.limits.time_per_test} s per test`)),
    codeNote,
    code.element,
    actions,
    el("p", { class: "muted keys" }, "Ctrl+Enter runs · Ctrl+Shift+Enter submits · Esc, then Tab, leaves the editor"),
    tryForm.form);
  const resultsPanel = el("div", { class: "results-panel" }, el("h2", {}, "Result"), panel);
  layout = tabs([
    { name: "Statement", node: statementPanel },
    { name: "Code", node: codePanel },
    { name: "Results", node: resultsPanel },
  ], draft === null ? "Statement" : "Code"); // a returning learner goes on with the code
  drawHelp();

  const skip = link("#code", "Skip to the code editor", {
    class: "skip-link",
    onclick: (event) => {
      event.preventDefault();
      if (isNarrow()) layout.select("Code");
      code.focus();
    },
  });
  show(
    skip,
    assignment.banner || countsForNotice(problem.counts_for),
    el("div", { class: "problem-head" },
      el("h1", {}, problem.title),
      el("p", { class: "meta" }, badge(problem.difficulty, "difficulty"),
        problem.tags.map((t) => el("span", { class: "tag" }, t)),
        problem.published ? null : el("span", { class: "tag draft" }, "draft"),
        progressSlot,
        link(`${problemPath(slug)}/history`, "history and diffs"),
        link(`/submissions?problem=${encodeURIComponent(slug)}`, "all my submissions")),
      statsLine(slug, signal),
      trackNav(problem.track),
      copyControl(problem, signal)),
    layout.bar,
    el("div", { class: "columns" }, statementPanel, el("section", { class: "right" }, codePanel, resultsPanel)));

  // After a reload: the latest submission again (followed live if still pending, its button held
  // until its verdict), unless the learner has already sent a new one.
  latestSubmission(slug, signal).then((latest) => {
    if (!latest) return;
    // In a browser that holds no draft of it (another device, a cleared browser), the editor
    // opens with the learner's last submitted code instead of the starter, unless they have
    // begun to type.
    if (draft === null && code.value === problem.starter && typeof latest.code === "string") {
      code.value = latest.code;
      saveDraft(slug, latest.code);
      codeNote.textContent = `Your code from submission #${latest.id} is in the editor; Reset to starter gives the starter back.`;
    }
    if (sentHere) return;
    const held = latest.status !== "done" && !holds[latest.mode]?.busy ? holds[latest.mode] : null;
    held?.hold();
    track(latest, false).finally(() => held?.release());
  }).catch(() => {}); // a nicety: the page works without it
}
