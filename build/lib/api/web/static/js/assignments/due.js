// Times of assignments, without the DOM (a unit test runs this module under Node): the API's UTC
// timestamps read as dates, a distance in words ("in 2 days 3 hours"), what an assignment's
// times mean now, and the form's datetime-local values turned into ISO 8601 with this browser's
// offset (and back), since the API refuses a time without one.

// The API answers with a "Z"; some databases hand a timestamp back without a zone: that is UTC.
export function parseTime(iso) {
  if (!iso) return null;
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + "Z");
  return Number.isNaN(date.getTime()) ? null : date;
}

const unit = (count, name) => (count ? `${count} ${name}${count === 1 ? "" : "s"}` : "");

// The two largest units that matter, e.g. "2 days 3 hours", "1 hour 5 minutes", "5 minutes",
// "less than a minute" (rounded down: "due in 59 minutes" is never said when 59.9 are left).
export function durationWords(ms) {
  const minutes = Math.floor(Math.abs(ms) / 60000);
  if (minutes < 1) return "less than a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const parts = days ? [unit(days, "day"), unit(hours, "hour")]
    : hours ? [unit(hours, "hour"), unit(minutes % 60, "minute")] : [unit(minutes, "minute")];
  return parts.filter(Boolean).join(" ");
}

// The due time that holds for whoever asked: a learner's own (their extension's, which the API
// gives as your_due_at), else the assignment's. Every page that shows a due time shows this one.
export function ownDueAt(assignment) {
  return assignment.your_due_at || assignment.due_at;
}

// What an assignment's times mean at `now` (ms since the epoch), in words, by ownDueAt:
// { state: "upcoming" | "open" | "due", words: "opens in 1 day 2 hours" | "due in 3 hours" | "was due 2 days ago" }.
export function dueWords(assignment, now) {
  const opens = parseTime(assignment.opens_at);
  const due = parseTime(ownDueAt(assignment));
  if (opens && now < opens.getTime()) return { state: "upcoming", words: `opens in ${durationWords(opens.getTime() - now)}` };
  if (!due) return { state: "open", words: "" };
  const left = due.getTime() - now;
  if (left >= 0) return { state: "open", words: `due in ${durationWords(left)}` };
  return { state: "due", words: `was due ${durationWords(left)} ago` };
}

const pad = (n) => String(n).padStart(2, "0");

// "2026-03-01T09:00" (a datetime-local value, this browser's local time) -> "2026-03-01T09:00:00+01:00",
// with the offset in force on that date (summer time included); null when it is not such a value.
export function localInputToIso(value) {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(value || "");
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part || 0));
  const date = new Date(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(date.getTime()) || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  const offset = -date.getTimezoneOffset(); // minutes east of UTC
  const sign = offset < 0 ? "-" : "+";
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${zone}`;
}

// A Date (or an API timestamp) as a datetime-local value in this browser's local time.
export function toLocalInput(when) {
  const date = when instanceof Date ? when : parseTime(when);
  if (!date) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
