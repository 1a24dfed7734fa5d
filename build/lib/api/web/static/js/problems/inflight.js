// One submission in flight per button (Run, Submit, Try): from the click until that submission's
// verdict, or the error that refused it, the button is disabled and marked busy, so clicking
// again sends nothing. Before, the buttons came back as soon as the submission was queued, and
// eight fast clicks made five submissions, each one an attempt. No DOM of its own: a unit test
// runs it under Node.

// hold(button): { busy, hold(), release() }. The button keeps its name (tests and screen readers
// find it by it); aria-busy and the "busy" class (a spinner in app.css) show that it waits.
export function holdButton(button) {
  let busy = false;
  return {
    get busy() { return busy; },
    hold() {
      busy = true;
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.classList.add("busy");
    },
    release() {
      busy = false;
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.classList.remove("busy");
    },
  };
}

// A fresh Idempotency-Key for each click: the API answers a request sent again with the same key
// and body with the same submission, never a second one. crypto.randomUUID needs a secure context,
// which a judge served over plain HTTP on a classroom's network is not; getRandomValues is there
// in every context.
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "page-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
