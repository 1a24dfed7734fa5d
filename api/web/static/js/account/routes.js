// The account pages: [path pattern, page(match) -> (signal) => Promise, nav item, options].
// options.open: the page is for visitors who are not signed in too (app.js sends them to
// /sign-in for every other page).
import { accountPage } from "./page.js";
import { adminUsersPage } from "./admin-users.js";
import { joinPage } from "./join.js";
import { notificationsPage } from "./notifications.js";
import { signInPage } from "./signin.js";

export const ACCOUNT_ROUTES = [
  [/^\/sign-in$/, () => signInPage, "sign-in", { open: true }],
  [/^\/join\/([^/]+)$/, (m) => () => joinPage(decodeURIComponent(m[1])), "courses", { open: true }],
  [/^\/account$/, () => accountPage, "account"],
  [/^\/notifications$/, () => notificationsPage, "notifications"],
  [/^\/admin\/users$/, () => adminUsersPage, "admin"],
];
