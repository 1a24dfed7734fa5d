// The authoring page's versions: a table of every version with its status, the validation report
// of one (the reference's verdict, determinism, each wrong solution's declared and actual verdict,
// the test counts, the failures), Publish, Roll back (with a confirmation), and following a new
// draft's validation until it is valid or invalid.
import { api, sleep } from "../core/api.js";
import { shortVersion, versionActions } from "./format.js";
import { authorHref, dataTable, problemApi, statusBadge } from "./parts.js";
import { badge, el, label, timeText } from "../core/dom.js";

const POLL_MS = 1000;

const yesNo = (value) => (value === null || value === undefined ? "not checked" : value ? "yes" : "no");

// A verdict that hangs on the hidden tests' random order: what this run got, and every verdict
// another order could give.
// Where it is not what was declared, the test that decided it and what the judge said of it.
const gotCell = (wrong) => ((wrong.could_get || []).length > 1
  ? [label(wrong.got), el("span", { class: "muted" }, ` (by the order of the hidden tests: ${wrong.could_get.join(" or ")})`)]
  : [label(wrong.got), !wrong.ok && wrong.decided_by
    ? el("div", { class: "muted decided-by" }, "test ", el("code", {}, wrong.decided_by.test), `: ${wrong.decided_by.detail}`)
    : null]);

function reportView(detail) {
  const report = detail.validation;
  const title = el("h3", { id: "report-heading" }, `Validation report of version ${shortVersion(detail.version)}`);
  if (detail.status === "draft" || !report) {
    return [title, el("p", {}, statusBadge(detail.status), " The sandbox is validating this version…")];
  }
  const reference = report.reference;
  const facts = el("dl", { class: "report-facts" },
    el("dt", {}, "Status"), el("dd", {}, statusBadge(detail.status), detail.published ? " (published)" : ""),
    el("dt", {}, "Reference solution"),
    el("dd", {}, reference
      ? [badge(reference.verdict, "verdict"), ` score ${Number(reference.score).toFixed(2)}`,
        reference.total !== null && reference.total !== undefined ? ` (${reference.passed} of ${reference.total} tests passed)` : ""]
      : "not run"),
    el("dt", {}, "Deterministic"), el("dd", {}, yesNo(report.deterministic),
      report.deterministic === false ? " (two runs of the reference disagreed)" : ""),
    el("dt", {}, "Public tests"), el("dd", {}, report.public_tests ?? "unknown"),
    el("dt", {}, "Hidden tests"), el("dd", {}, report.hidden_tests ?? "unknown"),
    report.validated_at ? [el("dt", {}, "Validated"), el("dd", {}, timeText(report.validated_at))] : null,
    report.source ? [el("dt", {}, "Source"), el("dd", {}, report.source)] : null);
  const wrong = (report.wrong || []).length
    ? [el("p", {}, "Each wrong solution must get the verdict its first line declares."),
      dataTable("Wrong solutions", ["File", "Declared", "Got", "Result"],
      report.wrong.map((w) => [el("code", {}, w.file), label(w.declared), gotCell(w),
        el("span", { class: w.ok ? "ok" : "not-ok" }, w.ok ? "✓ ok" : "✗ not ok")]), "wrong-table")]
    : el("p", { class: "muted" }, "No wrong solutions were checked.");
  const formulas = (report.formulas || []).length
    ? [el("h4", {}, "Formulas that cannot be rendered"),
      dataTable("Formulas learners would see as code", ["File", "Where", "Formula", "Why"],
        report.formulas.map((f) => [el("code", {}, f.file),
          f.hint ? `hint ${f.hint}, line ${f.line} of the hint` : `line ${f.line}`,
          el("code", {}, f.formula), f.reason]), "formula-table")]
    : null;
  const failures = (report.failures || []).length
    ? [el("h4", {}, "Failures"), el("ul", { class: "failures" }, report.failures.map((f) => el("li", {}, el("pre", {}, f))))]
    : el("p", { class: "good" }, "No failures: the version passed validation.");
  return [title, facts, wrong, formulas, failures];
}

// versionsPanel(slug, signal, { onEdit(version), onListed(versions) }) -> { element, refresh(),
// follow(version) }. onListed hears every fresh list, so the page's header follows Publish.
export function versionsPanel(slug, signal, { onEdit, onListed }) {
  const status = el("p", { class: "form-state", role: "status" });
  const tableBox = el("div");
  const report = el("section", { class: "report", "aria-labelledby": "report-heading" });
  let versions = [];
  let shown = null; // the version whose report is shown

  async function showReport(version) {
    shown = version;
    const detail = await api(`${problemApi(slug)}/versions/${encodeURIComponent(version)}`, { signal });
    if (shown === version) report.replaceChildren(...reportView(detail).flat().filter((node) => node !== null));
    return detail;
  }

  async function publish(version, action) {
    const short = shortVersion(version);
    if (action === "roll back" && !window.confirm(
      `Roll back to version ${short}? Learners see it from now on; the version published now stays in the list.`)) return;
    status.textContent = `${action === "roll back" ? "Rolling back to" : "Publishing"} version ${short}…`;
    try {
      await api(`${problemApi(slug)}/publish`, { method: "POST", json: { version }, signal });
      await refresh(); // the table first, so what is announced is what is shown
      status.textContent = `Version ${short} is published.`;
    } catch (error) {
      if (error.name !== "AbortError") status.textContent = `Not published: ${error.message}`;
    }
  }

  function drawTable() {
    const actions = versionActions(versions);
    const rows = versions.map((v, i) => ({ v, action: actions[i] })).reverse(); // newest first
    const cell = ({ v, action }) => {
      const short = shortVersion(v.version);
      const named = (text) => [text, el("span", { class: "sr-only" }, ` version ${short}`)];
      return el("div", { class: "author-actions" },
        el("button", { type: "button", class: "quiet", onclick: () => showReport(v.version).catch(() => {}) }, named("Report")),
        el("button", { type: "button", class: "quiet", onclick: () => onEdit(v.version) }, named("Edit")),
        el("a", { href: `${authorHref(slug)}/preview?version=${encodeURIComponent(v.version)}` }, named("Preview")),
        action === "publish" ? el("button", { type: "button", class: "primary", onclick: () => publish(v.version, action) }, named("Publish")) : null,
        action === "roll back" ? el("button", { type: "button", onclick: () => publish(v.version, action) }, named("Roll back")) : null);
    };
    // The actions come before the time saved, so a narrow screen shows them without scrolling far.
    tableBox.replaceChildren(dataTable("Versions, newest first", ["Version", "Status", "Actions", "Saved"],
      rows.map((row) => [el("code", {}, shortVersion(row.v.version)),
        [statusBadge(row.v.status), row.v.published ? [" ", el("strong", { class: "published" }, "published")] : null],
        cell(row), timeText(row.v.created_at)]), "versions"));
  }

  async function refresh() {
    versions = await api(`${problemApi(slug)}/versions`, { signal });
    drawTable();
    if (onListed) onListed(versions);
    if (!shown && versions.length) await showReport(versions[versions.length - 1].version);
    else if (shown) await showReport(shown);
    return versions;
  }

  // A draft's validation runs in the background: ask about it every second until it is decided.
  async function follow(version) {
    const short = shortVersion(version);
    const started = Date.now();
    status.textContent = `Validating version ${short}…`;
    await refresh();
    await showReport(version);
    for (;;) {
      const detail = await api(`${problemApi(slug)}/versions/${encodeURIComponent(version)}`, { signal });
      if (detail.status !== "draft") {
        await refresh();
        await showReport(version);
        const first = detail.validation && detail.validation.failures && detail.validation.failures[0];
        status.textContent = detail.status === "valid"
          ? `Version ${short} is valid: it can be published.`
          : `Version ${short} is invalid${first ? `: ${first}` : ""}.`;
        return detail;
      }
      await sleep(POLL_MS, signal);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (seconds % 5 === 0) status.textContent = `Validating version ${short}… (${seconds} s)`;
    }
  }

  const element = el("section", { class: "author-box", "aria-labelledby": "versions-heading" },
    el("h2", { id: "versions-heading" }, "Versions"),
    el("p", { class: "muted" }, "Publish a valid version to show it to learners; Roll back publishes an older valid one."),
    tableBox, status, report);
  return { element, refresh, follow };
}
