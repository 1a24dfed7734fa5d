// /sign-in: a user name and password (the API sets the session cookie), or, for REST users, an API
// token that GET /me checks before it is kept in localStorage. Either way the page then goes to
// ?next= when that is a path of this site (account/nextpath.js), else to the problem list.
import { currentUser, whoIs } from "./user.js";
import { api, setToken } from "../core/api.js";
import { formMessage, inputField, refusalText } from "./forms.js";
import { el, link, setTitle, show } from "../core/dom.js";
import { safeNext } from "./nextpath.js";

const nextPath = () => safeNext(new URLSearchParams(location.search).get("next"));

function passwordForm(next) {
  const name = inputField("sign-in-name", "User name",
    { type: "text", autocomplete: "username", required: true, spellcheck: "false", autocapitalize: "none" });
  const password = inputField("sign-in-password", "Password",
    { type: "password", autocomplete: "current-password", required: true });
  const message = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Sign in");
  const form = el("form", { class: "account-form", novalidate: true },
    name.node, password.node, el("div", { class: "actions" }, submit), ...message.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    const given = name.input.value.trim();
    if (!given) {
      name.fail("Type your user name.");
      name.input.focus();
      return;
    }
    if (!password.input.value) {
      password.fail("Type your password.");
      password.input.focus();
      return;
    }
    submit.disabled = true;
    message.ok("Signing in…");
    try {
      await api("/auth/sign-in", { method: "POST", json: { name: given, password: password.input.value }, token: "" });
      setToken(""); // a token kept from before would speak instead of the new session
      location.assign(next);
    } catch (error) {
      submit.disabled = false;
      if (error.status === 401) message.fail("The user name or the password is wrong.");
      else message.fail(refusalText(error));
      password.input.select();
      password.input.focus();
    }
  });
  return form;
}

function tokenForm(next) {
  const token = inputField("sign-in-token", "API token",
    { type: "password", autocomplete: "off", spellcheck: "false", placeholder: "jt_…" });
  const state = el("p", { class: "token-state", id: "token-state", role: "status" });
  token.input.setAttribute("aria-describedby", [token.input.getAttribute("aria-describedby"), state.id]
    .filter(Boolean).join(" "));
  const say = (text, bad) => {
    state.textContent = text;
    state.classList.toggle("bad", Boolean(bad));
    if (bad) token.input.setAttribute("aria-invalid", "true");
    else token.input.removeAttribute("aria-invalid");
  };
  const submit = el("button", { type: "submit" }, "Use this token");
  const form = el("form", { class: "account-form token-form", novalidate: true, autocomplete: "off" },
    token.node, el("div", { class: "actions" }, submit), state);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = token.input.value.trim();
    if (!value) {
      say("Paste a token first", true);
      token.input.focus();
      return;
    }
    say("Checking…");
    submit.disabled = true;
    const found = await whoIs(value);
    submit.disabled = false;
    if (found === null) {
      say("That token is not valid", true);
      token.input.select();
      return;
    }
    if (found === undefined) {
      say("The judge did not answer; try again.", true);
      return;
    }
    setToken(value);
    token.input.value = "";
    say(`Token accepted (${found.name}); going on…`);
    location.assign(next);
  });
  return form;
}

export async function signInPage() {
  setTitle("Sign in");
  const next = nextPath();
  const me = currentUser();
  const already = me
    ? el("p", { class: "notice", role: "status" }, `You are signed in as ${me.name} (${me.role}). `,
      link(next, next === "/" ? "Go to the problem list" : "Go on to the page you asked for"),
      ", or sign in as someone else below.")
    : null;
  show(
    el("h1", { id: "sign-in-heading" }, "Sign in"),
    already,
    el("div", { class: "sign-in-columns" },
      el("section", { class: "account-card" },
        el("p", { class: "muted" }, "Sign in with the user name and password you were given. Learners make ",
          "their own account through their course's join link."),
        passwordForm(next)),
      el("section", { class: "account-card" },
        el("h2", { id: "token-heading" }, "Or use an API token"),
        el("p", { class: "muted" }, "REST clients send a token as ", el("code", {}, "Authorization: Bearer …"),
          ". Pasted here, it is checked and then kept in this browser until you sign out. ",
          "Make one on your account page. On a new judge, ", el("code", {}, "judge serve"),
          " prints an admin token on its first start, and ", el("code", {}, "judge users create"),
          " makes more users."),
        tokenForm(next))));
}
