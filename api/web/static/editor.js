// The code editor (CodeMirror 6, bundled in vendor/codemirror.js by scripts/build-editor), plus
// drafts kept per problem in localStorage.
import {
  bracketMatching, closeBrackets, closeBracketsKeymap, defaultKeymap, EditorSelection, EditorState,
  EditorView, highlightActiveLine, highlightActiveLineGutter, HighlightStyle, history, historyKeymap,
  indentLess, indentMore, indentOnInput, indentUnit, keymap, lineNumbers, Prec, python,
  syntaxHighlighting, tags,
} from "./vendor/codemirror.js";

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

// Every colour is a custom property (set in editor.css for light and dark schemes), with the
// light value as the fallback, so one theme serves both schemes and follows prefers-color-scheme.
const color = (name, fallback) => `var(--cm-${name}, ${fallback})`;

const theme = EditorView.theme({
  "&": {
    color: color("ink", "#1d2430"),
    backgroundColor: color("paper", "#ffffff"),
    border: `1px solid ${color("line", "#d8dee6")}`,
    borderRadius: "5px",
    fontSize: "13px",
  },
  "&.cm-focused": { outline: `2px solid ${color("focus", "#1f5f8b")}`, outlineOffset: "-1px" },
  ".cm-scroller": {
    fontFamily: color("mono", "ui-monospace, monospace"),
    lineHeight: "1.5",
    minHeight: "22em",
    maxHeight: "75vh",
  },
  ".cm-content": { caretColor: color("ink", "#1d2430"), padding: "6px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: color("ink", "#1d2430") },
  ".cm-gutters": {
    backgroundColor: color("gutter", "#f5f7fa"),
    color: color("muted", "#5f6b7a"),
    borderRight: `1px solid ${color("line", "#d8dee6")}`,
    borderRadius: "5px 0 0 5px",
  },
  ".cm-activeLine": { backgroundColor: color("active-line", "#f2f6fb") },
  ".cm-activeLineGutter": { backgroundColor: color("active-gutter", "#e6edf5"), color: color("ink", "#1d2430") },
  "&.cm-focused .cm-matchingBracket": {
    backgroundColor: color("bracket", "#d6ebd9"), outline: `1px solid ${color("bracket-edge", "#1e7b3c")}`,
  },
  "&.cm-focused .cm-nonmatchingBracket": { backgroundColor: color("bad-bracket", "#f6d5d3") },
});

const highlighting = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.operatorKeyword],
    color: color("keyword", "#7a2a9a") },
  { tag: [tags.bool, tags.null, tags.self], color: color("atom", "#1f5f8b") },
  { tag: [tags.number], color: color("number", "#116644") },
  { tag: [tags.string, tags.special(tags.string)], color: color("string", "#a3410f") },
  { tag: [tags.comment], color: color("comment", "#5f6b7a"), fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)],
    color: color("definition", "#1a4fa3"), fontWeight: "600" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: color("call", "#22577a") },
  { tag: [tags.standard(tags.variableName)], color: color("builtin", "#8a4b00") },
  { tag: [tags.meta], color: color("meta", "#6a3d9a") },
  { tag: [tags.invalid], color: color("invalid", "#b3261e") },
]);

// editor(initial, onChange, onRun) -> { element, value, goToLine(line, column), focus() }.
// onChange(text) follows every edit the learner makes; onRun("run" | "submit") answers
// Ctrl/Cmd+Enter and Ctrl/Cmd+Shift+Enter.
export function editor(initial, onChange, onRun) {
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
      EditorView.contentAttributes.of({ "aria-label": LABEL }),
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
