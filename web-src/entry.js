// The CodeMirror 6 pieces the problem page's editor uses (api/web/static/js/problems/editor.js
// configures them).
// Only what is named here ends up in the bundle; add a name here and rebuild with scripts/build-web-assets.
export { EditorState, EditorSelection, Prec } from "@codemirror/state";
export { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
export {
  defaultKeymap, history, historyKeymap, indentLess, indentMore,
} from "@codemirror/commands";
export {
  bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting,
} from "@codemirror/language";
export { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
export { python } from "@codemirror/lang-python";
export { tags } from "@lezer/highlight";
// CodeMirror's own style injector: the editor's colour variables are mounted with it on the shadow
// root, where the page's style policy lets constructed style sheets in.
export { StyleModule } from "style-mod";
