// The instructor's authoring and insight pages: [path pattern, page(match) -> (signal) => Promise,
// nav item], joined into app.js's table like the learner's routes.js.
import { authorListPage } from "./author-list.js";
import { previewPage } from "./author-preview.js";
import { authorProblemPage } from "./author-problem.js";
import { insightPage } from "./author-insight.js";

const slugOf = (m) => decodeURIComponent(m[1]);

export const AUTHOR_ROUTES = [
  [/^\/author$/, () => authorListPage, "author"],
  [/^\/author\/([^/]+)$/, (m) => (signal) => authorProblemPage(slugOf(m), signal), "author"],
  [/^\/author\/([^/]+)\/preview$/, (m) => (signal) => previewPage(slugOf(m), signal), "author"],
  [/^\/author\/([^/]+)\/insight$/, (m) => (signal) => insightPage(slugOf(m), signal), "author"],
];
