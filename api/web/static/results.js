// A submission's verdict, score and per-test rows, exactly as the API returns them (hidden tests
// arrive as an aggregate: how many passed and the first failure's category), and the events
// stream (or, failing that, the polling) that keeps them current.
import { ApiError, api, eventStream, sleep } from "./api.js";
import { badge, el, link, submissionHref } from "./dom.js";
import { argumentsText } from "./values.js";

const POLL_WAIT_SECONDS = 10;

function testDetails(test, parameters) {
  const rows = [];
  const add = (name, text, preformatted) => {
    if (text === undefined || text === null || text === "") return;
    rows.push(el("dt", {}, name), el("dd", {}, preformatted ? el("pre", {}, text) : text));
  };
  if ("args" in test || "kwargs" in test) add("Arguments", argumentsText(test.args, test.kwargs, parameters), true);
  if ("expected_repr" in test) add("Expected", test.expected_repr, true);
  // Only a returned value has an "actual"; for a crash or a limit the explanation says what happened.
  if ("actual_repr" in test && ["passed", "wrong_answer"].includes(test.status)) {
    add("Actual", test.actual_repr, true);
  }
  if (test.status !== "passed") add("Explanation", test.explanation, true);
  add("Printed", test.stdout, true);
  add("About this test", test.note);
  return rows;
}

function testRow(test, parameters) {
  const hidden = test.visibility === "hidden";
  const head = [
    badge(test.status, "status"),
    el("span", { class: "test-name" }, test.name),
    hidden ? el("span", { class: "tag" }, "hidden") : null,
    test.status !== "passed" && test.category ? el("span", { class: "category" }, test.category) : null,
    typeof test.seconds === "number" ? el("span", { class: "muted seconds" }, `${test.seconds.toFixed(3)} s`) : null,
  ];
  const rows = testDetails(test, parameters);
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

export function resultView(submission, parameters, elapsed) {
  const done = submission.status === "done";
  const tests = submission.tests || [];
  const hidden = submission.hidden;
  const total = tests.length + (hidden ? hidden.total : 0);
  const passed = tests.filter((t) => t.status === "passed").length + (hidden ? hidden.passed : 0);
  const head = el("div", { class: "result-head" },
    done ? badge(submission.verdict, "verdict") : badge(submission.status, "pending"),
    done && typeof submission.score === "number"
      ? el("span", { class: "score" }, `score ${submission.score.toFixed(2)}`,
        total ? el("span", { class: "muted" }, ` (${passed} of ${total} tests passed)`) : null)
      : el("span", { class: "muted" }, elapsed === undefined ? "waiting for the judge" : `waiting for the judge · ${elapsed} s`),
    el("span", { class: "tag" }, submission.mode === "run" ? "run: public tests" : "submit: all tests"),
    link(submissionHref(submission.id), `#${submission.id}`, { class: "muted" }));
  return el("div", { class: "result" },
    head,
    submission.message ? el("pre", { class: "message" }, submission.message) : null,
    hiddenSummary(hidden),
    tests.length
      ? el("details", { class: "test-list", open: submission.verdict !== "accepted" },
        el("summary", {}, `Tests (${tests.length})`),
        el("ol", { class: "tests" }, tests.map((t) => testRow(t, parameters))))
      : null);
}

// Follows the submission until the verdict is in, redrawing the panel; stops when signal is
// aborted. It reads the events stream (each status change as it happens); if the stream fails
// (a proxy that buffers it, a network hiccup) it polls ?wait= instead.
export async function follow(submission, panel, parameters, signal) {
  const started = Date.now();
  const draw = () => {
    const elapsed = Math.round((Date.now() - started) / 1000);
    panel.replaceChildren(resultView(submission, parameters, elapsed));
  };
  draw();
  const ticker = setInterval(draw, 1000);
  let streaming = true;
  let failures = 0;
  try {
    while (submission.status !== "done") {
      if (streaming) {
        try {
          let received = 0;
          for await (const { event, data } of eventStream(`/submissions/${submission.id}/events`, signal)) {
            if (event !== "status") continue;
            const update = JSON.parse(data);
            // Until done an event carries id, status, verdict and score; the last one, everything.
            submission = update.status === "done" ? update : { ...submission, ...update };
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
        submission = await api(`/submissions/${submission.id}?wait=${POLL_WAIT_SECONDS}`, { signal });
        failures = 0;
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status > 0 && error.status < 500)) throw error;
        failures += 1; // the network or the server hiccuped: back off and ask again
        await sleep(Math.min(30, 2 ** failures) * 1000, signal);
      }
    }
  } finally {
    clearInterval(ticker);
  }
  panel.replaceChildren(resultView(submission, parameters));
  return submission;
}
