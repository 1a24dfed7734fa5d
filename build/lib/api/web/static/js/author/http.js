// The two requests of the authoring pages that are not JSON in and JSON out: a problem archive
// sent as a multipart form, and an SVG chart read as a blob. They go the way core/api.js sends
// everything else: the stored API token as a Bearer token when there is one, else the session
// cookie, with the session's CSRF token on a change (readSession hands it out).
import { ApiError, getToken, readSession } from "../core/api.js";

async function headersFor(method, signal) {
  const headers = { Accept: method === "GET" ? "*/*" : "application/json" };
  const token = getToken();
  if (token) headers.Authorization = "Bearer " + token;
  else if (method !== "GET") {
    const session = await readSession(signal);
    if (session && session.csrf_token) headers["X-CSRF-Token"] = session.csrf_token;
  }
  return headers;
}

async function refusal(response) {
  let error = null;
  try {
    error = (await response.json()).error;
  } catch {
    error = null;
  }
  error = error || { code: "http", message: `HTTP ${response.status}` };
  return new ApiError(response.status, error.code, error.message);
}

async function send(path, method, body, signal) {
  const headers = await headersFor(method, signal);
  try {
    return await fetch("/api/v1" + path, { method, headers, body, signal, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The judge did not answer; check your connection.");
  }
}

// POST or PUT a FormData (the browser writes the multipart boundary itself); the JSON answer.
export async function sendForm(path, method, form, signal) {
  const response = await send(path, method, form, signal);
  if (!response.ok) throw await refusal(response);
  return response.json();
}

// GET a file the API makes (an SVG chart) as a Blob, for an object URL.
export async function readBlob(path, signal) {
  const response = await send(path, "GET", undefined, signal);
  if (!response.ok) throw await refusal(response);
  return response.blob();
}
