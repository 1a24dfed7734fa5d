// /notifications: what the signed-in user was told (feedback on handed-in work, a regrade's
// answer, released grades), newest first, unread ones marked; opening one marks it read, and a
// button marks them all. The header's count follows (user.js setUnread).
import { api } from "../core/api.js";
import { el, notice, setTitle, show, timeText } from "../core/dom.js";
import { setUnread } from "./user.js";

const PAGE = 50;
const KIND = { feedback: "Feedback", regrade_answer: "Regrade answer", grades_released: "Grades released" };

// A path on this judge only: a notification's link is the server's, but a page never follows
// anything else from it.
const samePath = (path) => (typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/");

function item(notification, signal) {
  const open = el("a", { href: samePath(notification.link) }, notification.text);
  open.addEventListener("click", async (event) => {
    if (notification.read || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    event.preventDefault();
    try {
      const { marked } = await api("/me/notifications/read", { method: "POST", json: { ids: [notification.id] }, signal });
      if (marked) setUnread(-marked, true);
    } finally {
      location.assign(open.getAttribute("href"));
    }
  });
  return el("li", { class: notification.read ? "notification" : "notification unread" },
    notification.read ? null : el("span", { class: "badge notification-new" }, "new"),
    el("span", { class: "tag" }, KIND[notification.kind] || notification.kind), " ", open,
    el("div", { class: "muted" }, timeText(notification.created_at)));
}

export async function notificationsPage(signal) {
  setTitle("Notifications");
  const box = await api(`/me/notifications?limit=${PAGE}`, { signal });
  setUnread(box.unread);
  const said = el("p", { class: "muted", role: "status" });
  const all = el("button", { type: "button", disabled: !box.unread }, "Mark all read");
  all.addEventListener("click", async () => {
    all.disabled = true;
    try {
      await api("/me/notifications/read", { method: "POST", json: {}, signal });
      setUnread(0);
      for (const node of list.querySelectorAll(".notification.unread")) {
        node.classList.remove("unread");
        node.querySelector(".notification-new")?.remove();
      }
      said.textContent = "All marked read.";
    } catch (error) {
      if (error.name !== "AbortError") said.textContent = `Not marked: ${error.message}`;
      all.disabled = false;
    }
  });
  const list = el("ul", { class: "notifications" }, box.items.map((n) => item(n, signal)));
  show(
    el("h1", {}, "Notifications"),
    el("p", { class: "actions" }, all, " ", el("a", { href: "/account" }, "E-mail settings")),
    said,
    box.items.length ? list : notice("Nothing yet: feedback on your work, answers to regrade requests and released grades show here."),
    box.total > PAGE ? el("p", { class: "muted" }, `The newest ${PAGE} of ${box.total}.`) : null);
}
