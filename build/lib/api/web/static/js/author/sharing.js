// "Sharing" on a problem's authoring page: whether other instructors may copy it (PATCH
// /problems/{slug} {"shareable"}). A copy holds every file, hidden tests, reference and wrong
// solutions included, so it stays off until the owner turns it on; a shipped problem is public in
// the repository anyway and always shareable (the box is ticked and cannot be changed).
import { api } from "../core/api.js";
import { problemApi } from "./parts.js";
import { el } from "../core/dom.js";

const SAID = {
  true: "Shared: other instructors may copy its published version.",
  false: "Not shared: only you (and administrators) may copy it.",
};

// sharingPanel(problem, signal) -> the section; problem is GET /problems/{slug}'s answer.
export function sharingPanel(problem, signal) {
  const box = el("input", {
    type: "checkbox", id: "problem-shareable", checked: problem.shareable, disabled: problem.shipped,
    "aria-describedby": "sharing-hint sharing-state",
  });
  const state = el("p", { id: "sharing-state", class: "form-state", role: "status" });
  const hint = el("p", { id: "sharing-hint", class: "muted hint" }, problem.shipped
    ? "It ships with the judge: its files are public, so any instructor may copy it."
    : "Others then copy its published version into a draft of their own with every file: hidden tests, reference and wrong solutions included. Copies already made stay theirs if you stop sharing.");
  box.addEventListener("change", async () => {
    const wanted = box.checked;
    box.disabled = true;
    state.className = "form-state";
    state.textContent = "Saving…";
    try {
      const changed = await api(problemApi(problem.slug), { method: "PATCH", json: { shareable: wanted }, signal });
      box.checked = changed.shareable;
      state.textContent = SAID[changed.shareable];
    } catch (error) {
      if (error.name === "AbortError") return;
      box.checked = !wanted;
      state.className = "form-state refused";
      state.textContent = `Not changed: ${error.message}`;
    } finally {
      box.disabled = false;
    }
  });
  return el("section", { class: "author-box sharing", "aria-labelledby": "sharing-heading" },
    el("h2", { id: "sharing-heading" }, "Sharing"),
    el("div", { class: "choice" }, box, el("label", { for: "problem-shareable" }, "Let other instructors copy this problem")),
    hint, state);
}
