// Two submissions side by side (GET /similarity/{a}/{b}): each code with line numbers, the lines
// a match covers marked (a <mark> with the match's number, so it does not rest on colour alone),
// and the matches listed in words. Built with createElement and textContent only.
import { api } from "../core/api.js";
import { matchedLines } from "./format.js";
import { el, percent, submissionHref, link, timeText } from "../core/dom.js";

function codeColumn(side, code, marks, id) {
  const lines = code.code.replace(/\n$/, "").split("\n");
  return el("figure", { class: "sbs-side", "aria-labelledby": id },
    el("figcaption", { id }, `${side}: ${code.user}, `, link(submissionHref(code.submission), `submission #${code.submission}`),
      el("span", { class: "muted" }, ` · ${timeText(code.created_at)}`)),
    el("div", { class: "sbs-code", tabindex: "0", role: "region", "aria-label": `Code of ${code.user}` },
      lines.map((text, i) => {
        const match = marks[i];
        const line = [el("span", { class: "sbs-number", "aria-hidden": "true" }, String(i + 1)), el("span", { class: "sbs-text" }, text || " ")];
        return match >= 0
          ? el("mark", { class: `sbs-line sbs-match match-${match % 4}`, title: `match ${match + 1}` },
            el("span", { class: "sr-only" }, `match ${match + 1}: `), line)
          : el("div", { class: "sbs-line" }, line);
      })));
}

export async function sideBySide(a, b, signal) {
  const pair = await api(`/similarity/${encodeURIComponent(a)}/${encodeURIComponent(b)}`, { signal });
  const countA = pair.a.code.replace(/\n$/, "").split("\n").length;
  const countB = pair.b.code.replace(/\n$/, "").split("\n").length;
  const range = ([from, to]) => (from === to ? `line ${from}` : `lines ${from}–${to}`);
  return el("section", { class: "author-box sbs", "aria-labelledby": "sbs-heading", tabindex: "-1" },
    el("h3", { id: "sbs-heading" }, `${pair.a.user} and ${pair.b.user}: ${percent(pair.similarity)} alike`),
    pair.matches.length
      ? el("ol", { class: "sbs-matches" }, pair.matches.map((m, i) => el("li", {},
        `Match ${i + 1}: ${range(m.a_lines)} of ${pair.a.user} and ${range(m.b_lines)} of ${pair.b.user}`)))
      : el("p", { class: "muted" }, "No line ranges match."),
    el("div", { class: "sbs-columns" },
      codeColumn("A", pair.a, matchedLines(pair.matches, "a_lines", countA), "sbs-a"),
      codeColumn("B", pair.b, matchedLines(pair.matches, "b_lines", countB), "sbs-b")));
}

// Opens a pair of a similarity report into ``viewer``, saying so in ``state`` (a status region),
// and moves the focus to it; ``where`` names the problem where a report spans several.
export async function openPair(pair, viewer, state, signal, where = "") {
  state.textContent = `Opening ${pair.a.user} and ${pair.b.user}${where} side by side…`;
  try {
    const view = await sideBySide(pair.a.submission, pair.b.submission, signal);
    viewer.replaceChildren(view);
    state.textContent = `${pair.a.user} and ${pair.b.user} are shown side by side below the table.`;
    view.focus();
  } catch (error) {
    if (error.name !== "AbortError") state.textContent = `Not shown: ${error.message}`;
  }
}
