// /author: the problems the signed-in instructor owns (an admin: every problem), with the newest
// version's status, the published version and the acceptance rate; uploading a problem folder as
// an archive, and copying a problem under a new slug.
import { api } from "./api.js";
import { shortVersion } from "./author-format.js";
import { sendForm } from "./author-http.js";
import { authorHref, statusBadge } from "./author-parts.js";
import { el, link, notice, percent, problemHref, scrollBox, setTitle, show } from "./dom.js";

const SLUG = /^[a-z][a-z0-9_]*$/;

// GET /problems lists published problems and my drafts; the detail of one carries "versions"
// only for its owner (or an admin), which is how the mine are told apart.
async function myProblems(signal) {
  const all = await api("/problems", { signal });
  const details = await Promise.all(all.map((p) => api(`/problems/${encodeURIComponent(p.slug)}`, { signal })
    .catch((error) => {
      if (error.name === "AbortError") throw error;
      return null; // gone since the list was read, or not readable: not mine to author
    })));
  const mine = details.filter((d) => d && Array.isArray(d.versions));
  const known = new Set(all.map((p) => p.slug));
  const stats = await Promise.all(mine.map((p) => api(`/problems/${encodeURIComponent(p.slug)}/stats`, { signal })
    .catch((error) => {
      if (error.name === "AbortError") throw error;
      return null;
    })));
  return { known, rows: mine.map((problem, i) => ({ problem, stats: stats[i] })) };
}

function acceptanceText(stats) {
  if (!stats) return "";
  if (!stats.submissions) return "no submissions";
  return `${percent(stats.acceptance_rate || 0)} of ${stats.submissions}`;
}

function problemTable(rows) {
  if (!rows.length) return notice("You have no problems yet: upload one or copy one below.");
  return scrollBox(el("table", { class: "list author-problems" },
    el("caption", { class: "sr-only" }, "My problems"),
    el("thead", {}, el("tr", {}, ["Problem", "Newest version", "Published version", "Acceptance", "Pages"]
      .map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(({ problem, stats }) => {
      const newest = problem.versions[problem.versions.length - 1];
      const published = problem.versions.find((v) => v.published);
      return el("tr", {},
        el("th", { scope: "row" }, link(authorHref(problem.slug), problem.title),
          el("div", { class: "muted slug" }, problem.slug)),
        el("td", {}, newest ? [statusBadge(newest.status), " ", el("code", {}, shortVersion(newest.version))] : ""),
        el("td", {}, published ? el("code", {}, shortVersion(published.version)) : el("span", { class: "muted" }, "not published")),
        el("td", { class: "number" }, acceptanceText(stats)),
        el("td", { class: "links" },
          link(`${authorHref(problem.slug)}/insight`, "Insight", { "aria-label": `Insight into ${problem.title}` }),
          published ? [" · ", link(problemHref(problem.slug), "Public page", { "aria-label": `Public page of ${problem.title}` })] : null));
    }))));
}

// A labelled field: the label, the control, and a hint tied to it with aria-describedby.
function field(id, text, control, hint) {
  control.id = id;
  if (hint) control.setAttribute("aria-describedby", `${id}-hint`);
  return el("div", { class: "author-field" },
    el("label", { for: id }, text), control,
    hint ? el("span", { id: `${id}-hint`, class: "muted hint" }, hint) : null);
}

function uploadForm(known, signal) {
  const archive = el("input", { type: "file", name: "archive", required: true,
    accept: ".zip,.tar.gz,.tgz,application/zip,application/gzip,application/x-gzip" });
  const slug = el("input", { type: "text", name: "slug", autocomplete: "off", spellcheck: "false", pattern: SLUG.source });
  const state = el("p", { class: "form-state", role: "status" });
  const button = el("button", { type: "submit", class: "primary" }, "Upload a problem");
  const form = el("form", { class: "author-form", "aria-labelledby": "upload-heading", novalidate: true },
    field("upload-archive", "Problem folder archive (.zip or .tar.gz)", archive,
      "The folder with problem.toml, statement.md, reference.py, tests/ and wrong/, at the top of the archive or in one folder."),
    field("upload-slug", "Slug (optional)", slug, "Leave empty to take the slug problem.toml names."),
    el("div", { class: "actions" }, button), state);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = archive.files && archive.files[0];
    if (!file) {
      state.textContent = "Choose an archive first.";
      archive.focus();
      return;
    }
    const wanted = slug.value.trim();
    if (wanted && !SLUG.test(wanted)) {
      state.textContent = "A slug starts with a small letter and holds small letters, digits and _.";
      slug.focus();
      return;
    }
    const body = new FormData();
    body.append("archive", file, file.name);
    if (wanted) body.append("slug", wanted);
    button.disabled = true;
    state.textContent = `Uploading ${file.name}…`;
    try {
      const created = await sendForm("/problems", "POST", body, signal);
      let made = created.problem || wanted;
      if (!made) { // the answer names the version, not the problem: the new slug in the list is it
        const now = await api("/problems", { signal });
        made = (now.find((p) => !known.has(p.slug)) || {}).slug;
      }
      state.textContent = "Uploaded; its validation runs now.";
      location.assign(made ? authorHref(made) : "/author");
    } catch (error) {
      if (error.name === "AbortError") return;
      state.textContent = `Not uploaded: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });
  return el("section", { class: "author-box" }, el("h2", { id: "upload-heading" }, "Upload a problem"), form);
}

function copyForm(rows, signal) {
  const source = el("select", { name: "source" }, rows.map(({ problem }) => el("option", { value: problem.slug },
    `${problem.title} (${problem.slug})`)));
  const slug = el("input", { type: "text", name: "new_slug", required: true, autocomplete: "off", spellcheck: "false",
    pattern: SLUG.source });
  const state = el("p", { class: "form-state", role: "status" });
  const button = el("button", { type: "submit" }, "Copy a problem");
  const form = el("form", { class: "author-form", "aria-labelledby": "copy-heading", novalidate: true },
    field("copy-source", "Problem to copy", source),
    field("copy-slug", "New slug", slug, "Small letters, digits and _, starting with a letter; problem.toml is rewritten to it."),
    el("div", { class: "actions" }, button), state);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const wanted = slug.value.trim();
    if (!SLUG.test(wanted)) {
      state.textContent = "A slug starts with a small letter and holds small letters, digits and _.";
      slug.focus();
      return;
    }
    button.disabled = true;
    state.textContent = `Copying ${source.value} to ${wanted}…`;
    try {
      await api(`/problems/${encodeURIComponent(source.value)}/copy`, { method: "POST", json: { new_slug: wanted }, signal });
      location.assign(authorHref(wanted));
    } catch (error) {
      if (error.name === "AbortError") return;
      state.textContent = `Not copied: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });
  return el("section", { class: "author-box" }, el("h2", { id: "copy-heading" }, "Copy a problem"),
    rows.length ? form : el("p", { class: "muted" }, "There is nothing of yours to copy yet."));
}

export async function authorListPage(signal) {
  setTitle("My problems");
  const me = await api("/me", { signal });
  if (me.role !== "instructor" && me.role !== "admin") {
    show(el("h1", {}, "My problems"), notice("Authoring is for instructors and administrators.", "error"));
    return;
  }
  const { known, rows } = await myProblems(signal);
  show(
    el("h1", {}, "My problems"),
    el("p", { class: "muted" }, "Each save of a problem is a draft version, validated in the sandbox; learners see the published version."),
    problemTable(rows),
    el("div", { class: "author-forms" }, uploadForm(known, signal), copyForm(rows, signal)));
}
