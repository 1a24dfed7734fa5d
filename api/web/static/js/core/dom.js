// DOM helpers that only ever create elements and text: no markup from data reaches the page here.
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node; // append() turns strings into text nodes, never into markup
}

export const link = (href, text, props) => el("a", { href, ...props }, text);
export const problemHref = (slug) => "/problems/" + encodeURIComponent(slug);
export const submissionHref = (id) => "/submissions/" + encodeURIComponent(String(id));
export const label = (name) => String(name || "").replaceAll("_", " ");
export const badge = (value, kind) => el("span", { class: `badge ${kind}-${value}` }, label(value));

export function notice(text, kind) {
  return el("p", { class: `notice ${kind || ""}`, role: kind === "error" ? "alert" : "status" }, text);
}

// The one place markup from the server reaches the page: statements, hints and editorials the
// server rendered from Markdown with raw HTML escaped (api/rendering.py), never text from a learner.
export function serverHtml(html, className) {
  const node = el("div", { class: className });
  node.innerHTML = html;
  for (const formula of node.querySelectorAll('math[display="block"]')) scrollableByKeyboard(formula);
  return node;
}

// A display formula wider than its column scrolls sideways (app.css); while it does, it takes the
// keyboard's focus, so the arrows can scroll it, and stops being a tab stop once it fits again.
const formulas = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (target.scrollWidth > target.clientWidth + 1) target.setAttribute("tabindex", "0");
    else target.removeAttribute("tabindex");
  }
});
function scrollableByKeyboard(formula) {
  formulas.observe(formula);
}

// A table gets its own sideways scroll, so a narrow screen never scrolls the whole page sideways;
// the box takes the keyboard's focus, so its arrows scroll it when there is nothing to tab to inside.
export const scrollBox = (table) => el("div", { class: "table-scroll", tabindex: "0" }, table);

const app = document.getElementById("app");

export function show(...nodes) {
  // Arrays are flattened, as el() does with its children: a part may be several nodes or none.
  app.replaceChildren(...nodes.flat(Infinity).filter((node) => node !== null && node !== undefined));
}

export function setTitle(text) {
  document.title = text ? `${text} · Metrics judge` : "Metrics judge";
}

export function timeText(iso) {
  if (!iso) return "";
  // The API's timestamps are UTC; some databases hand them back without a zone.
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + "Z");
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function percent(value) {
  return `${(value * 100).toFixed(value === 0 || value === 1 ? 0 : 1)}%`;
}
