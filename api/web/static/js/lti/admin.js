// /admin/lti (administrators): what to paste into an LMS to register the judge, the registered
// platforms (each removable), and a form to register one by hand.
import { api } from "../core/api.js";
import { el, scrollBox, setTitle, show, timeText } from "../core/dom.js";
import { formMessage, inputField, refusalText } from "../account/forms.js";

function toolTable(tool) {
  const rows = [
    ["Login initiation URL", tool.login_url], ["Launch (target link and redirect) URL", tool.launch_url],
    ["Public keys (JWKS) URL", tool.jwks_url], ["Dynamic registration URL", tool.registration_url],
    ["Domain", tool.domain], ["Signing key (kid)", tool.signing_key],
  ];
  return scrollBox(el("table", { class: "facts" }, el("tbody", {},
    rows.map(([name, value]) => el("tr", {}, el("th", { scope: "row" }, name), el("td", {}, el("code", {}, value)))))));
}

function platformRow(platform, message, redraw) {
  const remove = el("button", { type: "button", "aria-label": `Remove ${platform.name}` }, "Remove");
  remove.addEventListener("click", async () => {
    if (!confirm(`Remove ${platform.name}? Its launches stop; the users and courses it made stay.`)) return;
    try {
      await api(`/lti/platforms/${platform.id}`, { method: "DELETE" });
      message.ok(`Removed ${platform.name}.`);
      redraw();
    } catch (error) {
      message.fail(refusalText(error));
    }
  });
  return el("tr", {},
    el("th", { scope: "row" }, platform.name),
    el("td", {}, el("code", {}, platform.issuer)),
    el("td", {}, el("code", {}, platform.client_id)),
    el("td", {}, platform.deployment_ids.length ? platform.deployment_ids.join(", ") : "none yet: add the one the LMS sends"),
    el("td", {}, platform.keys_fetched_at ? timeText(platform.keys_fetched_at) : "not yet"),
    el("td", {}, remove));
}

function platformForm(message, redraw) {
  const fields = {
    name: inputField("lti-name", "Name", { required: true, maxlength: 200 }),
    issuer: inputField("lti-issuer", "Issuer", { required: true, type: "url" }),
    client_id: inputField("lti-client", "Client id", { required: true, maxlength: 255 }),
    deployment_ids: inputField("lti-deployments", "Deployment ids", {}, "separated by commas"),
    auth_login_url: inputField("lti-auth", "Authorization (OIDC) endpoint", { required: true, type: "url" }),
    token_url: inputField("lti-token", "Token endpoint", { required: true, type: "url" }),
    jwks_url: inputField("lti-jwks", "Public keys (JWKS) URL", { required: true, type: "url" }),
  };
  const submit = el("button", { type: "submit" }, "Register platform");
  const form = el("form", { class: "stacked" }, Object.values(fields).map((f) => f.node), submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.input.value.trim()]));
    body.deployment_ids = body.deployment_ids.split(",").map((d) => d.trim()).filter(Boolean);
    submit.disabled = true;
    try {
      const made = await api("/lti/platforms", { method: "POST", json: body });
      message.ok(`Registered ${made.name}.`);
      form.reset();
      redraw();
    } catch (error) {
      const field = fields[error.param];
      if (field) field.fail(error.message);
      message.fail(refusalText(error));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

export async function ltiAdminPage(signal) {
  setTitle("LTI platforms");
  const [tool, platforms] = await Promise.all([api("/lti/tool", { signal }), api("/lti/platforms", { signal })]);
  const message = formMessage();
  const redraw = () => ltiAdminPage(signal);
  show(
    el("h1", {}, "LTI platforms"),
    el("p", {}, "An LMS (Canvas, Moodle, Blackboard, Brightspace, ...) launches the judge by LTI 1.3. ",
      "Register the judge in the LMS with the values below, or give the LMS the dynamic registration URL ",
      "(docs/lti-for-admins.md says where each goes in Canvas and Moodle)."),
    el("h2", {}, "The judge, as the LMS sees it"), toolTable(tool),
    el("h2", {}, "Registered platforms"),
    platforms.length
      ? scrollBox(el("table", {}, el("thead", {}, el("tr", {},
        ["Name", "Issuer", "Client id", "Deployments", "Keys fetched", ""].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, platforms.map((p) => platformRow(p, message, redraw)))))
      : el("p", { class: "muted" }, "None yet."),
    message.nodes,
    el("h2", {}, "Register a platform by hand"),
    platformForm(message, redraw));
}
