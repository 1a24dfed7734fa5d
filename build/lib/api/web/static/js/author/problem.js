// /author/{slug}: one problem's authoring page. Versions with their validation reports, Publish
// and Roll back (author/versions.js); the files of a version in an editor, saved as a new draft
// whose validation is then followed (author/files.js); Rejudge with its progress bar and the
// hidden tests of the version being edited (author/rejudge.js); a changed folder uploaded as a .zip
// (author/upload.js); whether other instructors may copy it (author/sharing.js). The header says
// which version is published, redrawn with every list of versions, so Publish and Roll back show
// there without a reload.
import { api } from "../core/api.js";
import { fileEditor } from "./files.js";
import { shortVersion } from "./format.js";
import { authorHref, problemApi } from "./parts.js";
import { hiddenTestsView, rejudgePanel } from "./rejudge.js";
import { sharingPanel } from "./sharing.js";
import { uploadPanel } from "./upload.js";
import { versionsPanel } from "./versions.js";
import { el, link, notice, problemHref, setTitle, show } from "../core/dom.js";

// The header's state line: published (which version) or not, the preview of the version learners
// see (the published one; before any, the newest), named, and the insight page. Other versions
// are previewed from the versions table.
function stateLine(slug, versions) {
  const published = versions.find((v) => v.published);
  const previewed = published || versions[versions.length - 1];
  const which = previewed && `version ${shortVersion(previewed.version)}${published ? ", published" : `, newest, ${previewed.status}`}`;
  return [
    published
      ? [el("span", { class: "tag published-state" }, `published: version ${shortVersion(published.version)}`),
        link(problemHref(slug), "Public page")]
      : el("span", { class: "tag draft" }, "not published"),
    previewed ? link(`${authorHref(slug)}/preview?version=${encodeURIComponent(previewed.version)}`, `Preview (${which})`) : null,
    link(`${authorHref(slug)}/insight`, "Insight")];
}

export async function authorProblemPage(slug, signal) {
  setTitle(`Author ${slug}`);
  const problem = await api(problemApi(slug), { signal });
  if (!Array.isArray(problem.versions)) {
    show(el("h1", {}, problem.title), notice("Only the problem's owner or an administrator can author it.", "error"));
    return;
  }
  setTitle(`Author: ${problem.title}`);

  const hiddenHeading = el("h2", { id: "hidden-heading" }, "Hidden tests");
  const hiddenBox = el("div");
  let editing = null; // the version whose files are in the editor

  const files = fileEditor(slug, signal, (created) => {
    editing = created.version;
    versions.follow(created.version).then(() => loadHidden(created.version)).catch((error) => {
      if (error.name !== "AbortError") hiddenBox.replaceChildren(notice(error.message, "error"));
    });
  });

  async function loadHidden(version) {
    hiddenHeading.textContent = `Hidden tests of version ${shortVersion(version)}`;
    try {
      const view = await api(`${problemApi(slug)}/preview?version=${encodeURIComponent(version)}`, { signal });
      hiddenBox.replaceChildren(hiddenTestsView(view));
    } catch (error) {
      if (error.name !== "AbortError") hiddenBox.replaceChildren(notice(`The tests of this version cannot be read: ${error.message}`, "error"));
    }
  }

  async function edit(version) {
    if (editing && version !== editing && files.changed()
      && !window.confirm(`Your changes to the files are not saved. Open version ${shortVersion(version)} anyway?`)) return;
    const found = await api(`${problemApi(slug)}/versions/${encodeURIComponent(version)}/files`, { signal });
    editing = version;
    files.load(found.version, found.files);
    await loadHidden(version);
  }

  const state = el("p", { class: "meta", id: "author-state" }, stateLine(slug, problem.versions));
  const versions = versionsPanel(slug, signal, {
    onEdit: (version) => edit(version).then(() => files.element.scrollIntoView({ block: "start" })).catch(() => {}),
    onListed: (listed) => state.replaceChildren(...stateLine(slug, listed).flat(Infinity).filter(Boolean)),
  });
  const rejudge = rejudgePanel(slug, signal);
  const upload = uploadPanel(slug, signal, (created) => {
    versions.follow(created.version).then(() => edit(created.version)).catch((error) => {
      if (error.name !== "AbortError") hiddenBox.replaceChildren(notice(error.message, "error"));
    });
  });

  show(
    el("div", { class: "problem-head" },
      el("p", { class: "author-crumbs" }, link("/author", "My problems")),
      el("h1", {}, problem.title, el("span", { class: "muted slug" }, ` (${slug})`)),
      state),
    versions.element,
    upload.element,
    files.element,
    rejudge.element,
    sharingPanel(problem, signal),
    el("section", { class: "author-box", "aria-labelledby": "hidden-heading" }, hiddenHeading, hiddenBox));

  const listed = await versions.refresh();
  const last = listed[listed.length - 1];
  if (last) await edit(last.version);
  if (last && last.status === "draft") versions.follow(last.version).catch(() => {});
  rejudge.start();
}
