// /lti/register?openid_configuration=...&registration_token=...: LTI dynamic registration, which
// an LMS opens in a window or a frame. An admin sees what the platform says it is, confirms, and
// the judge registers itself there; the LMS is then told to close this page.
//
// In a frame the page does nothing but offer a window of its own: the admin's session cookie is
// never sent to a frame on another site, and a frame (any site may frame this page) must hold no
// button whose click could be stolen. The window reports back through the frame that opened it.
import { api } from "../core/api.js";
import { el, notice, setTitle, show } from "../core/dom.js";
import { formMessage, refusalText } from "../account/forms.js";
import { signedIn } from "../account/user.js";
import { signInHref } from "../account/nextpath.js";

const CLOSE = "org.imsglobal.lti.close";
const framed = window.top !== window.self;

function tellTheLms() {
  const lms = window.opener || (framed ? window.parent : null);
  if (lms) lms.postMessage({ subject: CLOSE }, "*"); // it carries nothing; any LMS origin may hear it
}

function offerAWindow() {
  // The window this opens reports to this frame (its opener), which passes it on to the LMS.
  window.addEventListener("message", (event) => {
    if (event.origin === location.origin && event.data?.subject === CLOSE) window.parent.postMessage({ subject: CLOSE }, "*");
  });
  const open = el("button", { type: "button" }, "Open the registration in a new window");
  open.addEventListener("click", () => window.open(location.href, "_blank"));
  show(el("h1", {}, "Register with an LMS"),
    el("p", {}, "An LMS asks to register the judge as an LTI 1.3 tool. An admin of the judge confirms it in a window of the judge's own, signed in there."),
    open);
}

export async function registrationPage(signal) {
  setTitle("Register with an LMS");
  if (framed) {
    offerAWindow();
    return;
  }
  if (!signedIn()) {
    location.replace(signInHref(location.pathname + location.search));
    return;
  }
  const query = new URLSearchParams(location.search);
  const configuration = query.get("openid_configuration") || "";
  const token = query.get("registration_token") || "";
  if (!configuration) {
    show(el("h1", {}, "Register with an LMS"),
      notice("This page is opened by an LMS's dynamic registration, with its openid_configuration: start from the LMS.", "error"));
    return;
  }
  const preview = await api("/lti/registrations", { method: "POST", json: { openid_configuration: configuration }, signal });
  const message = formMessage();
  const confirmButton = el("button", { type: "button" }, "Register the judge with this platform");
  confirmButton.addEventListener("click", async () => {
    confirmButton.disabled = true;
    try {
      const platform = await api("/lti/registrations", {
        method: "POST", json: { openid_configuration: configuration, registration_token: token } });
      message.ok(`Registered: ${platform.name} (client id ${platform.client_id}`
        + (platform.deployment_ids.length ? `, deployment ${platform.deployment_ids.join(", ")})` : "; add its deployment id on the LTI platforms page)")
        + ". You may close this page.");
      tellTheLms();
    } catch (error) {
      message.fail(refusalText(error));
      confirmButton.disabled = false;
    }
  });
  const facts = [["Name", preview.name], ["Issuer", preview.issuer], ["Authorization endpoint", preview.authorization_endpoint],
    ["Token endpoint", preview.token_endpoint], ["Public keys", preview.jwks_uri]];
  show(
    el("h1", {}, "Register with an LMS"),
    el("p", {}, "An LMS asks to register the judge as an LTI 1.3 tool. Check that this is the platform you expect."),
    el("table", { class: "facts" }, el("tbody", {},
      facts.map(([name, value]) => el("tr", {}, el("th", { scope: "row" }, name), el("td", {}, el("code", {}, value)))))),
    token ? confirmButton : notice("The LMS sent no registration token: start again from the LMS.", "error"),
    message.nodes);
}
