// A submission's verdict, score and per-test rows, exactly as the API returns them (hidden tests
// arrive as an aggregate: how many passed and the first failure's category), a one-line summary
// for the status next to the buttons, and the events stream (or, failing that, the polling)
// that keeps them current.
import { ApiError, api, eventStream, sleep } from "../core/api.js";
import { badge, el, label, link, submissionHref } from "../core/dom.js";
import { withLineLinks } from "./lines.js";
import { argumentsText } from "../problems/values.js";

const POLL_WAIT_SECONDS = 10;
const MODES = { run: "run: public tests", submit: "submit: all tests", try: "try: your arguments" };

// Text the judge wrote that may cite lines of the learner's code.
const cited = (text, goToLine) => el("pre", {}, withLineLinks(text, goToLine));

// A value as stored: its text, cut to a stated size for a large value, with the note that says so.
const shownValue = (text, note) => (note
  ? [el("pre", {}, text), el("p", { class: "muted value-note" }, note)]
  : el("pre", {}, text ?? ""));

function testDetails(test, parameters, goToLine) {
  const rows = [];
  const add = (name, content) => {
    if (content === undefined || content === null || content === "") return;
    rows.push(el("dt", {}, name), el("dd", {}, content));
  };
  const pre = (text) => (text === undefined || text === null || text === "" ? null : el("pre", {}, text));
  if ("args" in test || "kwargs" in test) add("Arguments", pre(argumentsText(test.args, test.kwargs, parameters)));
  if ("expected_repr" in test) add("Expected", shownValue(test.expected_repr, test.expected_note));
  // Only a returned value has an "actual"; for a crash or a limit the explanation says what happened.
  if (test.actual_repr != null && ["passed", "wrong_answer"].includes(test.status)) add("Actual", shownValue(test.actual_repr, test.actual_note));
  if (test.status !== "passed" && test.explanation) add("Explanation", cited(test.explanation, goToLine));
  add("Printed", pre(test.stdout));
  add("About this test", test.note);
  add("Not kept", test.budget_note);
  return rows;
}

function testRow(test, parameters, goToLine) {
  const hidden = test.visibility === "hidden";
  const head = [
    badge(test.status, "status"),
    el("span", { class: "test-name" }, test.name),
    hidden ? el("span", { class: "tag" }, "hidden") : null,
    test.status !== "passed" && test.category ? el("span", { class: "category" }, test.category) : null,
    typeof test.seconds === "number" ? el("span", { class: "muted seconds" }, `${test.seconds.toFixed(3)} s`) : null,
  ];
  const rows = testDetails(test, parameters, goToLine);
  if (!rows.length) return el("li", { class: "test" }, el("div", { class: "test-head" }, head));
  const failedPublic = !hidden && test.status !== "passed";
  return el("li", { class: "test" },
    el("details", { open: failedPublic },
      el("summary", { class: "test-head" }, head),
      el("dl", { class: "test-detail" }, rows)));
}

function hiddenSummary(hidden) {
  if (!hidden || !hidden.total) return null;
  let text = `Hidden tests: ${hidden.passed} of ${hidden.total} passed`;
  if (hidden.not_run) text += `, ${hidden.not_run} not run`;
  if (hidden.first_failure) text += `. First failure: ${hidden.first_failure}`;
  return el("p", { class: "hidden-summary" }, text);
}

// Bytes as a reader takes them in: "14.2 MB".
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// The learner's process at its peak over the tests listed (the API leaves hidden ones out).
const peakMemory = (submission) => (typeof submission.peak_memory_bytes === "number"
  ? el("span", { class: "muted memory", title: "your process's peak resident memory over the tests shown" },
    `peak memory ${megabytes(submission.peak_memory_bytes)}`)
  : null);

function counts(submission) {
  const tests = submission.tests || [];
  const hidden = submission.hidden;
  return {
    total: tests.length + (hidden ? hidden.total : 0),
    passed: tests.filter((t) => t.status === "passed").length + (hidden ? hidden.passed : 0),
  };
}

// A try: the learner's value beside the reference's, on the learner's own arguments.
function tryView(submission, parameters, goToLine) {
  const test = (submission.tests || []).find((t) => t.visibility === "custom") || (submission.tests || [])[0];
  if (!test) return null;
  const value = (repr, raw, note) => shownValue(repr ?? JSON.stringify(raw) ?? "", note);
  const returned = ["passed", "wrong_answer"].includes(test.status) && test.actual_repr != null;
  return el("div", { class: "try-result" },
    el("dl", { class: "test-detail" },
      el("dt", {}, "Arguments"), el("dd", {}, el("pre", {}, argumentsText(test.args, test.kwargs, parameters)))),
    el("div", { class: "side-by-side" },
      el("section", {}, el("h3", {}, "Your function"),
        returned ? value(test.actual_repr, null, test.actual_note)
          : el("p", {}, test.budget_note || label(test.status))),
      el("section", {}, el("h3", {}, "The reference"), value(test.expected_repr, test.expected, test.expected_note))),
    test.status === "passed"
      ? el("p", { class: "good" }, "Same value as the reference.")
      : test.explanation ? el("div", { class: "explanation" }, el("h3", {}, "Why they differ"), cited(test.explanation, goToLine)) : null,
    test.stdout ? el("div", {}, el("h3", {}, "Printed"), el("pre", {}, test.stdout)) : null);
}

// Handed in after the learner's due time: marked, with what it costs in the gradebook.
export function lateTag(submission) {
  if (submission.excused) return el("span", { class: "tag" }, "late, excused");
  if (!submission.late || submission.mode !== "submit") return null;
  // A score set by hand counts as it is: lateness costs it nothing.
  const byHand = typeof submission.score_override === "number";
  return el("span", { class: "tag late" }, submission.penalty && !byHand ? `late: −${submission.penalty}% of the score` : "late");
}

// Judged for an assignment whose instructors hold its grades: the API leaves the verdict, score,
// tests and feedback out until they release them, and the page says so rather than showing "done".
export const HELD_TEXT = "judged; the result is held until your instructors release the grades";
export const heldTag = () => el("span", { class: "tag held" }, "held");

// A try is never graded: its outcome is said in words, never with a verdict's badge (an
// "accepted" there would read as a graded result).
const TRIED = { accepted: "matches the reference", wrong_answer: "differs from the reference" };
export const tryOutcome = (submission) =>
  el("span", { class: "tag try-outcome" }, TRIED[submission.verdict] || label(submission.verdict));

// options: elapsed (seconds waited so far, while pending), goToLine(line, column) for citations.
export function resultView(submission, parameters, options) {
  const { elapsed, goToLine } = options || {};
  const done = submission.status === "done";
  const tests = submission.tests || [];
  const { total, passed } = counts(submission);
  const isTry = submission.mode === "try";
  if (done && submission.held) {
    return el("div", { class: "result" }, el("div", { class: "result-head" }, heldTag(),
      el("span", { class: "muted" }, HELD_TEXT), lateTag(submission),
      link(submissionHref(submission.id), `#${submission.id}`, { class: "muted" })));
  }
  const head = el("div", { class: "result-head" },
    done ? (isTry ? tryOutcome(submission) : badge(submission.verdict, "verdict")) : badge(submission.status, "pending"),
    done && typeof submission.score === "number" && !isTry
      ? el("span", { class: "score" }, `score ${submission.score.toFixed(2)}`,
        total ? el("span", { class: "muted" }, ` (${passed} of ${total} tests passed)`) : null)
      : done ? null : el("span", { class: "muted" }, elapsed === undefined ? "waiting for the judge" : `waiting for the judge · ${elapsed} s`),
    done ? peakMemory(submission) : null,
    el("span", { class: "tag" }, MODES[submission.mode] || submission.mode),
    lateTag(submission),
    link(submissionHref(submission.id), `#${submission.id}`, { class: "muted" }));
  return el("div", { class: "result" },
    head,
    submission.message ? el("pre", { class: "message" }, withLineLinks(submission.message, goToLine)) : null,
    isTry && done ? tryView(submission, parameters, goToLine) : null,
    isTry ? null : hiddenSummary(submission.hidden),
    tests.length && !isTry
      ? el("details", { class: "test-list", open: submission.verdict !== "accepted" },
        el("summary", {}, `Tests (${tests.length})`),
        el("ol", { class: "tests" }, tests.map((t) => testRow(t, parameters, goToLine))))
      : null);
}

const short = (text) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

// The few words for the status next to the buttons: what is happening now, or the verdict (and,
// for a try, both values). It changes only when the state does, so a screen reader hears each once.
function statusLine(submission) {
  if (submission.status === "queued") return [badge("queued", "pending"), " waiting for a worker"];
  if (submission.status !== "done") return [badge(submission.status, "pending"), " judging"];
  if (submission.held) return [heldTag(), ` ${HELD_TEXT}`];
  const { total, passed } = counts(submission);
  const parts = [submission.mode === "try" ? tryOutcome(submission) : badge(submission.verdict, "verdict")];
  if (submission.mode === "try") {
    const test = (submission.tests || [])[0];
    if (test) {
      const returned = ["passed", "wrong_answer"].includes(test.status) && test.actual_repr != null;
      parts.push(` yours: ${returned ? short(test.actual_repr) : label(test.status)}`,
        ` · the reference: ${short(test.expected_repr ?? JSON.stringify(test.expected))}`);
    }
  } else if (typeof submission.score === "number") {
    parts.push(` score ${submission.score.toFixed(2)}`, total ? ` (${passed} of ${total} tests passed)` : "");
  }
  return parts;
}

// Follows the submission until the verdict is in, calling onChange(submission, elapsed) on each
// change and every second while it waits; stops when signal is aborted. It reads the events
// stream (each status change as it happens); if the stream fails (a proxy that buffers it, a
// network hiccup) it polls ?wait= instead. Returns the finished submission.
export async function follow(submission, onChange, signal) {
  const started = Date.now();
  const draw = () => onChange(submission, Math.round((Date.now() - started) / 1000));
  draw();
  const ticker = setInterval(draw, 1000);
  let streaming = true;
  let failures = 0;
  let lastEventId = ""; // a stream opened again resumes after the last event it had
  try {
    while (submission.status !== "done") {
      if (streaming) {
        try {
          let received = 0;
          const path = `/submissions/${submission.id}/events`;
          for await (const { event, data, id } of eventStream(path, signal, lastEventId)) {
            if (event !== "status" && event !== "done") continue;
            const update = JSON.parse(data);
            // A status event carries id, status, verdict and score; the done event, everything.
            submission = event === "done" ? update : { ...submission, ...update };
            lastEventId = id;
            received += 1;
            draw();
          }
          if (!received) throw new Error("the events stream ended before its first event");
          // Ended without a verdict (the stream's time was up): open it again.
        } catch (error) {
          if (error.name === "AbortError") throw error;
          streaming = false; // poll from now on
        }
        continue;
      }
      try {
        submission = await api(`/submissions/${submission.id}?wait=${POLL_WAIT_SECONDS}&until=change`, { signal });
        failures = 0;
        draw();
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status > 0 && error.status < 500)) throw error;
        failures += 1; // the network or the server hiccuped: back off and ask again
        await sleep(Math.min(30, 2 ** failures) * 1000, signal);
      }
    }
  } finally {
    clearInterval(ticker);
  }
  onChange(submission, undefined);
  return submission;
}

// The status next to the buttons (a role="status" live region): show(submission) or say(text)
// change it only when its words change, so a screen reader hears each state once, not every tick.
export function liveStatus(node) {
  let said = "";
  const put = (parts) => {
    const text = parts.map((part) => (typeof part === "string" ? part : part.textContent)).join("");
    if (text !== said) node.replaceChildren(...parts);
    said = text;
  };
  return { show: (submission) => put(statusLine(submission)), say: (text) => put([text]) };
}

// Shows a submission in a panel, its state in a status region, and keeps both current: the
// submission page's view.
export function followInto(panel, statusNode, submission, parameters, signal) {
  const status = liveStatus(statusNode);
  return follow(submission, (s, elapsed) => {
    status.show(s);
    panel.replaceChildren(resultView(s, parameters, { elapsed }));
  }, signal);
}
