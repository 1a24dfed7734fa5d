// The LTI pages: an admin's platforms, dynamic registration (opened by an LMS), and the deep-
// linking picker an instructor reaches from an LMS.
import { ltiAdminPage } from "./admin.js";
import { deepLinkPage } from "./deep-link.js";
import { registrationPage } from "./register.js";

export const LTI_ROUTES = [
  [/^\/admin\/lti$/, () => ltiAdminPage, "admin"],
  // open: in a frame it only offers a window of its own, signed in or not (js/lti/register.js)
  [/^\/lti\/register$/, () => registrationPage, "admin", { open: true }],
  [/^\/lti\/deep-link\/([^/]+)$/, (m) => (signal) => deepLinkPage(decodeURIComponent(m[1]), signal), "courses"],
];
