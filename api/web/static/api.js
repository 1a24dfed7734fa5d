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

export async function api(path, options) {
  const { method = "GET", json, signal } = options || {};
  const headers = { Accept: "application/json" };
  const token = getToken();
  if (token) headers.Authorization = "Bearer " + token;
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
  if (!response.ok) {
    const error = (data && data.error) || { code: "http", message: `HTTP ${response.status}` };
    let message = error.message;
    if (response.status === 401) message += ". Paste your API token in the box at the top of the page.";
    const retry = response.headers.get("Retry-After");
    if (response.status === 429 && retry) message += ` (try again in ${retry} s)`;
    throw new ApiError(response.status, error.code, message);
  }
  return data;
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
