// /problems/{slug}/history: the learner's own submissions of one problem (?learner=NAME: that
// learner's, for the instructors who may read them), newest first, and a line diff between any
// two of them (pick one as "from" and one as "to").
import { currentUser } from "../account/user.js";
import { api } from "../core/api.js";
import { replaceDraft } from "../problems/drafts.js";
import { lineDiff } from "./diff.js";
import { el, link, notice, problemHref, scrollBox, setTitle, show, submissionHref, timeText } from "../core/dom.js";
import { verdictCell } from "./lists.js";
import { refreshWhilePending } from "./pending.js";

const PAGE = 100; // the API's largest page
const MAX_SUBMISSIONS = 500;
const CONTEXT = 3; // unchanged lines kept around each change in the diff

const SIGNS = { same: " ", removed: "−", added: "+" };

function lineRow(op) {
  return el("div", { class: `diff-line diff-${op.kind}` },
    el("span", { class: "diff-number", "aria-hidden": "true" }, op.old ?? ""),
    el("span", { class: "diff-number", "aria-hidden": "true" }, op.new ?? ""),
    el("span", { class: "diff-sign" }, SIGNS[op.kind]),
    el("span", { class: "diff-text" }, op.text));
}

// The diff as rows; each long unchanged stretch becomes a button that unfolds it.
export function diffView(ops) {
  const rows = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k].kind !== "same") {
      rows.push(lineRow(ops[k++]));
      continue;
    }
    let end = k;
    while (end < ops.length && ops[end].kind === "same") end++;
    const keepBefore = k === 0 ? 0 : CONTEXT;
    const keepAfter = end === ops.length ? 0 : CONTEXT;
    if (end - k > keepBefore + keepAfter + 1) {
      ops.slice(k, k + keepBefore).forEach((op) => rows.push(lineRow(op)));
      const hidden = ops.slice(k + keepBefore, end - keepAfter);
      const fold = el("button", {
        type: "button", class: "diff-fold",
        onclick: () => fold.replaceWith(...hidden.map(lineRow)),
      }, `… ${hidden.length} unchanged lines (show)`);
      rows.push(fold);
      ops.slice(end - keepAfter, end).forEach((op) => rows.push(lineRow(op)));
    } else {
      ops.slice(k, end).forEach((op) => rows.push(lineRow(op)));
    }
    k = end;
  }
  const added = ops.filter((op) => op.kind === "added").length;
  const removed = ops.filter((op) => op.kind === "removed").length;
  return el("div", {},
    el("p", { class: "muted diff-summary" }, added || removed
      ? `${added} line${added === 1 ? "" : "s"} added, ${removed} removed`
      : "The two programs are the same."),
    el("div", { class: "diff", role: "group", "aria-label": "line diff", tabindex: "0" }, rows));
}

// One learner's submissions of the problem: the viewer's own, or (for a course's instructors and
// the problem's owner) the named learner's, as far as the API lets the viewer read them.
async function learnerSubmissions(slug, learner, signal) {
  const items = [];
  for (let offset = 0; offset < MAX_SUBMISSIONS; offset += PAGE) {
    const params = new URLSearchParams({ problem: slug, limit: String(PAGE), offset: String(offset) });
    if (learner) params.set("learner", learner);
    const page = await api(`/submissions?${params}`, { signal });
    items.push(...page.items);
    if (offset + page.items.length >= page.total || !page.items.length) break;
  }
  return items;
}

export async function historyPage(slug, signal) {
  const me = currentUser()?.name || "";
  const learner = new URLSearchParams(location.search).get("learner") || me;
  const whose = learner === me ? "" : `${learner}'s `;
  setTitle(`History of ${slug}`);
  const problem = await api(`/problems/${encodeURIComponent(slug)}`, { signal }).catch((error) => {
    if (error.name === "AbortError") throw error;
    return null;
  });
  const title = problem ? problem.title : slug;
  setTitle(`${whose ? `${whose}history` : "History"} of ${title}`);
  const codes = new Map(); // id -> Promise of the submission's code, fetched once
  const codeOf = (id) => {
    if (!codes.has(id)) codes.set(id, api(`/submissions/${id}`, { signal }).then((s) => s.code));
    return codes.get(id);
  };
  let items = [];
  let from = null;
  let to = null;
  const table = el("div");
  const diffArea = el("section", { class: "diff-area", "aria-live": "polite" });

  const drawDiff = async () => {
    if (from === null || to === null) {
      diffArea.replaceChildren(el("p", { class: "muted" }, "Pick two submissions to compare."));
      return;
    }
    const [a, b] = [from, to];
    diffArea.replaceChildren(el("p", { class: "muted" }, "Loading the code…"));
    try {
      const [before, after] = await Promise.all([codeOf(a), codeOf(b)]);
      if (a !== from || b !== to) return; // another pair was picked meanwhile
      const open = el("button", {
        type: "button",
        onclick: () => {
          if (replaceDraft(slug, after, `the code of submission #${b}`)) location.href = problemHref(slug);
        },
      }, `Open #${b} in the editor`);
      diffArea.replaceChildren(
        el("h2", {}, "Changes from ", link(submissionHref(a), `#${a}`), " to ", link(submissionHref(b), `#${b}`)),
        diffView(lineDiff(before, after)),
        el("div", { class: "actions" }, open));
    } catch (error) {
      if (error.name !== "AbortError") diffArea.replaceChildren(notice(error.message, "error"));
    }
  };

  const radio = (which, s) => el("input", {
    type: "radio", name: `diff-${which}`, value: String(s.id), checked: (which === "from" ? from : to) === s.id,
    "aria-label": `compare ${which} #${s.id}`,
    onchange: () => {
      if (which === "from") from = s.id; else to = s.id;
      drawDiff();
    },
  });
  const drawTable = () => {
    table.replaceChildren(scrollBox(el("table", { class: "list history" },
      el("thead", {}, el("tr", {}, ["From", "To", "#", "Mode", "Verdict", "Score", "Submitted"].map(
        (h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, items.map((s) => el("tr", {},
        el("td", {}, radio("from", s)),
        el("td", {}, radio("to", s)),
        el("td", {}, link(submissionHref(s.id), `#${s.id}`)),
        el("td", {}, s.mode),
        el("td", {}, verdictCell(s)),
        el("td", { class: "number" }, typeof s.score === "number" && s.mode !== "try" ? s.score.toFixed(2) : ""),
        el("td", {}, timeText(s.created_at))))))));
  };
  const load = async () => {
    items = await learnerSubmissions(slug, learner, signal);
    drawTable();
    return items;
  };

  await load();
  if (items.length >= 2) [to, from] = [items[0].id, items[1].id];
  drawTable();
  show(
    el("h1", {}, whose ? `History of ${learner}: ${title}` : `History: ${title}`),
    el("p", { class: "meta" }, link(problemHref(slug), "back to the problem"), " · ",
      link(`/submissions?${new URLSearchParams(whose ? { problem: slug, learner } : { problem: slug })}`, "as a list")),
    ...(items.length
      ? [el("p", { class: "muted" }, `${items.length} submission${items.length === 1 ? "" : "s"}, newest first. `,
        "Pick one in the From column and one in the To column to see what changed."), table, diffArea]
      : [notice(whose ? `No submissions of ${learner} to this problem that you may read.`
        : "No submissions to this problem yet: open it and press Run or Submit.")]));
  if (items.length) drawDiff();
  await refreshWhilePending(items, load, signal);
}
