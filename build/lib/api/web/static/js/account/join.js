// /join/{code}: a course's join link. Signed in, one button joins the course as a learner
// (POST /courses/join, which changes nothing the second time). Signed out, the visitor signs in
// first and comes back here, or makes a learner account with POST /auth/register, which is only
// possible through such a link; that signs them in and joins them to the course.
import { currentUser, loadUser, signedIn } from "./user.js";
import { api, setCsrf, setToken } from "../core/api.js";
import { formMessage, inputField, passwordProblem, PASSWORD_MAX, PASSWORD_MIN, refusalText } from "./forms.js";
import { el, link, setTitle, show } from "../core/dom.js";
import { signInHref } from "./nextpath.js";

const courseHref = (id) => `/courses/${encodeURIComponent(String(id))}`;

function refusal(error) {
  if (error.status === 404) {
    return "This join link does not work: the course may have a newer link. Ask your instructor for it.";
  }
  return refusalText(error);
}

function joined(course, welcome) {
  setTitle(`Joined ${course.title}`);
  show(
    el("h1", {}, "Join a course"),
    el("p", { class: "notice", role: "status" }, welcome ? `${welcome} ` : "",
      "You are a learner of ", el("strong", {}, course.title), "."),
    el("p", {}, link(courseHref(course.id), "Open the course"), " · ", link("/", "Problems")));
  document.querySelector("main a")?.focus();
}

const join = (code) => api("/courses/join", { method: "POST", json: { code } });

function joinButton(code) {
  const message = formMessage();
  const button = el("button", { type: "button", class: "primary" }, "Join course");
  button.addEventListener("click", async () => {
    button.disabled = true;
    message.clear();
    try {
      joined(await join(code));
    } catch (error) {
      button.disabled = false;
      message.fail(refusal(error));
    }
  });
  return [el("div", { class: "actions" }, button), ...message.nodes];
}

function registerForm(code) {
  const name = inputField("join-name", "User name",
    { type: "text", autocomplete: "username", required: true, maxlength: "100", spellcheck: "false",
      autocapitalize: "none" }, "1 to 100 characters; others see it in the course.");
  const password = inputField("join-password", "Password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: String(PASSWORD_MAX) },
    `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  const confirm = inputField("join-confirm", "Confirm password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: String(PASSWORD_MAX) });
  const message = formMessage();
  const submit = el("button", { type: "submit", class: "primary" }, "Create account and join course");
  const form = el("form", { class: "account-form", novalidate: true },
    name.node, password.node, confirm.node, el("div", { class: "actions" }, submit), ...message.nodes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    const given = name.input.value.trim();
    if (!given) {
      name.fail("Choose a user name.");
      name.input.focus();
      return;
    }
    const problem = passwordProblem(password.input.value, confirm.input.value);
    if (problem) {
      const field = problem[0] === "password" ? password : confirm;
      field.fail(problem[1]);
      field.input.focus();
      return;
    }
    submit.disabled = true;
    message.ok("Making your account…");
    let session;
    try {
      session = await api("/auth/register",
        { method: "POST", json: { name: given, password: password.input.value, join_code: code }, token: "" });
    } catch (error) {
      submit.disabled = false;
      message.clear();
      if (error.status === 409) {
        name.fail("That user name is taken: choose another, or sign in if it is yours.");
        name.input.focus();
      } else {
        message.fail(refusal(error));
      }
      return;
    }
    setToken("");
    setCsrf(session.csrf_token);
    await loadUser(); // the header now says who is signed in
    const welcome = `Welcome, ${session.user.name}: your account is ready.`;
    try {
      joined(await join(code), welcome); // registering joined already: this reads the course
    } catch {
      show(el("h1", {}, "Join a course"), el("p", { class: "notice", role: "status" }, welcome, " ",
        link("/courses", "See your courses"), "."));
    }
  });
  return form;
}

// The course the link leads to, or null when the link does not work (said on the page).
async function courseOf(code) {
  try {
    return await api(`/courses/join/${encodeURIComponent(code)}`);
  } catch (error) {
    show(el("h1", {}, "Join a course"), el("p", { class: "notice error", role: "alert" }, refusal(error)),
      el("p", {}, link("/courses", "Your courses"), " · ", link("/", "Problems")));
    return null;
  }
}

export async function joinPage(code) {
  setTitle("Join a course");
  const course = await courseOf(code);
  if (!course) return;
  setTitle(`Join ${course.title}`);
  const heading = el("h1", {}, `Join ${course.title}`);
  if (signedIn()) {
    const me = currentUser();
    const mine = (await api("/courses").catch(() => [])).find((c) => c.id === course.id);
    if (mine) {
      show(heading,
        el("p", { class: "notice", role: "status" }, `You are already ${mine.role === "instructor" ? "an instructor" : "a learner"} of `,
          el("strong", {}, course.title), "."),
        el("p", {}, link(courseHref(course.id), "Open the course"), " · ", link("/", "Problems")));
      return;
    }
    show(
      heading,
      el("p", {}, me ? `You are signed in as ${me.name}. ` : "",
        "This link makes you a learner of ", el("strong", {}, course.title), ": you will see its assignments and what is due."),
      ...joinButton(code));
    return;
  }
  show(
    heading,
    el("p", {}, "This link makes you a learner of ", el("strong", {}, course.title), ". Have an account? ",
      link(signInHref(location.pathname), "Sign in first"), ", and you come back here to join."),
    el("section", { class: "account-card" },
      el("h2", { id: "register-heading" }, "New here? Make a learner account"),
      registerForm(code)));
}
