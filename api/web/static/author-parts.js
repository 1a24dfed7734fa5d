// Small pieces the authoring and insight pages share: their paths, a version's status badge and
// a plain table with a caption and column headings.
import { el, scrollBox } from "./dom.js";

export const authorHref = (slug) => "/author/" + encodeURIComponent(slug);
export const problemApi = (slug) => "/problems/" + encodeURIComponent(slug);

const STATUS_WORDS = { draft: "validating", valid: "valid", invalid: "invalid" };

// A version's status: draft (validation running), valid or invalid; the word says it, not the colour.
export const statusBadge = (status) => el("span", { class: `badge version-${status}` }, STATUS_WORDS[status] || status);

// rows: arrays of cells (strings or nodes); a cell given as { number: value } is right-aligned.
export function dataTable(caption, headings, rows, className) {
  return scrollBox(el("table", { class: `list ${className || ""}` },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell) => (
      cell && typeof cell === "object" && "number" in cell
        ? el("td", { class: "number" }, String(cell.number))
        : el("td", {}, cell))))))));
}
