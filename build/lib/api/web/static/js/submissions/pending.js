// Lists that show pending submissions keep themselves current: while any row is queued or
// running, one request waits on the oldest of them (?wait=&until=change, answered the moment its
// status changes) and then the list is read again. One request at a time, however many rows:
// a browser opens only a few connections per host, and the rest of the page needs them too.
import { ApiError, api, sleep } from "../core/api.js";

const WAIT_SECONDS = 20;
const isPending = (s) => s.status !== "done";

// reload() reads the list again and draws it, returning its items.
export async function refreshWhilePending(items, reload, signal) {
  let failures = 0;
  while (items.some(isPending)) {
    const oldest = items.filter(isPending).reduce((a, b) => (a.id < b.id ? a : b));
    try {
      await api(`/submissions/${oldest.id}?wait=${WAIT_SECONDS}&until=change`, { signal });
      items = await reload();
      failures = 0;
    } catch (error) {
      if (error.name === "AbortError") return;
      if (!(error instanceof ApiError) || (error.status > 0 && error.status < 500)) return;
      failures += 1; // the network or the server hiccuped: back off and ask again
      await sleep(Math.min(30, 2 ** failures) * 1000, signal).catch(() => {});
      if (signal.aborted) return;
    }
  }
}
