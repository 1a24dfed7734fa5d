// A line diff of two programs: the longest common subsequence of their lines, as unchanged,
// removed and added lines with both line numbers. No DOM here (submissions/history.js draws it), so the
// unit tests run it under Node.
const MAX_CELLS = 4_000_000; // the LCS table's size; past it (huge files) the middle is all "changed"

// [{ kind: "same" | "removed" | "added", text, old, new }] turning `before` into `after`.
export function lineDiff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const n = endA - start;
  const m = endB - start;
  const ops = [];
  for (let i = 0; i < start; i++) ops.push({ kind: "same", text: a[i], old: i + 1, new: i + 1 });
  if (n * m <= MAX_CELLS) {
    // lcs[i * (m + 1) + j]: the LCS length of a's middle from i and b's middle from j.
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = a[start + i] === b[start + j]
          ? lcs[(i + 1) * width + j + 1] + 1
          : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      const x = start + i;
      const y = start + j;
      if (i < n && j < m && a[x] === b[y]) {
        ops.push({ kind: "same", text: a[x], old: x + 1, new: y + 1 });
        i++; j++;
      } else if (i < n && (j === m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
        ops.push({ kind: "removed", text: a[x], old: x + 1, new: null }); // removals first, as diff does
        i++;
      } else {
        ops.push({ kind: "added", text: b[y], old: null, new: y + 1 });
        j++;
      }
    }
  } else {
    for (let i = start; i < endA; i++) ops.push({ kind: "removed", text: a[i], old: i + 1, new: null });
    for (let j = start; j < endB; j++) ops.push({ kind: "added", text: b[j], old: null, new: j + 1 });
  }
  for (let k = 0; k < a.length - endA; k++) {
    ops.push({ kind: "same", text: a[endA + k], old: endA + k + 1, new: endB + k + 1 });
  }
  return ops;
}
