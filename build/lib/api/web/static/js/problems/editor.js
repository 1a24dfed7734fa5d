// The code editor (CodeMirror 6, bundled in vendor/codemirror.js by scripts/build-web-assets), plus
// drafts kept per problem in localStorage.
import {
  bracketMatching, closeBrackets, closeBracketsKeymap, defaultKeymap, EditorSelection, EditorState,
  EditorView, highlightActiveLine, highlightActiveLineGutter, HighlightStyle, history, historyKeymap,
  indentLess, indentMore, indentOnInput, indentUnit, keymap, lineNumbers, Prec, python,
  StyleModule, syntaxHighlighting, tags,
} from "../../vendor/codemirror.js";

const DRAFT_PREFIX = "judge.draft.";
const INDENT = 4;
const LABEL = "your solution";

// Tab at a caret inserts spaces up to the next multiple of four columns (Python wants spaces, never
// a tab character); with text selected it indents the selected lines. Shift+Tab outdents them.
// Escape, then Tab within two seconds, leaves the editor: CodeMirror's own tab-focus escape hatch,
// which it checks before any key binding, so keyboard users are never trapped.
function tab(view) {
  const { state } = view;
  if (state.selection.ranges.some((range) => !range.empty)) return indentMore(view);
  view.dispatch(state.update(state.changeByRange((range) => {
    const line = state.doc.lineAt(range.head);
    const spaces = " ".repeat(INDENT - ((range.head - line.from) % INDENT));
    return {
      changes: { from: range.head, insert: spaces },
      range: EditorSelection.cursor(range.head + spaces.length),
    };
  }), { scrollIntoView: true, userEvent: "input.indent" }));
  return true;
}

// Every colour is a custom property of the shadow host, with a light and a dark set chosen by
// prefers-color-scheme, so one theme serves both schemes and follows the system's setting live.
const color = (name) => `var(--cm-${name})`;
const PALETTES = {
  light: {
    ink: "#1d2430", muted: "#5f6b7a", paper: "#ffffff", line: "#d8dee6", gutter: "#f5f7fa",
    "active-line": "#f2f6fb", "active-gutter": "#e6edf5", focus: "#1f5f8b",
    bracket: "#d6ebd9", "bracket-edge": "#1e7b3c", "bad-bracket": "#f6d5d3",
    keyword: "#7a2a9a", atom: "#1f5f8b", number: "#116644", string: "#a3410f", comment: "#5f6b7a",
    definition: "#1a4fa3", call: "#22577a", builtin: "#8a4b00", meta: "#6a3d9a", invalid: "#b3261e",
  },
  dark: {
    ink: "#e3e8ef", muted: "#9aa5b4", paper: "#1b2029", line: "#3a4350", gutter: "#151a21",
    "active-line": "#232a35", "active-gutter": "#2a3340", focus: "#6cb6ff",
    bracket: "#2f4a36", "bracket-edge": "#7ee0a8", "bad-bracket": "#5a2a2a",
    keyword: "#d2a8ff", atom: "#79c0ff", number: "#7ee0a8", string: "#f0a875", comment: "#9aa5b4",
    definition: "#8cc8ff", call: "#a5d6ff", builtin: "#ffc66d", meta: "#d2a8ff", invalid: "#ff7b72",
  },
};
const variables = (palette, scheme) => ({
  colorScheme: scheme, // native parts (scrollbars, the text selection) follow the editor's scheme
  ...Object.fromEntries(Object.entries(palette).map(([name, value]) => [`--cm-${name}`, value])),
});
// Made once: style modules are meant to be allocated once, not per editor.
const palette = new StyleModule({
  ":host": { display: "block", ...variables(PALETTES.light, "light") },
  "@media (prefers-color-scheme: dark)": { ":host": variables(PALETTES.dark, "dark") },
});

const theme = EditorView.theme({
  "&": {
    color: color("ink"),
    backgroundColor: color("paper"),
    border: `1px solid ${color("line")}`,
    borderRadius: "5px",
    fontSize: "13px",
  },
  // The keyboard focus is always visible: a 2 px ring in the accent colour.
  "&.cm-focused": { outline: `2px solid ${color("focus")}`, outlineOffset: "-1px" },
  ".cm-scroller": {
    fontFamily: "var(--mono, ui-monospace, monospace)", // the page's monospace stack, inherited
    lineHeight: "1.5",
    // No maximum: the editor grows with the code and the page scrolls. A capped height would make
    // a scrolling box that a keyboard cannot reach on its own (axe: scrollable-region-focusable).
    minHeight: "22em",
  },
  ".cm-content": { caretColor: color("ink"), padding: "6px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: color("ink") },
  ".cm-gutters": {
    backgroundColor: color("gutter"),
    color: color("muted"),
    borderRight: `1px solid ${color("line")}`,
    borderRadius: "5px 0 0 5px",
  },
  ".cm-activeLine": { backgroundColor: color("active-line") },
  ".cm-activeLineGutter": { backgroundColor: color("active-gutter"), color: color("ink") },
  "&.cm-focused .cm-matchingBracket": {
    backgroundColor: color("bracket"), outline: `1px solid ${color("bracket-edge")}`,
  },
  "&.cm-focused .cm-nonmatchingBracket": { backgroundColor: color("bad-bracket") },
});

const highlighting = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.operatorKeyword],
    color: color("keyword") },
  { tag: [tags.bool, tags.null, tags.self], color: color("atom") },
  { tag: [tags.number], color: color("number") },
  { tag: [tags.string, tags.special(tags.string)], color: color("string") },
  { tag: [tags.comment], color: color("comment"), fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)],
    color: color("definition"), fontWeight: "600" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: color("call") },
  { tag: [tags.standard(tags.variableName)], color: color("builtin") },
  { tag: [tags.meta], color: color("meta") },
  { tag: [tags.invalid], color: color("invalid") },
]);

// A character typed over a selection: Chrome's own replace builds markup with a style attribute on
// the way, which the page's policy refuses (a console error, though the text comes out right). So
// that one case is applied here, through the editor's input handlers as the native path would be
// (closeBrackets wraps a selection in the typed bracket, indentOnInput re-indents `else:`).
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const { state } = view;
    if (event.inputType !== "insertText" || event.isComposing || !event.data) return false;
    if (state.selection.ranges.every((range) => range.empty)) return false;
    event.preventDefault();
    const { from, to } = state.selection.main;
    const text = event.data;
    const insert = () => state.update(state.replaceSelection(text), { userEvent: "input.type", scrollIntoView: true });
    const handled = state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, insert));
    if (!handled) view.dispatch(insert());
    return true;
  },
});

// editor(initial, onChange, onRun) -> { element, value, goToLine(line, column), focus() }.
// onChange(text) follows every edit the learner makes; onRun("run" | "submit") answers
// Ctrl/Cmd+Enter and Ctrl/Cmd+Shift+Enter. label is the editor's accessible name (another page,
// such as the authoring page's file editor, names what it edits).
export function editor(initial, onChange, onRun, label = LABEL) {
  const shortcut = (mode) => () => {
    onRun(mode);
    return true;
  };
  let replacing = false; // setting .value from the page is not the learner's edit
  const state = EditorState.create({
    doc: initial,
    extensions: [
      Prec.highest(keymap.of([
        { key: "Mod-Enter", run: shortcut("run") },
        { key: "Ctrl-Enter", run: shortcut("run") },
        { key: "Shift-Mod-Enter", run: shortcut("submit") },
        { key: "Shift-Ctrl-Enter", run: shortcut("submit") },
        { key: "Tab", run: tab, shift: indentLess },
      ])),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      history(),
      indentUnit.of(" ".repeat(INDENT)),
      EditorState.tabSize.of(INDENT),
      python(),
      indentOnInput(),
      syntaxHighlighting(highlighting),
      bracketMatching(),
      closeBrackets(),
      EditorView.lineWrapping,
      typeOverSelection,
      EditorView.contentAttributes.of({ "aria-label": label }),
      theme,
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && !replacing) onChange(update.state.doc.toString());
      }),
    ],
  });

  // CodeMirror adds its styles at run time. In a document it would write a <style> element, which
  // the page's policy (style-src 'self') refuses; in a shadow root it uses a constructed style sheet
  // (adoptedStyleSheets), which that policy does not govern. So the editor lives in a shadow root.
  const element = document.createElement("div");
  element.className = "code-editor";
  const root = element.attachShadow({ mode: "open" });
  StyleModule.mount(root, palette);
  const view = new EditorView({ state, root, parent: root });

  return {
    element,
    get value() {
      return view.state.doc.toString();
    },
    set value(text) {
      // One change, kept in the undo history, so a reset can be taken back with Ctrl+Z.
      replacing = true;
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: String(text) } });
      } finally {
        replacing = false;
      }
    },
    goToLine(line, column = 1) {
      const doc = view.state.doc;
      const target = doc.line(Math.min(Math.max(1, Math.trunc(line) || 1), doc.lines));
      const offset = Math.min(Math.max(0, (Math.trunc(column) || 1) - 1), target.length);
      view.dispatch({
        selection: EditorSelection.cursor(target.from + offset),
        effects: EditorView.scrollIntoView(target.from + offset, { y: "center" }),
      });
      view.focus();
    },
    focus() {
      view.focus();
    },
  };
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
