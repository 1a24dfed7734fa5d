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
