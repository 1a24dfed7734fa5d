// On a narrow screen (below 700 px, app.css) the problem page shows one of three panels at a time
// behind the tabs "Statement", "Code" and "Results"; on a wide one the tabs are hidden and every
// panel shows. The tabs follow the ARIA tabs pattern: arrow keys move between them.
import { el } from "../core/dom.js";

const NARROW = window.matchMedia("(max-width: 699px)");

export const isNarrow = () => NARROW.matches;

// panels: [{ name, node }]; returns { bar, select(name) }.
export function tabs(panels, initial) {
  const buttons = [];
  const select = (name, focus) => {
    panels.forEach(({ name: each, node }, i) => {
      const chosen = each === name;
      buttons[i].setAttribute("aria-selected", String(chosen));
      buttons[i].tabIndex = chosen ? 0 : -1;
      node.classList.toggle("tab-hidden", !chosen);
      if (chosen && focus) buttons[i].focus();
    });
  };
  panels.forEach(({ name, node }, i) => {
    const id = `tab-${name.toLowerCase()}`;
    node.id = `${id}-panel`;
    node.setAttribute("role", "tabpanel");
    node.setAttribute("aria-labelledby", id);
    buttons.push(el("button", {
      type: "button", role: "tab", id, "aria-controls": node.id,
      onclick: () => select(name),
      onkeydown: (event) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        select(panels[(i + step + panels.length) % panels.length].name, true);
      },
    }, name));
  });
  select(initial || panels[0].name);
  return { bar: el("div", { class: "tabs", role: "tablist", "aria-label": "Problem page" }, buttons), select };
}
