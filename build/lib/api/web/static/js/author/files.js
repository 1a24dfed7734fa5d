// The authoring page's file editor: the files of one version, one shown at a time (Python in the
// code editor, every other file in a plain text area), files added and removed, and "Save draft",
// which sends every file as a new draft version (PUT /problems/{slug}).
import { api } from "../core/api.js";
import { isPython, newPathProblem, shortVersion, uploadRefusal } from "./format.js";
import { problemApi } from "./parts.js";
import { el } from "../core/dom.js";
import { editor } from "../problems/editor.js";

const sortPaths = (paths) => [...paths].sort((a, b) => {
  const depth = (p) => p.split("/").length; // the folder's own files before its sub-folders'
  return depth(a) - depth(b) || a.localeCompare(b);
});

// fileEditor(slug, signal, onSaved(versionOut)) -> { element, load(version, files), changed() }.
export function fileEditor(slug, signal, onSaved) {
  let files = {}; // path -> text, as edited
  let original = {}; // path -> text, as loaded
  let current = null; // the path shown
  let fromVersion = "";

  const heading = el("h2", { id: "files-heading" }, "Files");
  const list = el("ul", { class: "file-list" });
  const paneTitle = el("h3", { id: "file-pane-title", class: "file-title" });
  const remove = el("button", { type: "button", class: "quiet" }, "Remove this file");
  const pane = el("div", { class: "file-body" });
  const state = el("p", { class: "form-state", role: "status" });
  const save = el("button", { type: "button", class: "primary" }, "Save draft");

  const changed = () => {
    const paths = Object.keys(files);
    return paths.length !== Object.keys(original).length || paths.some((p) => files[p] !== original[p]);
  };

  function drawList() {
    list.replaceChildren(...sortPaths(Object.keys(files)).map((path) => {
      const edited = original[path] === undefined || files[path] !== original[path];
      return el("li", {}, el("button", {
        type: "button", class: "file-button", "aria-current": path === current ? "true" : false,
        onclick: () => select(path),
      }, path, edited ? el("span", { class: "edited" }, " • ", el("span", { class: "sr-only" }, "changed")) : null));
    }));
  }

  function select(path) {
    current = path;
    paneTitle.textContent = path || "No file";
    remove.hidden = !path;
    if (!path) {
      pane.replaceChildren(el("p", { class: "muted" }, "This version has no files."));
    } else if (isPython(path)) {
      const code = editor(files[path], (text) => {
        files[path] = text;
        drawList();
      }, () => {}, `${path} (Python)`);
      pane.replaceChildren(code.element);
    } else {
      const area = el("textarea", {
        class: "code", spellcheck: "false", autocomplete: "off", "aria-labelledby": "file-pane-title",
        oninput: () => {
          files[path] = area.value;
          drawList();
        },
      });
      area.value = files[path];
      pane.replaceChildren(area);
    }
    drawList();
  }

  remove.addEventListener("click", () => {
    if (!current || !window.confirm(`Remove ${current} from the draft?`)) return;
    delete files[current];
    state.textContent = `${current} is removed from the draft; Save draft keeps that.`;
    select(sortPaths(Object.keys(files))[0] || null);
  });

  const newPath = el("input", { id: "new-file-path", type: "text", autocomplete: "off", spellcheck: "false",
    "aria-describedby": "new-file-hint" });
  const addState = el("span", { id: "new-file-hint", class: "muted hint" }, "A path inside the problem folder, e.g. wrong/off_by_one.py.");
  const addForm = el("form", { class: "add-file" },
    el("label", { for: "new-file-path" }, "New file path"), newPath,
    el("button", { type: "submit" }, "Add file"), addState);
  addForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const problem = newPathProblem(newPath.value, Object.keys(files));
    newPath.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) {
      addState.textContent = problem;
      newPath.focus();
      return;
    }
    const path = newPath.value.trim();
    files[path] = "";
    newPath.value = "";
    addState.textContent = `${path} is added (empty); Save draft keeps it.`;
    select(path);
  });

  save.addEventListener("click", async () => {
    if (!changed()) {
      state.textContent = "Nothing has changed since version " + shortVersion(fromVersion) + ".";
      return;
    }
    save.disabled = true;
    state.className = "form-state";
    state.textContent = "Saving a draft…";
    try {
      const created = await api(problemApi(slug), { method: "PUT", json: { files }, signal });
      original = { ...files };
      fromVersion = created.version;
      heading.textContent = `Files (from version ${shortVersion(created.version)})`;
      drawList();
      state.textContent = `Saved as version ${shortVersion(created.version)}; it is being validated (see Versions).`;
      onSaved(created);
    } catch (error) {
      // A refusal reads as the upload's do: red, and naming the file and line at fault.
      if (error.name !== "AbortError") {
        state.className = "form-state refused";
        state.textContent = `Not saved. ${uploadRefusal(error, "The draft", slug)}`;
      }
    } finally {
      save.disabled = false;
    }
  });

  const element = el("section", { class: "author-box author-files", "aria-labelledby": "files-heading" },
    heading,
    el("p", { class: "muted" }, "Python files open in the code editor, the rest as plain text. ",
      "Save draft sends every file as a new version, validated in the sandbox in the background."),
    el("div", { class: "file-editor" },
      el("nav", { class: "file-nav", "aria-label": "Files of the draft" }, list),
      el("div", { class: "file-pane" }, el("div", { class: "file-head" }, paneTitle, remove), pane)),
    addForm,
    el("div", { class: "actions" }, save, state));

  return {
    element,
    changed,
    load(version, loaded) {
      files = { ...loaded };
      original = { ...loaded };
      fromVersion = version;
      heading.textContent = `Files (from version ${shortVersion(version)})`;
      const paths = sortPaths(Object.keys(files));
      select(paths.includes("statement.md") ? "statement.md" : paths[0] || null);
      state.textContent = "";
    },
  };
}
