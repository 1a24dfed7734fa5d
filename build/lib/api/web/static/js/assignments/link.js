// The assignment a problem page was opened for (?assignment=ID), without the DOM (a unit test
// runs this module under Node). Only Submit sends it: runs and tries never count for an assignment.

export function assignmentFromSearch(search) {
  const value = new URLSearchParams(search || "").get("assignment");
  return value && /^[1-9]\d{0,17}$/.test(value) ? Number(value) : null;
}

export const problemForAssignment = (slug, id) =>
  `/problems/${encodeURIComponent(slug)}?assignment=${encodeURIComponent(String(id))}`;

// The extra fields of POST /submissions for a button's mode.
export const submissionFields = (mode, id) => (id !== null && mode === "submit" ? { assignment: id } : {});
