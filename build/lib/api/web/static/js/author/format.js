// What the authoring pages decide without the DOM (tests/unit/service/test_author_pages.py runs these
// under Node): a version's short name, which action a version offers, a new file's path, the
// acceptance rate in words, and which lines of a code a similarity match covers.

export const shortVersion = (version) => String(version || "").slice(0, 10);

export const isPython = (path) => /\.py$/i.test(path);

const pct = (value) => `${(value * 100).toFixed(1)}%`;

// versions: oldest first, as the API lists them. For each: "publish" (valid, newer than the
// published one, or none is published), "roll back" (valid, older than the published one) or
// null (the published one, a draft being validated, an invalid one).
export function versionActions(versions) {
  const published = versions.findIndex((v) => v.published);
  return versions.map((v, i) => {
    if (v.published || v.status !== "valid") return null;
    return published >= 0 && i < published ? "roll back" : "publish";
  });
}

// Why a new file's path cannot be added, or "" when it can: relative, no "..", not there yet.
export function newPathProblem(path, existing) {
  const text = String(path || "").trim();
  if (!text) return "Type the new file's path, e.g. wrong/off_by_one.py.";
  if (text.startsWith("/") || text.includes("\\")) return "The path is relative to the problem folder, with / between folders.";
  if (text.split("/").some((part) => part === "" || part === "." || part === "..")) {
    return "The path may not hold empty parts, . or ..";
  }
  if (existing.includes(text)) return `${text} is already a file of this version.`;
  return "";
}

// The acceptance rate and its Wilson 95% interval, in words.
export function acceptanceWords(acceptance) {
  const { submissions, accepted, rate, wilson_95: interval } = acceptance;
  if (!submissions) return "No judged submissions yet.";
  const counted = `${accepted} of ${submissions} judged submission${submissions === 1 ? "" : "s"} accepted`;
  if (rate === null || rate === undefined) return counted + ".";
  let text = `${counted}: ${pct(rate)}.`;
  if (interval) {
    text += ` With 95% confidence (Wilson interval) the acceptance rate lies between ${pct(interval[0])} ` +
      `and ${pct(interval[1])}; the fewer the submissions, the wider that range.`;
  }
  return text;
}

// For a code of lineCount lines: for each line (index 0 is line 1), the number of the match
// that covers it (0 for the first match) or -1. side is "a_lines" or "b_lines", each [from, to],
// inclusive, from 1; a range past the end is cut there.
export function matchedLines(matches, side, lineCount) {
  const marks = new Array(Math.max(0, lineCount)).fill(-1);
  matches.forEach((match, index) => {
    const [from, to] = match[side];
    for (let line = Math.max(1, from); line <= Math.min(to, lineCount); line += 1) {
      if (marks[line - 1] < 0) marks[line - 1] = index;
    }
  });
  return marks;
}

const sentence = (text) => {
  const trimmed = String(text).trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

// Where a message of the judge's names a file of the problem: "tests/public.json: invalid JSON at
// line 4 column 1", "hints.md: line 3: hint is empty", "problem.toml: missing key ...". Returns
// { file, line, column, what } or null when the message names no file.
function fileAndLine(text) {
  const named = /^([\w.-]+(?:\/[\w.-]+)*\/?): (.+)$/s.exec(text);
  if (!named || !/[./]/.test(named[1])) return null;
  let what = named[2];
  let line = null;
  let column = null;
  const leading = /^line (\d+): (.+)$/s.exec(what);
  const trailing = /^(.+?) at line (\d+)(?: column (\d+))?$/s.exec(what);
  if (leading) [, line, what] = leading;
  else if (trailing) [, what, line, column] = trailing;
  return { file: named[1], line, column, what };
}

// An upload's refusal (an ApiError: status, code, message) in the page's words: what was wrong
// and where (the file and line when the judge names them), never a bare field path or code.
export function uploadRefusal(error, fileName, slug) {
  const status = error ? error.status : 0;
  const message = String((error && error.message) || "").trim();
  const name = fileName || "The archive";
  if (status === 413 || (error && error.code === "too_large")) {
    const bytes = /over (\d+) bytes/.exec(message);
    const cap = bytes ? ` of at most ${Math.floor(Number(bytes[1]) / 2 ** 20)} MiB` : "";
    return `${name} is too large: the judge takes an archive${cap}. Leave out what the problem does not need.`;
  }
  if (status === 401 || status === 403) return "Only the problem's owner or an administrator can upload a new version of it.";
  if (status === 429) return `Not uploaded yet: ${sentence(message)}`;
  if (!status) return sentence(message || "The judge did not answer; check your connection.");
  let text = message.replace(/^archive: /, "").replace(/^files\./, "");
  if (slug && text.startsWith(`${slug}/`)) text = text.slice(slug.length + 1);
  const unreadable = /is not a readable zip or tar archive(?: \((.*)\))?$/s.exec(text);
  if (unreadable) {
    return `${name} is not a readable .zip archive${unreadable[1] ? ` (${unreadable[1]})` : ""}. ` +
      "Make a .zip of the problem folder and choose it again.";
  }
  const member = /^(?:after )?member (.+?): (.+)$/s.exec(text);
  if (member) return `In the archive, at ${member[1].replace(/^'(.*)'$/, "$1")}: ${sentence(member[2])}`;
  const found = fileAndLine(text);
  if (found) {
    const at = found.line ? `, line ${found.line}${found.column ? ` (column ${found.column})` : ""}` : "";
    return `In ${found.file}${at}: ${sentence(found.what)}`;
  }
  // A bare field name ("slug: ...") is the API's word, not the author's: the words after it say it.
  return `The archive was not accepted: ${sentence(text.replace(/^[a-z_]+: /, ""))}`;
}

const verdictWord = (verdict) => (verdict ? String(verdict).replaceAll("_", " ") : "no verdict");

// A rejudge's verdicts before and after, in words: "accepted 2 → 3 · wrong answer 1 → 0".
export function verdictCountWords(verdicts) {
  if (!verdicts || !verdicts.length) return "";
  return verdicts.map((v) => `${verdictWord(v.verdict)} ${v.before} → ${v.after}`).join(" · ");
}
