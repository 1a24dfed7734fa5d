// The gradebook's order, without the DOM (a unit test runs this module under Node). Columns:
// "learner" (by name), "total" (the total score), or a problem's index (its best score, then
// accepted before not, then fewer attempts). Rows that tie keep the learners' names in order.

const byName = (a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0);

function cellKey(cell) {
  return [cell.best_score ?? -1, cell.accepted ? 1 : 0, -cell.attempts];
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

export function sortRows(rows, column, direction) {
  const sign = direction === "descending" ? -1 : 1;
  const compare = column === "learner"
    ? byName
    : column === "total"
      ? (a, b) => compareKeys([a.total_score], [b.total_score])
      : (a, b) => compareKeys(cellKey(a.cells[column]), cellKey(b.cells[column]));
  return [...rows].sort((a, b) => sign * compare(a, b) || byName(a, b));
}
