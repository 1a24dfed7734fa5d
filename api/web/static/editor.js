// The code editor: a textarea where Tab indents, plus drafts kept per problem in localStorage.
import { el } from "./dom.js";

const DRAFT_PREFIX = "judge.draft.";
const INDENT = "    ";

function replaceRange(area, start, end, text, selStart, selEnd) {
  area.setSelectionRange(start, end);
  // insertText keeps the browser's undo history; setRangeText is the fallback where it is gone.
  if (!document.execCommand || !document.execCommand("insertText", false, text)) {
    area.setRangeText(text, start, end, "end");
    area.dispatchEvent(new Event("input"));
  }
  area.setSelectionRange(selStart, selEnd);
}

function indent(area, outdent) {
  const { value, selectionStart: start, selectionEnd: end } = area;
  const multiline = value.slice(start, end).includes("\n");
  if (!outdent && !multiline) {
    replaceRange(area, start, end, INDENT, start + INDENT.length, start + INDENT.length);
    return;
  }
  const from = value.lastIndexOf("\n", start - 1) + 1;
  let to = value.indexOf("\n", multiline && value[end - 1] === "\n" ? end - 1 : end);
  if (to < 0) to = value.length;
  const before = value.slice(from, to);
  const lines = before.split("\n");
  const after = lines.map((l) => (outdent ? l.replace(/^ {1,4}/, "") : l && INDENT + l)).join("\n");
  if (after === before) return;
  if (multiline) {
    replaceRange(area, from, to, after, from, from + after.length);
  } else {
    const caret = Math.max(from, start - (before.length - after.length));
    replaceRange(area, from, to, after, caret, caret);
  }
}

export function editor(initial, onChange, onRun) {
  const area = el("textarea", {
    class: "code", spellcheck: "false", autocapitalize: "off", autocomplete: "off",
    wrap: "off", rows: 22, "aria-label": "your solution",
  });
  area.value = initial;
  let escaped = false; // Esc, then Tab, leaves the editor: Tab alone must not trap keyboard users
  area.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      escaped = true;
      return;
    }
    if (event.key === "Tab" && !escaped && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      indent(area, event.shiftKey);
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onRun(event.shiftKey ? "submit" : "run");
    }
    escaped = false;
  });
  area.addEventListener("input", () => onChange(area.value));
  return area;
}

export function loadDraft(slug) {
  try {
    return localStorage.getItem(DRAFT_PREFIX + slug);
  } catch {
    return null;
  }
}

export function saveDraft(slug, code) {
  try {
    localStorage.setItem(DRAFT_PREFIX + slug, code);
  } catch {
    // storage full or disabled: the editor still works, the draft just is not kept
  }
}
