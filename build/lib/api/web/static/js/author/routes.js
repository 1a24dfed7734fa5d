// The instructor's authoring and insight pages: [path pattern, page(match) -> (signal) => Promise,
// nav item], joined into app.js's table like the learner's problems/routes.js.
import { authorListPage } from "./list.js";
import { previewPage } from "./preview.js";
import { authorProblemPage } from "./problem.js";
import { insightPage } from "./insight.js";

const slugOf = (m) => decodeURIComponent(m[1]);

export const AUTHOR_ROUTES = [
  [/^\/author$/, () => authorListPage, "author"],
  [/^\/author\/([^/]+)$/, (m) => (signal) => authorProblemPage(slugOf(m), signal), "author"],
  [/^\/author\/([^/]+)\/preview$/, (m) => (signal) => previewPage(slugOf(m), signal), "author"],
  [/^\/author\/([^/]+)\/insight$/, (m) => (signal) => insightPage(slugOf(m), signal), "author"],
];
