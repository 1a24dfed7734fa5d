// "Try your own arguments": one labelled field per declared parameter, each a JSON value. The
// page checks only that each field is JSON (saying what is wrong and how to write it); the judge
// checks the values against the declared types and names the parameter that does not fit.
import { el } from "../core/dom.js";
import { holdButton } from "./inflight.js";

// What a learner used to Python writes instead of JSON, and how to write it.
function jsonAdvice(text) {
  if (/'/.test(text)) return 'write strings in double quotes: "the cat", not \'the cat\'';
  if (/\b(None|True|False)\b/.test(text)) return "write null, true and false (JSON), not None, True and False";
  if (/^\s*\(/.test(text)) return "write a tuple as a list: [1, 2], not (1, 2)";
  if (/,\s*[\]}]/.test(text)) return "remove the comma before the closing bracket";
  if (/^[A-Za-z_]/.test(text.trim())) return 'a string needs double quotes: "' + text.trim() + '"';
  return "check brackets, commas and quotes";
}

// Parses one field: { value } or { error } in words; { skip } for an empty optional field.
export function parseField(text, optional) {
  if (text.trim() === "") return optional ? { skip: true } : { error: "give a value (JSON)" };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: `this is not valid JSON: ${jsonAdvice(text)}` };
  }
}

function exampleFor(problem, index) {
  const sample = (problem.public_tests || []).find((t) => Array.isArray(t.args) && index < t.args.length);
  return sample ? JSON.stringify(sample.args[index]) : "";
}

// onTry(arguments) sends the try and resolves when its verdict is in (or rejects with the API's
// error, shown under the form); until then the Try button is held (problems/inflight.js). Returns
// { toggle, form }.
export function tryInput(problem, onTry) {
  const parameters = problem.parameters || [];
  const fields = parameters.map((param, index) => {
    const id = `try-arg-${index}`;
    const input = el("input", {
      id, type: "text", class: "json-input", spellcheck: "false", autocomplete: "off", autocapitalize: "off",
      "aria-describedby": `${id}-type ${id}-error`,
    });
    input.value = exampleFor(problem, index);
    const error = el("span", { id: `${id}-error`, class: "field-error", "aria-live": "polite" });
    const row = el("div", { class: "try-field" },
      el("label", { for: id }, param.name),
      el("span", { id: `${id}-type`, class: "muted type" },
        `${param.type}${param.optional ? ", optional" : ""} · JSON`),
      input, error);
    return { param, input, error, row };
  });
  const formError = el("p", { class: "form-error", role: "alert" });
  const tryButton = el("button", { type: "submit", class: "primary" }, "Try");
  const held = holdButton(tryButton);
  const form = el("form", { class: "try-form", hidden: true, novalidate: true },
    el("p", { class: "muted" }, "Run your function and the reference on arguments of your own, written as JSON ",
      "(strings in double quotes; null, true, false; tuples as lists). Tries are not graded."),
    fields.map((f) => f.row),
    el("div", { class: "actions" }, tryButton),
    formError);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (held.busy) return; // a submit event queued before the button was disabled
    formError.textContent = "";
    const values = [];
    let firstBad = null;
    for (const field of fields) {
      const parsed = parseField(field.input.value, field.param.optional);
      field.error.textContent = parsed.error ? `${field.param.name}: ${parsed.error}` : "";
      field.input.setAttribute("aria-invalid", parsed.error ? "true" : "false");
      if (parsed.error && !firstBad) firstBad = field.input;
      values.push(parsed);
    }
    if (firstBad) {
      firstBad.focus();
      return;
    }
    // An empty optional field may only be left out at the end: arguments are positional.
    while (values.length && values[values.length - 1].skip) values.pop();
    const gap = values.findIndex((v) => v.skip);
    if (gap >= 0) {
      fields[gap].error.textContent = `${fields[gap].param.name}: give a value, since a later argument has one`;
      fields[gap].input.focus();
      return;
    }
    held.hold();
    try {
      await onTry(values.map((v) => v.value));
    } catch (error) {
      if (error.name !== "AbortError") formError.textContent = error.message;
    } finally {
      held.release();
    }
  });

  const toggle = el("button", {
    type: "button", "aria-expanded": "false", "aria-controls": "try-form",
    onclick: () => {
      form.hidden = !form.hidden;
      toggle.setAttribute("aria-expanded", String(!form.hidden));
      if (!form.hidden && fields.length) fields[0].input.focus();
    },
  }, "Try your own arguments");
  form.id = "try-form";
  return { toggle, form };
}
