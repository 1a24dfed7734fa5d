// The learner's pages: each route is [path pattern, page(match) -> (signal) => Promise, nav item].
// Other areas keep their own table (*/routes.js); app.js joins them.
import { historyPage } from "../submissions/history.js";
import { submissionListPage, submissionPage } from "../submissions/lists.js";
import { problemPage } from "./page.js";
import { problemListPage } from "./progress.js";

export const LEARNER_ROUTES = [
  [/^\/$/, () => problemListPage, "problems"],
  [/^\/problems\/([^/]+)$/, (m) => (signal) => problemPage(decodeURIComponent(m[1]), signal), "problems"],
  [/^\/problems\/([^/]+)\/history$/, (m) => (signal) => historyPage(decodeURIComponent(m[1]), signal), "problems"],
  [/^\/submissions$/, () => submissionListPage, "submissions"],
  [/^\/submissions\/(\d+)$/, (m) => (signal) => submissionPage(Number(m[1]), signal), "submissions"],
];
