"""The judge's HTTP API as the client uses it: one ``httpx.Client`` with the token, every
failure turned into a ``ClientError`` (``judge_client.errors``) that says what happened and what
to do about it, and the two ways of following a submission (server-sent events, else long polls).

Nothing the server sends is trusted: answers are read within caps and deadlines
(``judge_client.answers``), an answer must have the shape the route promises, and a problem must
be the one asked for. Showing its text safely is ``judge_client.terminal_text``'s part.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from judge_client import answers, events
from judge_client.answers import ANSWER_CAP, ERROR_CAP, EVENT_CAP
from judge_client.config import TOKEN_VARIABLE, URL_VARIABLE
from judge_client.errors import ClientError, error_for

# A read may wait: the server holds ?wait= answers up to 30 s and sends an SSE keep-alive every
# 15 s, so anything shorter than that would time out on a healthy server.
READ_TIMEOUT = 45.0
CONNECT_TIMEOUT = 10.0
# The longest a whole answer may take, but for a followed submission (which has its own
# --timeout): the judge's answers arrive in about a second on any working network; two minutes
# lets a slow link through and stops a server that trickles a byte at a time from holding the
# command for ever (each byte would restart READ_TIMEOUT).
ANSWER_SECONDS = 120.0
POLL_SECONDS = 20
# A long poll asks the server to hold its answer until the deadline at most; this is how much
# later than that the answer may still arrive (the server's own latency) before the client stops.
POLL_GRACE = 2.0
# Statuses at which an events route is taken to be missing (an older or a proxied server):
# follow with long polls instead.
NO_EVENTS = (404, 405, 406, 501)

Json = dict[str, Any]


class JudgeClient:
    """The routes the command line uses, on one connection pool."""

    def __init__(self, base_url: str, token: str, transport: httpx.BaseTransport | None = None) -> None:
        if not base_url:
            raise ClientError("no judge URL is configured",
                              f"run `judge-client configure --url URL --token TOKEN` or set {URL_VARIABLE}",
                              code="not_configured")
        if not token:
            raise ClientError("no token is configured",
                              f"run `judge-client configure --token TOKEN` or set {TOKEN_VARIABLE}",
                              code="not_configured")
        self.base_url = base_url
        # identity: a compressed body could inflate far past the caps before they could count
        # it (the judge compresses nothing). No kept connections: a deadline's watchdog learns
        # of a connection only as it is opened; the client makes a few requests a minute at most.
        self._http = httpx.Client(
            base_url=base_url, transport=transport,
            headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"},
            timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT),
            limits=httpx.Limits(max_keepalive_connections=0))

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *_: object) -> None:
        self._http.close()

    def _transport_error(self, exc: httpx.TransportError) -> ClientError:
        if isinstance(exc, httpx.TimeoutException):
            return ClientError(f"the judge at {self.base_url} did not answer in time ({type(exc).__name__})",
                               "the server may be overloaded or the network slow: try again; "
                               "`judge-client status ID` reads a submission already sent", code="timeout")
        return ClientError(
            f"cannot reach the judge at {self.base_url}: {exc or type(exc).__name__}",
            f"check that the service runs there (`judge serve`), that the URL is right "
            f"(`judge-client configure` shows it; {URL_VARIABLE} overrides it) and the network",
            code="unreachable")

    def _not_the_judge(self, path: str, what: str, code: str = "bad_answer",
                       status: int | None = None) -> ClientError:
        return ClientError(f"the answer from {self.base_url}{path} {what}: is this the judge?",
                           f"check the URL (`judge-client configure` shows it; {URL_VARIABLE} overrides it)",
                           status=status, code=code)

    def _answer_error(self, exc: answers.TooLarge | answers.Encoded, path: str) -> ClientError:
        if isinstance(exc, answers.TooLarge):
            return self._not_the_judge(path, f"is larger than {answers.size_words(exc.cap)}, "
                                             "the most the client reads", "too_large_answer")
        return self._not_the_judge(path, f"is compressed ({exc}), which the client did not ask for")

    @contextmanager
    def _stream(self, method: str, path: str, deadline: float, **kwargs: Any) -> Iterator[httpx.Response]:
        """A streamed request that no single wait may hold past ``deadline`` (its timeout and a
        watchdog), with every failure of reading it turned into what the client reports:
        ``answers.Overdue`` once the deadline has passed, else a ClientError."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise answers.Overdue
        timeout = httpx.Timeout(min(READ_TIMEOUT, left), connect=min(CONNECT_TIMEOUT, left))
        try:
            with answers.Watchdog(deadline) as watchdog, self._http.stream(
                    method, path, timeout=timeout, extensions={"trace": watchdog.trace},
                    **kwargs) as response:
                yield response
        except httpx.TransportError as exc:
            if time.monotonic() >= deadline:
                raise answers.Overdue from exc  # the watchdog shut the connection
            raise self._transport_error(exc) from exc
        except (answers.TooLarge, answers.Encoded) as exc:
            raise self._answer_error(exc, path) from exc

    def _refused(self, response: httpx.Response, deadline: float) -> ClientError:
        return error_for(response, answers.head(response, ERROR_CAP, deadline), self.base_url)

    def request(self, method: str, path: str, *, deadline: float | None = None, **kwargs: Any) -> Any:
        """The decoded JSON answer of a successful request; a ClientError otherwise. With a
        ``deadline``, ``answers.Overdue`` when it passes first (the caller says what that
        means); without, the whole answer must arrive within ANSWER_SECONDS."""
        if deadline is not None:
            return self._request(method, path, deadline, **kwargs)
        try:
            return self._request(method, path, time.monotonic() + ANSWER_SECONDS, **kwargs)
        except answers.Overdue:
            raise ClientError(f"the judge at {self.base_url} did not send its whole answer in "
                              f"{ANSWER_SECONDS:g} s", "the server may be overloaded or the network slow: "
                              "try again", code="timeout") from None

    def _request(self, method: str, path: str, deadline: float, **kwargs: Any) -> Any:
        with self._stream(method, path, deadline, **kwargs) as response:
            if response.status_code >= 400:
                raise self._refused(response, deadline)
            content = answers.body(response, ANSWER_CAP, deadline)
        try:
            return json.loads(content)
        except (ValueError, RecursionError) as exc:  # RecursionError: arrays nested a million deep
            raise self._not_the_judge(path, "is not JSON", "not_json", response.status_code) from exc

    def _object(self, method: str, path: str, **kwargs: Any) -> Json:
        """A request whose answer must be a JSON object, as every route the client uses gives."""
        result = self.request(method, path, **kwargs)
        if not isinstance(result, dict):
            raise self._not_the_judge(path, "is not a JSON object")
        return result

    def me(self) -> Json:
        return self._object("GET", "/api/v1/me")

    def problem(self, slug: str) -> Json:
        """The problem asked for, and only it: its slug names the folder ``fetch`` writes, so an
        answer for another problem (a server answering "notes" for "bleu_1gram") would write
        over another folder."""
        result = self._object("GET", f"/api/v1/problems/{slug}")
        if result.get("slug") != slug:
            raise ClientError(f"asked for the problem {slug!r}, the judge at {self.base_url} answered with "
                              f"{str(result.get('slug'))[:100]!r}: nothing written",
                              "check the URL (`judge-client configure` shows it); a judge answers with the "
                              "problem asked for", code="wrong_problem")
        return result

    def submit(self, problem: str, code: str, mode: str, assignment: int | None = None) -> Json:
        """``assignment``: count it for that one; without it the server picks the assignment of
        your courses that takes it now, if any."""
        path = "/api/v1/submissions"
        body: Json = {"problem": problem, "code": code, "mode": mode}
        if assignment is not None:
            body["assignment"] = assignment
        result = self._object("POST", path, json=body)
        if type(result.get("id")) is not int:  # what `status ID` and following need; bool is no id
            raise self._not_the_judge(path, "has no submission id")
        return result

    def submission(self, submission_id: int, wait: float = 0, until: str = "done",
                   deadline: float | None = None) -> Json:
        params: dict[str, str | float] = {"wait": wait, "until": until} if wait else {}
        return self._object("GET", f"/api/v1/submissions/{submission_id}", params=params, deadline=deadline)

    def submissions(self, problem: str | None, limit: int, learner: str | None = None,
                    assignment: int | None = None, verdict: str | None = None,
                    late: bool | None = None) -> Json:
        """The newest submissions you may read; every filter given narrows them (as the API's)."""
        params: dict[str, str | int] = {"limit": limit}
        for name, value in (("problem", problem), ("learner", learner), ("assignment", assignment),
                            ("verdict", verdict)):
            if value:
                params[name] = value
        if late is not None:
            params["late"] = "true" if late else "false"
        return self._object("GET", "/api/v1/submissions", params=params)

    def follow(self, submission_id: int, on_change: Callable[[Json], None], timeout: float) -> Json:
        """Call ``on_change`` with each state of the submission until it is done; return it done.

        The events stream first: it ends after a few minutes in any case and is then opened
        again. Where there is none, ?wait= long polls with until=change, which also report each
        step (queued -> running -> done). Whatever the server sends, and however slowly, this
        ends by ``timeout`` (a long poll's last answer may take ``POLL_GRACE`` more)."""
        deadline = time.monotonic() + timeout
        use_events = True
        try:
            while time.monotonic() < deadline:
                if use_events:
                    final, use_events = self._follow_events(submission_id, on_change, deadline)
                    if final is not None:
                        return final
                    continue
                left = max(1.0, min(POLL_SECONDS, deadline - time.monotonic()))
                state = self.submission(submission_id, wait=left, until="change",
                                        deadline=deadline + POLL_GRACE)
                on_change(state)
                if state.get("status") == "done":
                    return state
        except answers.Overdue:
            pass
        raise ClientError(f"submission {submission_id} is not judged after {timeout:g} s",
                          f"it is still on its way: `judge-client status {submission_id}` shows it later",
                          code="not_done")

    def _follow_events(self, submission_id: int, on_change: Callable[[Json], None],
                       deadline: float) -> tuple[Json | None, bool]:
        """One stream, read live until done or ``deadline`` (then ``answers.Overdue``): (the
        submission once done, else None; whether to open a stream again). Not again when the
        server has no events route, or when a stream brought no event at all (a proxy that holds
        the stream back would otherwise have it opened over and over)."""
        seen = False
        path = f"/api/v1/submissions/{submission_id}/events"
        try:
            with self._stream("GET", path, deadline, headers={"Accept": "text/event-stream"}) as response:
                kind = response.headers.get("content-type", "")
                if response.status_code in NO_EVENTS or (
                        response.status_code == 200 and not kind.startswith("text/event-stream")):
                    return None, False
                if response.status_code >= 400:
                    raise self._refused(response, deadline)
                stream = events.lines(answers.chunks(response, deadline), EVENT_CAP)
                for event in events.events(stream, EVENT_CAP):
                    if event is not None:
                        seen = True
                        on_change(event)
                        if event.get("status") == "done":
                            return event, True
                    if time.monotonic() >= deadline:
                        raise answers.Overdue
        except events.BadEvent as exc:
            raise ClientError(f"the judge's event stream sent {exc}", "try `judge-client status ID`",
                              code="bad_event") from exc
        return None, seen
