// /admin/users (administrators): every user, a page at a time (?offset=), each with a role to
// change (a select and "Save"), and a form that makes a user who signs in with a password.
import { currentUser, hasRole } from "./user.js";
import { api } from "../core/api.js";
import { formMessage, inputField, PASSWORD_MAX, PASSWORD_MIN, refusalText } from "./forms.js";
import { el, link, notice, scrollBox, setTitle, show, timeText } from "../core/dom.js";

const PAGE = 50;
const ROLES = ["learner", "instructor", "admin"];

function pageOffset() {
  const raw = new URLSearchParams(location.search).get("offset");
  const value = Number(raw);
  return raw && Number.isInteger(value) && value > 0 ? value : 0;
}

const pageHref = (offset) => (offset > 0 ? `/admin/users?offset=${offset}` : "/admin/users");

function roleSelect(id, selected) {
  return el("select", { id }, ROLES.map((role) => el("option", { value: role, selected: role === selected }, role)));
}

function userRow(user, message) {
  const id = `role-${user.id}`;
  const nameId = `user-${user.id}-name`;
  const select = roleSelect(id, user.role);
  const save = el("button", { type: "button", "aria-describedby": nameId }, "Save");
  let saved = user.role;
  save.addEventListener("click", async () => {
    if (select.value === saved) {
      message.ok(`${user.name} is already ${saved}.`);
      return;
    }
    save.disabled = true;
    try {
      const changed = await api(`/users/${encodeURIComponent(String(user.id))}`,
        { method: "PATCH", json: { role: select.value } });
      saved = changed.role;
      message.ok(`Saved: ${changed.name} is now ${changed.role}.`);
    } catch (error) {
      select.value = saved;
      message.fail(`${user.name}: ${refusalText(error)}`);
    } finally {
      save.disabled = false;
    }
  });
  return el("tr", {},
    el("th", { scope: "row", id: nameId }, user.name),
    el("td", {}, el("span", { class: "role-edit" },
      el("label", { for: id, class: "sr-only" }, `Role of ${user.name}`), select, save)),
    el("td", {}, user.has_password ? "yes" : "no (token only)"),
    el("td", {}, timeText(user.created_at)));
}

function pager(offset, total) {
  if (total <= PAGE) return null;
  const previous = offset > 0 ? link(pageHref(Math.max(0, offset - PAGE)), "Previous page") : null;
  const next = offset + PAGE < total ? link(pageHref(offset + PAGE), "Next page") : null;
  return el("nav", { class: "pager", "aria-label": "Pages of users" }, previous,
    el("span", { class: "muted" }, `Page ${Math.floor(offset / PAGE) + 1} of ${Math.ceil(total / PAGE)}`), next);
}

function createForm(onCreated) {
  const name = inputField("new-user-name", "User name",
    { type: "text", autocomplete: "off", required: true, maxlength: "100", spellcheck: "false" });
  const role = roleSelect("new-user-role", "learner");
  const password = inputField("new-user-password", "Password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: String(PASSWORD_MAX) },
    `${PASSWORD_MIN} to ${PASSWORD_MAX} characters; give it to the user, who can change it on their account page.`);
  const message = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Create user");
  const form = el("form", { class: "account-form", novalidate: true },
    name.node, el("div", { class: "form-field" }, el("label", { for: "new-user-role" }, "Role"), role),
    password.node, el("div", { class: "actions" }, submit), ...message.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    const given = name.input.value.trim();
    if (!given) {
      name.fail("Give the user a name.");
      name.input.focus();
      return;
    }
    const secret = password.input.value;
    if (secret.length < PASSWORD_MIN || secret.length > PASSWORD_MAX) {
      password.fail(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
      password.input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const made = await api("/users", { method: "POST", json: { name: given, role: role.value, password: secret } });
      name.input.value = "";
      password.input.value = "";
      role.value = "learner";
      const total = await onCreated();
      // Oldest first: a new user is on the last page, which may not be this one.
      const last = Math.floor(Math.max(0, total - 1) / PAGE) * PAGE;
      message.ok(`User ${made.name} created (${made.role}).`,
        ...(last !== pageOffset() ? [" ", link(pageHref(last), "Show it on the last page")] : []));
    } catch (error) {
      if (error.status === 409) {
        name.fail("That user name is taken.");
        name.input.focus();
      } else {
        message.fail(refusalText(error));
      }
    } finally {
      submit.disabled = false;
    }
  });
  return el("section", { class: "account-card" },
    el("h2", { id: "create-user-heading" }, "Create a user"), form);
}

export async function adminUsersPage(signal) {
  setTitle("Users");
  if (currentUser() && !hasRole("admin")) {
    show(el("h1", {}, "Users"), notice("Only administrators may see this page.", "error"));
    return;
  }
  const offset = pageOffset();
  const listing = el("div", { class: "user-list" });
  const message = formMessage();
  const summary = el("p", { class: "muted" });

  async function drawList() {
    const found = await api(`/users?limit=${PAGE}&offset=${offset}`, { signal });
    const first = found.items.length ? offset + 1 : 0;
    summary.textContent = `${found.total} users${found.total ? ` · showing ${first} to ${offset + found.items.length}` : ""}.`;
    listing.replaceChildren(
      found.items.length
        ? scrollBox(el("table", { class: "list users" },
          el("caption", { class: "sr-only" }, "Users and their roles"),
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Name"), el("th", { scope: "col" }, "Role"),
            el("th", { scope: "col" }, "Password"), el("th", { scope: "col" }, "Created"))),
          el("tbody", {}, found.items.map((user) => userRow(user, message)))))
        : el("p", { class: "muted" }, "No users on this page. ", link("/admin/users", "Go to the first page"), "."),
      pager(offset, found.total) || "");
    return found.total;
  }

  await drawList();
  show(el("h1", {}, "Users"), el("p", {}, link("/admin/lti", "LTI platforms (LMS launches)")), summary, ...message.nodes, listing, createForm(drawList));
}
