// "Upload a new version (.zip)" on an existing problem's authoring page: the changed folder as an
// archive, sent to PUT /problems/{slug} (the route JSON edits use too, with the create route's
// bounds), then followed while it validates; a refusal is said in the page's words, naming the
// file and line when the judge does (author/format.js uploadRefusal).
import { shortVersion, uploadRefusal } from "./format.js";
import { sendForm } from "./http.js";
import { problemApi } from "./parts.js";
import { el } from "../core/dom.js";

// uploadPanel(slug, signal, onUploaded(versionOut)) -> { element }.
export function uploadPanel(slug, signal, onUploaded) {
  const input = el("input", {
    id: "new-version-archive", type: "file", name: "archive", accept: ".zip,application/zip",
    "aria-describedby": "new-version-hint new-version-state",
  });
  const state = el("p", { id: "new-version-state", class: "form-state", role: "status" });
  const button = el("button", { type: "submit" }, "Upload a new version (.zip)");
  const form = el("form", { class: "upload-version" },
    el("label", { for: "new-version-archive" }, "Changed problem folder (.zip)"), input,
    el("p", { id: "new-version-hint", class: "muted hint" },
      "The whole folder (problem.toml, statement.md, reference.py, tests/, wrong/), at the top of the zip or in one folder. ",
      "It becomes a new draft version, validated in the sandbox; the published version stays until you publish another."),
    el("div", { class: "actions" }, button), state);

  const refuse = (words) => {
    input.setAttribute("aria-invalid", "true");
    state.className = "form-state refused";
    state.replaceChildren(el("strong", {}, "Not uploaded. "), words);
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = input.files && input.files[0];
    if (!file) {
      refuse("Choose the .zip of the changed problem folder first.");
      input.focus();
      return;
    }
    input.setAttribute("aria-invalid", "false");
    state.className = "form-state";
    state.textContent = `Uploading ${file.name}…`;
    button.disabled = true;
    const body = new FormData();
    body.append("archive", file, file.name);
    try {
      const created = await sendForm(problemApi(slug), "PUT", body, signal);
      state.textContent = `${file.name} is version ${shortVersion(created.version)}: see its validation under Versions.`;
      form.reset();
      onUploaded(created);
    } catch (error) {
      if (error.name !== "AbortError") refuse(uploadRefusal(error, file.name, slug));
    } finally {
      button.disabled = false;
    }
  });

  const element = el("section", { class: "author-box", "aria-labelledby": "upload-heading" },
    el("h2", { id: "upload-heading" }, "Upload a new version"), form);
  return { element };
}
