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
const label = (name) => String(name || "").replaceAll("_", " ");
export const badge = (value, kind) => el("span", { class: `badge ${kind}-${value}` }, label(value));

export function notice(text, kind) {
  return el("p", { class: `notice ${kind || ""}`, role: kind === "error" ? "alert" : "status" }, text);
}

const app = document.getElementById("app");

export function show(...nodes) {
  app.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined));
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
