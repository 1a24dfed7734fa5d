// The LTI pages: an admin's platforms, dynamic registration (opened by an LMS), and the deep-
// linking picker an instructor reaches from an LMS.
import { ltiAdminPage } from "./admin.js";
import { deepLinkPage } from "./deep-link.js";
import { registrationPage } from "./register.js";

export const LTI_ROUTES = [
  [/^\/admin\/lti$/, () => ltiAdminPage, "admin"],
  [/^\/lti\/register$/, () => registrationPage, "admin"],
  [/^\/lti\/deep-link\/([^/]+)$/, (m) => (signal) => deepLinkPage(decodeURIComponent(m[1]), signal), "courses"],
];
