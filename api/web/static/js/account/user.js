// Who is signed in, and the header that says so. A browser signs in with a password (the session
// cookie; its CSRF token stays in core/api.js's memory) or, for REST users, with an API token kept in
// localStorage that GET /me checked before it was kept. The header shows "Signed in as NAME
// (role)" with "Account" and "Sign out", or a "Sign in" link, and the nav items marked data-needs
// (signed-in, instructor, admin) only to those they are for. The API decides access all the same.
import { api, getToken, readSession, setCsrf, setToken } from "../core/api.js";
import { signInHref } from "./nextpath.js";

let user = null; // { id, name, role } once /me or /auth/session has answered
let via = ""; // "session", "token", or "" when signed out
let unknown = false; // a token is kept but the judge could not say whose it is (network, old judge)

export const currentUser = () => user;
export const signedInWith = () => via;
// Pages that need someone signed in may be drawn: a user is known, or a kept token awaits checking.
export const signedIn = () => Boolean(user) || unknown;

const RANK = { learner: 0, instructor: 1, admin: 2 };
export function hasRole(role) {
  return Boolean(user) && (RANK[user.role] ?? -1) >= (RANK[role] ?? 99);
}

const byId = (id) => document.getElementById(id);

// Asks /me about a token: the user, null when the judge refuses the token, or undefined when
// the judge could not say (the network), so nothing is concluded.
export async function whoIs(token) {
  try {
    return await api("/me", { token });
  } catch (error) {
    if (error.status === 401) return null;
    return undefined;
  }
}

function needsMet(need) {
  if (need === "signed-in") return Boolean(user) || unknown;
  return hasRole(need);
}

export function drawHeader() {
  const who = byId("who");
  if (who) {
    who.textContent = user ? `Signed in as ${user.name} (${user.role})` : "";
    who.hidden = !user;
  }
  const on = signedIn();
  for (const id of ["account-link", "sign-out"]) {
    const node = byId(id);
    if (node) node.hidden = !on;
  }
  const notifications = byId("notifications-link");
  if (notifications) notifications.hidden = !user;
  drawUnread();
  const signIn = byId("sign-in-link");
  if (signIn) {
    signIn.hidden = on || location.pathname === "/sign-in";
    signIn.setAttribute("href", signInHref(location.pathname + location.search));
  }
  for (const item of document.querySelectorAll("[data-needs]")) item.hidden = !needsMet(item.dataset.needs);
}

// The header's count of unread notifications (from /me or /auth/session on every page load).
function drawUnread() {
  const count = byId("unread-count");
  if (!count) return;
  const unread = user ? user.unread_notifications || 0 : 0;
  // Read as "Notifications 3 unread"; seen as the number alone (no aria-label: the visible
  // text must stay part of the link's name).
  const hidden = (text) => Object.assign(document.createElement("span"), { className: "sr-only", textContent: text });
  count.replaceChildren(...(unread ? [String(unread), hidden(" unread")] : []));
  count.hidden = !unread;
}

// change: the new count, or (relative) how much it moved; the notifications page keeps it true.
export function setUnread(change, relative = false) {
  if (!user) return;
  user.unread_notifications = Math.max(0, (relative ? user.unread_notifications || 0 : 0) + change);
  drawUnread();
}

// On every page load: the kept token's user (a token refused since is dropped, and the cookie
// is asked instead), else the session's.
export async function loadUser() {
  user = null;
  via = "";
  unknown = false;
  const token = getToken();
  if (token) {
    const found = await whoIs(token);
    if (found) {
      user = found;
      via = "token";
    } else if (found === undefined) {
      unknown = true;
      via = "token";
    } else {
      setToken(""); // revoked or mistyped: the cookie may still speak
    }
  }
  if (!via) {
    try {
      const session = await readSession();
      if (session) {
        user = session.user;
        via = "session";
      }
    } catch {
      // the judge did not answer: signed out as far as this page can tell
    }
  }
  drawHeader();
  return user;
}

// Signing out ends the session on the server and forgets a kept token; then the sign-in page.
export async function signOut() {
  try {
    if (via === "session") await api("/auth/sign-out", { method: "POST", token: "" });
  } catch {
    // the session is gone already, or the judge is away: the browser forgets it anyway
  }
  setToken("");
  setCsrf("");
  user = null;
  via = "";
  unknown = false;
  location.assign("/sign-in");
}

export function setUpHeader() {
  byId("sign-out")?.addEventListener("click", () => signOut());
}
