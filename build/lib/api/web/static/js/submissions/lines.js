// Text from the judge that cites the learner's code ("line 4, column 12: syntax error", a
// traceback's `File "solution.py", line 7`) gets each citation as a button that moves the editor
// there. Lines in other files (the judge's own harness) stay plain text.
import { el } from "../core/dom.js";

const CITATION = /(File "([^"]*)", )?\bline (\d+)(?:,? column (\d+))?/g;

export function withLineLinks(text, goToLine) {
  const source = String(text ?? "");
  if (!goToLine) return [source];
  const parts = [];
  let last = 0;
  for (const match of source.matchAll(CITATION)) {
    const [whole, , file, line, column] = match;
    if (file && !file.endsWith("solution.py")) continue;
    parts.push(source.slice(last, match.index));
    const lineNumber = Number(line);
    const columnNumber = column === undefined ? 1 : Number(column);
    parts.push(el("button", {
      type: "button", class: "line-link",
      title: `Show line ${lineNumber} in the editor`,
      onclick: () => goToLine(lineNumber, columnNumber),
    }, whole));
    last = match.index + whole.length;
  }
  parts.push(source.slice(last));
  return parts;
}
