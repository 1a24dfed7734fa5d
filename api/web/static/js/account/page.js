// /account: who I am, a new password, and my API tokens (made here and shown once, with a copy
// button; each one revoked after a confirmation in its own row).
import { currentUser, signedInWith } from "./user.js";
import { api } from "../core/api.js";
import { formMessage, inputField, passwordProblem, PASSWORD_MAX, PASSWORD_MIN, refusalText } from "./forms.js";
import { el, scrollBox, setTitle, show, timeText } from "../core/dom.js";

function whoSection(me) {
  const how = signedInWith() === "token" ? "an API token kept in this browser" : "your password (a session of this browser)";
  return el("section", { class: "account-card" },
    el("h2", { id: "who-heading" }, "Who you are"),
    el("dl", { class: "facts" },
      el("dt", {}, "User name"), el("dd", {}, me.name),
      el("dt", {}, "Role"), el("dd", {}, me.role),
      el("dt", {}, "Signed in with"), el("dd", {}, how)));
}

function passwordSection() {
  const current = inputField("current-password", "Current password",
    { type: "password", autocomplete: "current-password" },
    "Leave it empty only if you have no password yet (an account made with a token).");
  const fresh = inputField("new-password", "New password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: String(PASSWORD_MAX) },
    `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  const confirm = inputField("confirm-password", "Confirm new password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: String(PASSWORD_MAX) });
  const message = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Change password");
  const form = el("form", { class: "account-form", novalidate: true },
    current.node, fresh.node, confirm.node, el("div", { class: "actions" }, submit), ...message.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    const problem = passwordProblem(fresh.input.value, confirm.input.value);
    if (problem) {
      const field = problem[0] === "password" ? fresh : confirm;
      field.fail(problem[1]);
      field.input.focus();
      return;
    }
    submit.disabled = true;
    const body = { new_password: fresh.input.value };
    if (current.input.value) body.current_password = current.input.value;
    try {
      await api("/me/password", { method: "PUT", json: body });
      for (const field of [current, fresh, confirm]) field.input.value = "";
      message.ok("Your password is changed. Your other sessions are signed out.");
    } catch (error) {
      if (error.status === 403 && error.code !== "csrf") {
        current.fail(current.input.value ? "That is not your current password." : "Type your current password.");
        current.input.focus();
      } else {
        message.fail(refusalText(error));
      }
    } finally {
      submit.disabled = false;
    }
  });
  return el("section", { class: "account-card" },
    el("h2", { id: "password-heading" }, "Change password"), form);
}

// The token just made, shown once: a read-only field to select and a copy button.
function newTokenPanel(created) {
  const value = el("input", { id: "new-token", type: "text", readonly: true, value: created.token,
    spellcheck: "false", class: "token-value" });
  const said = el("span", { class: "muted", role: "status" });
  const copy = el("button", { type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      said.textContent = "Copied.";
    } catch {
      value.select(); // no clipboard here (not a secure page, or refused): the text is selected
      said.textContent = "Selected: copy it with Ctrl+C (⌘C).";
    }
  });
  value.addEventListener("focus", () => value.select());
  return el("div", { class: "new-token" },
    el("p", { id: "new-token-title" }, el("strong", {}, `Your new token “${created.label}”.`),
      " Copy it now: it is shown only this once."),
    el("label", { for: "new-token" }, "New token"),
    el("div", { class: "token-copy" }, value, copy), said);
}

function tokensSection(signal) {
  const table = el("div", { class: "token-list" });
  const shown = el("div", { class: "new-token-slot" });
  const listMessage = formMessage();

  function row(token) {
    const cell = el("td", { class: "token-actions" });
    const tr = el("tr", {}, el("td", {}, token.label || "(no label)"), el("td", {}, timeText(token.created_at)),
      el("td", {}, token.last_used_at ? timeText(token.last_used_at) : "never"), cell);
    const ask = () => {
      const yes = el("button", { type: "button", class: "danger" }, "Yes, revoke");
      const no = el("button", { type: "button" }, "Cancel");
      const question = el("span", { class: "confirm" },
        el("span", {}, `Revoke “${token.label || token.id}”? Programs using it stop working at once.`), yes, no);
      no.addEventListener("click", () => {
        cell.replaceChildren(revoke);
        revoke.focus();
      });
      yes.addEventListener("click", async () => {
        yes.disabled = true;
        try {
          await api(`/me/tokens/${encodeURIComponent(String(token.id))}`, { method: "DELETE" });
          listMessage.ok(`Token “${token.label || token.id}” revoked.`);
          await drawList();
          document.getElementById("token-label")?.focus();
        } catch (error) {
          yes.disabled = false;
          listMessage.fail(refusalText(error));
        }
      });
      cell.replaceChildren(question);
      yes.focus();
    };
    const revoke = el("button", { type: "button", onclick: ask }, "Revoke");
    cell.append(revoke);
    return tr;
  }

  async function drawList() {
    const tokens = await api("/me/tokens", { signal });
    if (!tokens.length) {
      table.replaceChildren(el("p", { class: "muted" }, "You have no API tokens."));
      return;
    }
    table.replaceChildren(scrollBox(el("table", { class: "list tokens" },
      el("caption", { class: "sr-only" }, "Your API tokens"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Label"), el("th", { scope: "col" }, "Created"),
        el("th", { scope: "col" }, "Last used"), el("th", { scope: "col" }, el("span", { class: "sr-only" }, "Actions")))),
      el("tbody", {}, tokens.map(row)))));
  }

  const label = inputField("token-label", "Token label",
    { type: "text", autocomplete: "off", required: true, maxlength: "100" },
    "Your own name for it, such as the machine or script that uses it.");
  const createMessage = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Create token");
  const form = el("form", { class: "account-form token-create", novalidate: true },
    label.node, el("div", { class: "actions" }, submit), ...createMessage.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    createMessage.clear();
    const text = label.input.value.trim();
    if (!text) {
      label.fail("Give the token a label.");
      label.input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const created = await api("/me/tokens", { method: "POST", json: { label: text } });
      label.input.value = "";
      shown.replaceChildren(newTokenPanel(created));
      await drawList();
      document.getElementById("new-token")?.focus();
    } catch (error) {
      createMessage.fail(refusalText(error));
    } finally {
      submit.disabled = false;
    }
  });

  const section = el("section", { class: "account-card" },
    el("h2", { id: "tokens-heading" }, "API tokens"),
    el("p", { class: "muted" }, "A token lets a program use the REST API as you: it sends ",
      el("code", {}, "Authorization: Bearer <token>"), ". Revoke a token you no longer use."),
    form, shown, table, ...listMessage.nodes);
  return { section, ready: drawList() };
}

// Where notifications are e-mailed (when the judge's operator set up e-mail), and whether.
function emailSection(me) {
  const address = inputField("email-address", "E-mail address",
    { type: "email", autocomplete: "email", maxlength: "254", value: me.email || "" },
    "Empty: no e-mail. The notifications page shows every notification either way.");
  const send = el("input", { type: "checkbox", id: "email-notifications", checked: me.email_notifications });
  const message = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Save");
  const form = el("form", { class: "account-form", novalidate: true },
    address.node,
    el("div", { class: "choice" }, send, el("label", { for: "email-notifications" },
      "E-mail me when feedback, a regrade answer or released grades arrive")),
    el("div", { class: "actions" }, submit), ...message.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    address.clear();
    submit.disabled = true;
    try {
      const saved = await api("/me/email", { method: "PUT", json: { email: address.input.value.trim() || null, email_notifications: send.checked } });
      address.input.value = saved.email || "";
      message.ok(saved.email && saved.email_notifications ? `Notifications will be e-mailed to ${saved.email}.` : "Notifications stay on the pages: none is e-mailed.");
    } catch (error) {
      if (/^email:/.test(error.message || "")) {
        address.fail(error.message.replace(/^email: /, ""));
        address.input.focus();
      } else {
        message.fail(refusalText(error));
      }
    } finally {
      submit.disabled = false;
    }
  });
  return el("section", { class: "account-card" }, el("h2", { id: "email-heading" }, "Notifications by e-mail"), form);
}

export async function accountPage(signal) {
  setTitle("Your account");
  // Asked again, not the header's copy: the e-mail settings may have changed in another tab.
  const me = await api("/me", { signal }).catch((error) => {
    if (error.name === "AbortError") throw error;
    return currentUser();
  });
  const tokens = tokensSection(signal);
  await tokens.ready;
  show(el("h1", {}, "Your account"), el("div", { class: "account-grid" },
    whoSection(me), passwordSection(), emailSection(me), tokens.section));
}

