// The course pages: each route is [path pattern, page(match) -> (signal) => Promise, nav item],
// as in problems/routes.js; app.js joins the tables.
import { assignmentPage } from "../assignments/page.js";
import { coursePage } from "./page.js";
import { coursesPage } from "./list.js";
import { assignmentSimilarityPage } from "../assignments/similarity.js";
import { gradebookPage } from "../assignments/gradebook.js";

export const COURSE_ROUTES = [
  [/^\/courses$/, () => coursesPage, "courses"],
  [/^\/courses\/(\d+)$/, (m) => (signal) => coursePage(Number(m[1]), signal), "courses"],
  [/^\/assignments\/(\d+)$/, (m) => (signal) => assignmentPage(Number(m[1]), signal), "courses"],
  [/^\/assignments\/(\d+)\/gradebook$/, (m) => (signal) => gradebookPage(Number(m[1]), signal), "courses"],
  [/^\/assignments\/(\d+)\/similarity$/, (m) => (signal) => assignmentSimilarityPage(Number(m[1]), signal), "courses"],
];
