// Where to go after signing in: the ?next= of /sign-in. Only a path of this site is followed, so
// a link whose next= names another site (a full URL, or //host) cannot send someone away after they
// signed in (an open redirect). No DOM here: a unit test runs it under Node.

const FALLBACK = "/";
const BASE = "http://judge.invalid";

// The path to go to for a ?next= value: a same-origin path (with its query and fragment), or "/"
// for anything else: absolute URLs, scheme-relative "//host", backslashes (browsers read "/\host"
// as "//host"), control characters, other schemes, and the sign-in page itself (no loop). The
// check is made again on the path as the URL parser normalised it: "/.//host/x" and "/..//host"
// start with one slash, but their path is "//host...", which a browser given it as an address
// reads as another site.
export function safeNext(value) {
  if (typeof value !== "string" || value === "") return FALLBACK;
  if (!value.startsWith("/") || value.startsWith("//")) return FALLBACK;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return FALLBACK;
  let url;
  try {
    url = new URL(value, BASE);
  } catch {
    return FALLBACK;
  }
  if (url.origin !== BASE || url.pathname === "/sign-in") return FALLBACK;
  const path = url.pathname + url.search + url.hash;
  if (!/^\/(?![\/\\])/.test(path) || new URL(path, BASE).href !== url.href) return FALLBACK;
  return path;
}

// The sign-in page's address that comes back to path afterwards ("/" needs no next).
export function signInHref(path) {
  const next = safeNext(path);
  return next === FALLBACK ? "/sign-in" : "/sign-in?next=" + encodeURIComponent(next);
}
