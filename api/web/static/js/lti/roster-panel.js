// On the page of a course an LMS made: where it came from, and "Pull the roster from the LMS"
// (Names and Role Provisioning), so that learners are in the gradebook before their first launch.
import { api } from "../core/api.js";
import { el, timeText } from "../core/dom.js";
import { formMessage, refusalText } from "../account/forms.js";

export function rosterPanel(courseId, redraw, signal) {
  const panel = el("section", { class: "lti-roster" });
  api(`/courses/${courseId}/lti`, { signal }).then((lti) => {
    if (!lti.linked) return;
    const message = formMessage();
    const pull = el("button", { type: "button", disabled: !lti.roster_service }, "Pull the roster from the LMS");
    pull.addEventListener("click", async () => {
      pull.disabled = true;
      try {
        const pulled = await api(`/courses/${courseId}/lti-roster`, { method: "POST" });
        redraw(`Roster pulled: ${pulled.members} active member${pulled.members === 1 ? "" : "s"}, ${pulled.added} new to the course.`);
      } catch (error) {
        message.fail(refusalText(error));
        pull.disabled = false;
      }
    });
    panel.replaceChildren(
      el("h2", {}, "From the LMS"),
      el("p", {}, `This course was made by a launch from ${lti.platform}.`,
        lti.roster_pulled_at ? ` Its roster was last pulled ${timeText(lti.roster_pulled_at)}.` : ""),
      lti.roster_service ? pull : el("p", { class: "muted" }, "The LMS offered no roster service at its launches."),
      ...message.nodes);
  }, () => {});
  return panel;
}
