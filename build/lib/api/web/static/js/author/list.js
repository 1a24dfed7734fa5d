// /author: the problems the signed-in instructor owns (an admin: every problem), with the newest
// version's status, the published version and the acceptance rate (one request: GET
// /problems?mine=true); uploading a problem folder as
// an archive, and copying a problem under a new slug.
import { api } from "../core/api.js";
import { shortVersion } from "./format.js";
import { sendForm } from "./http.js";
import { authorHref, statusBadge } from "./parts.js";
import { el, link, notice, percent, problemHref, scrollBox, setTitle, show } from "../core/dom.js";

const SLUG = /^[a-z][a-z0-9_]*$/;

// GET /problems?mine=true: the problems I may author, each with its newest version and acceptance,
// in one request.
const myProblems = (signal) => api("/problems?mine=true", { signal });

function acceptanceText(acceptance) {
  if (!acceptance || !acceptance.submissions) return "no submissions";
  return `${percent(acceptance.rate || 0)} of ${acceptance.submissions}`;
}

function problemTable(rows) {
  if (!rows.length) return notice("You have no problems yet: upload one or copy one below.");
  return scrollBox(el("table", { class: "list author-problems" },
    el("caption", { class: "sr-only" }, "My problems"),
    el("thead", {}, el("tr", {}, ["Problem", "Newest version", "Published version", "Acceptance", "Pages"]
      .map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((problem) => {
      const newest = problem.newest_version;
      return el("tr", {},
        el("th", { scope: "row" }, link(authorHref(problem.slug), problem.title),
          el("div", { class: "muted slug" }, problem.slug)),
        el("td", {}, newest ? [statusBadge(newest.status), " ", el("code", {}, shortVersion(newest.version))] : ""),
        el("td", {}, problem.version ? el("code", {}, shortVersion(problem.version)) : el("span", { class: "muted" }, "not published")),
        el("td", { class: "number" }, acceptanceText(problem.acceptance)),
        el("td", { class: "links" },
          link(`${authorHref(problem.slug)}/insight`, "Insight", { "aria-label": `Insight into ${problem.title}` }),
          problem.published ? [" · ", link(problemHref(problem.slug), "Public page", { "aria-label": `Public page of ${problem.title}` })] : null));
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

function uploadForm(signal) {
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
      state.textContent = "Uploaded; its validation runs now.";
      location.assign(authorHref(created.problem)); // the answer names the problem, slug or not
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
  const source = el("select", { name: "source" }, rows.map((problem) => el("option", { value: problem.slug },
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
    rows.length ? form : el("p", { class: "muted" }, "There is nothing to copy yet: no problem is yours or shared."));
}

export async function authorListPage(signal) {
  setTitle("My problems");
  const me = await api("/me", { signal });
  if (me.role !== "instructor" && me.role !== "admin") {
    show(el("h1", {}, "My problems"), notice("Authoring is for instructors and administrators.", "error"));
    return;
  }
  const [rows, catalog] = await Promise.all([myProblems(signal), api("/problems", { signal })]);
  // What may be copied: one's own problems, and every published one its owner lets others copy
  // (the shipped ones always).
  const mine = new Set(rows.map((problem) => problem.slug));
  const sources = [...rows, ...catalog.filter((problem) => problem.shareable && !mine.has(problem.slug))];
  show(
    el("h1", {}, "My problems"),
    el("p", { class: "muted" }, "Each save of a problem is a draft version, validated in the sandbox; learners see the published version."),
    problemTable(rows),
    el("div", { class: "author-forms" }, uploadForm(signal), copyForm(sources, signal)));
}
