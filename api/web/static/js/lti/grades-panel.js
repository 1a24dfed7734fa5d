// On a gradebook: the grades sent to the LMS (when the assignment or its problems were placed in an
// LMS course), each learner's last sync, its result and any error, and "Send again". Nothing is
// drawn for an assignment that no LMS link points to.
import { api } from "../core/api.js";
import { el, scrollBox, timeText } from "../core/dom.js";
import { formMessage, refusalText } from "../account/forms.js";

const STATES = {
  sent: "sent", pending: "waiting to be sent", failed: "failed (given up)", held: "held until grades are released",
  idle: "nothing judged yet", no_item: "the LMS link has no grade column",
};

const scoreText = (row) => (row.score_given === null ? "" : `${row.score_given.toFixed(2)} / ${row.score_maximum}`);

export function ltiGradesPanel(assignmentId, signal) {
  const panel = el("section", { class: "lti-grades", "aria-labelledby": "lti-grades-title" });
  const message = formMessage();
  const draw = (rows) => {
    if (!rows.length) {
      panel.replaceChildren();
      return;
    }
    const again = (ids) => async () => {
      try {
        draw(await api(`/assignments/${assignmentId}/lti-grades/send-again`, { method: "POST", json: { ids } }));
        message.ok("Queued: the grades go to the LMS in a moment.");
      } catch (error) {
        message.fail(refusalText(error));
      }
    };
    panel.replaceChildren(
      el("h2", { id: "lti-grades-title" }, "Grades sent to the LMS"),
      scrollBox(el("table", { class: "list" },
        el("thead", {}, el("tr", {}, ["Learner", "LMS link", "State", "Score sent", "Sent", "Error", ""]
          .map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows.map((row) => el("tr", {},
          el("th", { scope: "row" }, row.user), el("td", {}, row.link), el("td", {}, STATES[row.state] || row.state),
          el("td", {}, scoreText(row)), el("td", {}, row.sent_at ? timeText(row.sent_at) : ""),
          el("td", {}, row.error || ""),
          el("td", {}, el("button", { type: "button", onclick: again([row.id]),
            "aria-label": `Send again: ${row.user}'s grade on ${row.link}` }, "Send again"))))))),
      el("p", {}, el("button", { type: "button", onclick: again(null) }, "Send every grade not sent")),
      ...message.nodes);
  };
  api(`/assignments/${assignmentId}/lti-grades`, { signal }).then(draw, () => {});
  return panel;
}
