// The problem list with the learner's progress: a solved or attempted marker on each problem,
// how many are solved per difficulty and per tag, and filters by tag, difficulty and status that
// live in the address (?tag=&difficulty=&status=), so a filtered list can be bookmarked.
import { api } from "../core/api.js";
import { badge, el, link, notice, problemHref, scrollBox, setTitle, show } from "../core/dom.js";

const DIFFICULTIES = ["easy", "medium", "hard"];
const STATUSES = [["", "any status"], ["solved", "solved"], ["attempted", "attempted, not solved"],
  ["new", "not tried yet"]];

function marker(progress) {
  if (progress === "solved") return el("span", { class: "progress progress-solved" }, "✓ solved");
  if (progress === "attempted") return el("span", { class: "progress progress-attempted" }, "attempted");
  return el("span", { class: "muted" }, el("span", { "aria-hidden": "true" }, "—"), el("span", { class: "sr-only" }, "not tried"));
}

const statusOf = (p) => p.progress || "new";

// { key: { total, solved, attempted } } for one way of grouping (a problem in several tags counts in each).
function tally(problems, keysOf) {
  const counts = new Map();
  for (const p of problems) {
    for (const key of keysOf(p)) {
      const entry = counts.get(key) || { total: 0, solved: 0, attempted: 0 };
      entry.total += 1;
      if (p.progress === "solved") entry.solved += 1;
      if (p.progress === "attempted") entry.attempted += 1;
      counts.set(key, entry);
    }
  }
  return counts;
}

function countTable(caption, counts, order, choose) {
  const keys = [...counts.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return scrollBox(el("table", { class: "list counts" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ["", "Solved", "Attempted", "Problems"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, keys.map((key) => {
      const c = counts.get(key);
      return el("tr", {},
        el("th", { scope: "row" }, el("button", { type: "button", class: "link-button", onclick: () => choose(key) }, key)),
        el("td", { class: "number" }, String(c.solved)),
        el("td", { class: "number" }, String(c.attempted)),
        el("td", { class: "number" }, String(c.total)));
    }))));
}

// "easy 2 of 5 solved · medium …" under the summary, each a button that filters the list.
function byDifficulty(counts, order, choose) {
  const keys = [...counts.keys()].sort((a, b) => order(a) - order(b));
  return el("p", { class: "by-difficulty" }, keys.map((key, i) => [i ? " · " : "",
    el("button", { type: "button", class: "link-button", onclick: () => choose(key) }, key),
    ` ${counts.get(key).solved} of ${counts.get(key).total} solved`]));
}

function select(label, id, options, value, onChange) {
  const node = el("select", { id, onchange: () => onChange(node.value) },
    options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)));
  return el("div", { class: "filter" }, el("label", { for: id }, label), node);
}

// Each track: its progress, the problem to try next, and a button that shows only its problems.
function trackTable(tracks, titles, choose) {
  return scrollBox(el("table", { class: "list tracks" },
    el("caption", {}, "Tracks, in the order to take them"),
    el("thead", {}, el("tr", {}, ["Track", "Solved", "Next to try"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, tracks.map((t) => el("tr", {},
      el("th", { scope: "row" },
        el("button", { type: "button", class: "link-button", onclick: () => choose(t.slug) }, t.title),
        el("p", { class: "muted track-summary" }, t.summary)),
      el("td", { class: "number" }, `${t.solved} of ${t.total}`,
        el("progress", { max: String(t.total || 1), value: String(t.solved), "aria-label": `${t.title}: ${t.solved} of ${t.total} solved` })),
      el("td", {}, t.next ? link(problemHref(t.next), titles.get(t.next) || t.next)
        : t.total ? "all solved ✓" : "no problem published yet"))))));
}

export async function problemListPage(signal) {
  setTitle("Problems");
  const [problems, tracks] = await Promise.all([api("/problems", { signal }),
    api("/tracks", { signal }).catch(() => [])]); // an older judge has no tracks
  const tracked = problems.some((p) => "progress" in p); // an older judge tells no progress
  const query = new URLSearchParams(location.search);
  const filters = { track: query.get("track") || "", tag: query.get("tag") || "",
    difficulty: query.get("difficulty") || "", status: query.get("status") || "" };
  const inTrack = new Map(tracks.map((t) => [t.slug, t.problems.map((p) => p.slug)]));
  const tags = [...new Set(problems.flatMap((p) => p.tags))].sort();
  const results = el("div");

  const setFilter = (name, value) => {
    filters[name] = value;
    const next = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
    history.replaceState(null, "", next.toString() ? `/?${next}` : "/");
    draw();
  };
  const draw = () => {
    const order = inTrack.get(filters.track);
    const picked = order ? order.map((slug) => problems.find((p) => p.slug === slug)).filter(Boolean) : problems;
    const shown = picked.filter((p) => (!filters.tag || p.tags.includes(filters.tag))
      && (!filters.difficulty || p.difficulty === filters.difficulty)
      && (!filters.status || statusOf(p) === filters.status));
    const rows = shown.map((p) => el("tr", {},
      tracked ? el("td", { class: "progress-cell" }, marker(p.progress)) : null,
      el("td", {}, link(problemHref(p.slug), p.title)),
      el("td", { class: "slug" }, el("code", {}, p.slug)),
      el("td", {}, badge(p.difficulty, "difficulty")),
      el("td", { class: "tags" }, p.tags.map((t) => el("span", { class: "tag" }, t)),
        p.published ? null : el("span", { class: "tag draft" }, "draft"))));
    const headings = [...(tracked ? ["Status"] : []), "Problem", "Slug", "Difficulty", "Tags"];
    results.replaceChildren(
      el("p", { class: "muted", "aria-live": "polite" }, `Showing ${shown.length} of ${problems.length} problems.`),
      shown.length
        ? scrollBox(el("table", { class: "list problems" },
          el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col", class: h.toLowerCase() }, h)))),
          el("tbody", {}, rows)))
        : notice("No problem matches these filters."));
  };

  const solved = problems.filter((p) => p.progress === "solved").length;
  const attempted = problems.filter((p) => p.progress === "attempted").length;
  const rank = (d) => (DIFFICULTIES.includes(d) ? DIFFICULTIES.indexOf(d) : DIFFICULTIES.length);
  const filterBar = el("div", { class: "filters" },
    tracks.length ? select("Track", "filter-track", [["", "any track"], ...tracks.map((t) => [t.slug, t.title])],
      filters.track, (v) => setFilter("track", v)) : null,
    select("Tag", "filter-tag", [["", "any tag"], ...tags.map((t) => [t, t])], filters.tag, (v) => setFilter("tag", v)),
    select("Difficulty", "filter-difficulty", [["", "any difficulty"], ...DIFFICULTIES.map((d) => [d, d])],
      filters.difficulty, (v) => setFilter("difficulty", v)),
    tracked ? select("Status", "filter-status", STATUSES, filters.status, (v) => setFilter("status", v)) : null);
  const choose = (name) => (value) => {
    document.getElementById(`filter-${name}`).value = value;
    setFilter(name, value);
  };
  draw();
  if (!problems.length) {
    show(el("h1", {}, "Problems"), notice("No problems are published yet."));
    return;
  }
  show(
    el("h1", {}, "Problems"),
    tracked ? el("p", { class: "summary" }, `You have solved ${solved} of ${problems.length} problems`,
      attempted ? ` and attempted ${attempted} more.` : ".") : null,
    tracked ? byDifficulty(tally(problems, (p) => [p.difficulty]), rank, choose("difficulty")) : null,
    tracks.length ? trackTable(tracks, new Map(problems.map((p) => [p.slug, p.title])), choose("track")) : null,
    filterBar,
    results,
    tracked ? el("details", { class: "progress-counts", open: true },
      el("summary", {}, "Progress by difficulty and tag"),
      el("div", { class: "count-tables" },
        countTable("By difficulty", tally(problems, (p) => [p.difficulty]), rank, choose("difficulty")),
        countTable("By tag", tally(problems, (p) => p.tags), () => 0, choose("tag")))) : null);
}
