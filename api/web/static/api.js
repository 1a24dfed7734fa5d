// The JSON API with the learner's token as a Bearer token; errors become ApiError with the API's message.
const TOKEN_KEY = "judge.token";

export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function authorized(headers, given) {
  const token = given ?? getToken();
  if (token) headers.Authorization = "Bearer " + token;
  return headers;
}

function failure(response, data) {
  const error = (data && data.error) || { code: "http", message: `HTTP ${response.status}` };
  let message = error.message;
  if (response.status === 401) message += ". Paste your API token in the box at the top of the page.";
  const retry = response.headers.get("Retry-After");
  if (response.status === 429 && retry) message += ` (try again in ${retry} s)`;
  return new ApiError(response.status, error.code, message);
}

export async function api(path, options) {
  // token: a token to try instead of the saved one (the token box checks a new one with /me).
  const { method = "GET", json, signal, token } = options || {};
  const headers = authorized({ Accept: "application/json" }, token);
  if (json !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch("/api/v1" + path, {
      method, headers, signal, cache: "no-store", credentials: "omit",
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The judge did not answer; check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw failure(response, data);
  return data;
}

// Server-sent events, read with fetch because EventSource cannot send the Authorization header.
// Yields { event, data } for each event (comments, such as keep-alives, are skipped) until the
// server ends the stream; throws ApiError when it cannot be opened.
export async function* eventStream(path, signal) {
  let response;
  try {
    response = await fetch("/api/v1" + path, {
      headers: authorized({ Accept: "text/event-stream" }), signal, cache: "no-store", credentials: "omit",
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
          if (data.length) yield { event: event || "message", data: data.join("\n") };
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
