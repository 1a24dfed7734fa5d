// The one way old code (a past submission's) replaces the draft in the editor: after asking,
// whenever that would lose different work. Drafts themselves are kept by problems/editor.js.
import { loadDraft, saveDraft } from "./editor.js";

// Returns whether the draft of the problem now holds the code.
export function replaceDraft(slug, code, what) {
  const draft = loadDraft(slug);
  if (draft !== null && draft !== code && draft.trim() !== "" &&
      !window.confirm(`Replace the code in your editor with ${what}? Your current draft will be lost.`)) {
    return false;
  }
  saveDraft(slug, code);
  return true;
}
