// The JSON API. The pages are signed in with the session cookie (credentials "same-origin"); every
// request that changes something then carries the session's CSRF token, which GET /auth/session
// hands out and this module keeps in memory only. A REST user may instead keep an API token in
// localStorage: when one is kept it goes as a Bearer token (and the API prefers it to the cookie).
// Errors become ApiError with the API's message.
const TOKEN_KEY = "judge.token";
const CHANGES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const OPEN = new Set(["/auth/sign-in", "/auth/register"]); // asked before any session exists

let csrf = ""; // the session's CSRF token, never written to storage

export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function setToken(value) {
  try {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage refused (a private window): the token lasts as long as the page does not
  }
}

export function setCsrf(value) {
  csrf = value || "";
}

export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, from Retry-After, when the API said so
  }
}

function failure(response, data) {
  const error = (data && data.error) || { code: "http", message: `HTTP ${response.status}` };
  let message = error.message;
  if (response.status === 401 && error.code === "unauthorized") message += ". Sign in again.";
  const header = response.headers.get("Retry-After");
  const retryAfter = header && /^\d+$/.test(header) ? Number(header) : undefined;
  if (response.status === 429 && retryAfter !== undefined && !/try again in/.test(message)) {
    message += ` (try again in ${retryAfter} s)`;
  }
  return new ApiError(response.status, error.code, message, retryAfter);
}

async function send(path, method, headers, body, signal) {
  try {
    return await fetch("/api/v1" + path, { method, headers, body, signal, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The judge did not answer; check your connection.");
  }
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

// The session's user and CSRF token from the cookie (never with the stored token: the API would
// answer for the token instead); null when this browser has no session.
export async function readSession(signal) {
  const response = await send("/auth/session", "GET", { Accept: "application/json" }, undefined, signal);
  const data = await readJson(response);
  if (response.status === 401) {
    setCsrf("");
    return null;
  }
  if (!response.ok) throw failure(response, data);
  setCsrf(data.csrf_token);
  return data;
}

export async function api(path, options) {
  // token: a token to try instead of the saved one (the sign-in page checks one with /me);
  // "" sends none, so the cookie alone speaks. headers: more request headers (Idempotency-Key).
  const { method = "GET", json, signal, token, headers: extra } = options || {};
  const bearer = token ?? getToken();
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers = () => {
    const made = { Accept: "application/json", ...extra };
    if (json !== undefined) made["Content-Type"] = "application/json";
    if (bearer) made.Authorization = "Bearer " + bearer;
    else if (CHANGES.has(method) && csrf) made["X-CSRF-Token"] = csrf;
    return made;
  };
  // With the cookie, a change needs the CSRF token: ask for it first when this page has none.
  if (!bearer && CHANGES.has(method) && !csrf && !OPEN.has(path)) await readSession(signal);
  let response = await send(path, method, headers(), body, signal);
  let data = await readJson(response);
  if (response.status === 403 && data?.error?.code === "csrf" && !bearer) {
    // The session was replaced since this page read its token (signed in again in another tab).
    if (await readSession(signal)) {
      response = await send(path, method, headers(), body, signal);
      data = await readJson(response);
    }
  }
  if (!response.ok) throw failure(response, data);
  return data;
}

function streamHeaders(lastEventId) {
  const headers = { Accept: "text/event-stream" };
  // Resuming: the server skips the states this id already covers.
  if (lastEventId) headers["Last-Event-ID"] = lastEventId;
  const token = getToken();
  if (token) headers.Authorization = "Bearer " + token;
  return headers;
}

// Yields { event, data, id } for each event of a server-sent events stream; id is the last
// `id:` the stream gave (send it back as lastEventId to resume after it).
export async function* eventStream(path, signal, lastEventId = "") {
  let response;
  try {
    response = await fetch("/api/v1" + path, {
      headers: streamHeaders(lastEventId), signal, cache: "no-store", credentials: "same-origin",
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The judge did not answer; check your connection.");
  }
  if (!response.ok || !response.body) {
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    throw failure(response, data);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = "";
  let data = [];
  let id = lastEventId;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        if (line === "") { // a blank line ends an event
          if (data.length) yield { event: event || "message", data: data.join("\n"), id };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // a comment: the server is alive
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
        else if (field === "id") id = text;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    }, { once: true });
  });
}

// The session's CSRF token, read from the server when this page has none yet: for a plain HTML
// form that posts to a page of the judge (the deep-linking answer), which sends no header.
export async function csrfToken(signal) {
  if (!csrf) await readSession(signal);
  return csrf;
}
