// "Rejudge" on the authoring page: every submission judged again against the published version,
// asked for only once confirmed (saying how many, from GET /problems/{slug}/rejudge), its progress
// in a <progress> bar fed by GET /problems/{slug}/rejudges/latest once a second, and at its end
// the verdicts before -> after and the submissions whose verdict changed; and the hidden tests of
// a version, read-only.
import { api, sleep } from "../core/api.js";
import { shortVersion, verdictCountWords } from "./format.js";
import { dataTable, problemApi } from "./parts.js";
import { badge, el, link, submissionHref, timeText } from "../core/dom.js";
import { argumentsText, parseType, py } from "../problems/values.js";

const POLL_MS = 1000;

const verdictCell = (verdict) => (verdict ? badge(verdict, "verdict") : el("span", { class: "muted" }, "no verdict"));

// What a finished rejudge changed: counts per verdict, before -> after, and each changed submission.
function changesView(progress) {
  const verdicts = progress.verdicts || [];
  if (!verdicts.length) return el("p", { class: "muted" }, "This rejudge was asked for before the judge kept the verdicts it replaced.");
  const counts = dataTable("Verdicts before → after the rejudge", ["Verdict", "Before", "After"],
    verdicts.map((v) => [verdictCell(v.verdict), { number: v.before }, { number: v.after }]), "rejudge-counts");
  const changed = progress.changed || [];
  const more = progress.changed_total > changed.length ? ` (the first ${changed.length} of ${progress.changed_total})` : "";
  const list = changed.length
    ? dataTable(`${progress.changed_total} submission${progress.changed_total === 1 ? "" : "s"} changed verdict${more}`,
      ["Submission", "Learner", "Before", "After"],
      changed.map((c) => [link(submissionHref(c.id), `#${c.id}`, { "aria-label": `submission ${c.id}` }), c.user,
        verdictCell(c.before), verdictCell(c.after)]), "rejudge-changed")
    : el("p", { class: "good" }, "No verdict changed.");
  return el("div", { class: "rejudge-changes" }, counts, list);
}

export function rejudgePanel(slug, signal) {
  const bar = el("progress", { id: "rejudge-progress", max: "1", value: "0", "aria-labelledby": "rejudge-label" });
  const words = el("p", { id: "rejudge-words", class: "muted" });
  const status = el("p", { class: "form-state", role: "status" });
  const button = el("button", { type: "button" }, "Rejudge");
  const changes = el("div", { id: "rejudge-changes" });
  let following = false;

  const draw = (p) => {
    bar.max = Math.max(1, p.total);
    bar.value = p.total ? p.done : 1;
    words.textContent = `${p.done} of ${p.total} judged · ${p.queued} queued · ${p.running} running · ` +
      `against version ${p.version.slice(0, 10)}, asked for ${timeText(p.requested_at)}` +
      (p.requested_by ? ` by ${p.requested_by}` : "");
  };

  async function follow() {
    if (following) return;
    following = true;
    try {
      for (;;) {
        const progress = await api(`${problemApi(slug)}/rejudges/latest`, { signal });
        if (!progress) return; // nothing asked for yet (cannot happen after a POST; said on arrival)
        draw(progress);
        if (progress.done >= progress.total) {
          const counts = verdictCountWords(progress.verdicts);
          status.textContent = progress.total
            ? `Rejudge finished: ${progress.done} of ${progress.total} judged; ` +
              `${progress.changed_total} verdict${progress.changed_total === 1 ? "" : "s"} changed${counts ? ` (${counts})` : ""}.`
            : "There was nothing to rejudge.";
          changes.replaceChildren(progress.total ? changesView(progress) : "");
          return;
        }
        await sleep(POLL_MS, signal);
      }
    } finally {
      following = false;
    }
  }

  // Asks first, naming how many submissions will be judged again and against which version.
  async function confirmed() {
    const plan = await api(`${problemApi(slug)}/rejudge`, { signal });
    const many = `${plan.submissions} submission${plan.submissions === 1 ? "" : "s"}`;
    return window.confirm(`Rejudge ${many} of ${slug} against the published version ${shortVersion(plan.version)}? ` +
      "Each gets the verdict of that version; the verdicts they have now are replaced.");
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (!await confirmed()) {
        status.textContent = "Not rejudged: you cancelled.";
        return;
      }
      status.textContent = "Asking for a rejudge…";
      changes.replaceChildren();
      const done = await api(`${problemApi(slug)}/rejudge`, { method: "POST", signal });
      status.textContent = `Rejudging ${done.requeued} submissions against version ${done.version.slice(0, 10)}…`;
      await follow();
    } catch (error) {
      if (error.name !== "AbortError") status.textContent = `Not rejudged: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });

  // The latest rejudge on arrival, whoever asked for it and wherever, followed on while it runs;
  // null before the first.
  async function start() {
    try {
      const progress = await api(`${problemApi(slug)}/rejudges/latest`, { signal });
      if (!progress) {
        words.textContent = "Never rejudged.";
        return;
      }
      draw(progress);
      if (progress.done < progress.total) await follow();
      else if (progress.total) changes.replaceChildren(changesView(progress));
    } catch (error) {
      if (error.name !== "AbortError") words.textContent = `The latest rejudge could not be read: ${error.message}`;
    }
  }

  const element = el("section", { class: "author-box", "aria-labelledby": "rejudge-heading" },
    el("h2", { id: "rejudge-heading" }, "Rejudge"),
    el("p", { class: "muted" }, "Judges every run and submission of this problem again against the published version (tries are left alone)."),
    el("div", { class: "actions" }, button),
    el("div", { class: "rejudge-bar" }, el("span", { id: "rejudge-label" }, "Rejudge progress"), bar),
    words, status, changes);
  return { element, start };
}

// problem: a ProblemDetail of the owner (GET .../preview?version=), which holds hidden_tests.
export function hiddenTestsView(problem) {
  const tests = problem.hidden_tests || [];
  if (!tests.length) return el("p", { class: "muted" }, "This version has no hidden tests.");
  const returns = parseType(problem.returns);
  const table = dataTable(`${tests.length} hidden tests (read-only; edit tests/ in the files above)`,
    ["Name", "Arguments", "Expected", "Why"],
    tests.map((t) => [el("code", {}, t.name),
      el("pre", {}, argumentsText(t.args, t.kwargs, problem.parameters)),
      el("pre", {}, "raises" in t ? `raises ${t.raises}` : py(t.expected, returns)),
      t.explanation || ""]), "hidden-tests");
  // Folded: sixty tests of long arguments would bury the rest of the page.
  return el("details", { class: "hidden-tests-box" }, el("summary", {}, `Show the ${tests.length} hidden tests`), table);
}
