// Small pieces the authoring and insight pages share: their paths, a version's status badge and
// a plain table with a caption and column headings.
import { el } from "../core/dom.js";

export const authorHref = (slug) => "/author/" + encodeURIComponent(slug);
export const problemApi = (slug) => "/problems/" + encodeURIComponent(slug);

const STATUS_WORDS = { draft: "validating", valid: "valid", invalid: "invalid" };

// A version's status: draft (validation running), valid or invalid; the word says it, not the colour.
export const statusBadge = (status) => el("span", { class: `badge version-${status}` }, STATUS_WORDS[status] || status);

// A box that scrolls sideways is reachable by keyboard (and named) only while it does scroll, so a
// table that fits adds no tab stop; a ResizeObserver keeps that true as the width changes. It
// watches the box's content too: content that grows wider after it is drawn (a late layout, a
// font) makes the box scroll without the box itself changing size.
const boxOf = new WeakMap();
const sideways = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
  for (const entry of entries) {
    const target = boxOf.get(entry.target) || entry.target;
    const scrolls = target.scrollWidth > target.clientWidth + 1;
    // A box of the page's own becomes a named region; a table or formula keeps its own role.
    const named = target.tagName === "DIV" ? [["role", "region"], ["aria-label", target.dataset.name]] : [];
    for (const [name, value] of [["tabindex", "0"], ...named]) {
      if (scrolls) target.setAttribute(name, value);
      else target.removeAttribute(name);
    }
  }
}) : null;

export function scrollable(node, name) {
  node.dataset.name = name;
  if (sideways) {
    sideways.observe(node);
    const content = node.firstElementChild;
    if (content) {
      boxOf.set(content, node);
      sideways.observe(content);
    }
  }
  return node;
}

// rows: arrays of cells (strings or nodes); a cell given as { number: value } is right-aligned.
export function dataTable(caption, headings, rows, className) {
  const box = el("div", { class: "table-scroll author-scroll" });
  box.append(el("table", { class: `list ${className || ""}` },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell) => (
      cell && typeof cell === "object" && "number" in cell
        ? el("td", { class: "number" }, String(cell.number))
        : el("td", {}, cell))))))));
  return scrollable(box, `${caption} (scrolls sideways)`);
}
