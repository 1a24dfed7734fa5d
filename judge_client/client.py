"""The judge's HTTP API as the client uses it: one ``httpx.Client`` with the token, every
failure turned into a ``ClientError`` that says what happened and what to do about it, and the
two ways of following a submission (server-sent events, else long polls)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from judge_client.config import TOKEN_VARIABLE, URL_VARIABLE

# A read may wait: the server holds ?wait= answers up to 30 s and sends an SSE keep-alive every
# 15 s, so anything shorter than that would time out on a healthy server.
READ_TIMEOUT = 45.0
CONNECT_TIMEOUT = 10.0
POLL_SECONDS = 20
# Statuses at which an events route is taken to be missing (an older or a proxied server):
# follow with long polls instead.
NO_EVENTS = (404, 405, 406, 501)

Json = dict[str, Any]


class ClientError(Exception):
    """A failure the user can act on: ``message`` says what, ``hint`` what to do."""

    def __init__(self, message: str, hint: str = "", *, status: int | None = None, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.status = status
        self.code = code

    def as_json(self) -> Json:
        return {"error": {"code": self.code or "client_error", "status": self.status,
                          "message": self.message, "hint": self.hint or None}}


def _server_error(response: httpx.Response) -> tuple[str, str, str | None]:
    """(code, message, request id) of an error answer; the raw text when it is not the judge's
    ``{"error": {...}}`` (a proxy's page, another service at that URL)."""
    try:
        body = response.json()
        error = body["error"]
        return str(error["code"]), str(error["message"]), error.get("request_id")
    except (ValueError, KeyError, TypeError):
        text = " ".join(response.text.split())[:200]
        return "", text or response.reason_phrase, None


def error_for(response: httpx.Response, base_url: str) -> ClientError:
    """What to tell the user about an answer of status 400 or more."""
    status = response.status_code
    code, message, request_id = _server_error(response)
    where = f" (request id {request_id})" if request_id else ""
    if status == 401:
        return ClientError(
            f"the judge at {base_url} refused the token: {message}",
            f"set a valid one with `judge-client configure --token jt_...` or {TOKEN_VARIABLE}; "
            "an admin makes one with `judge users create NAME`, and a signed-in user under "
            "/api/v1/me/tokens", status=status, code=code or "unauthorized")
    if status == 403:
        return ClientError(f"not allowed: {message}", status=status, code=code)
    if status == 404:
        return ClientError(f"not found: {message}", "check the name or id (`judge-client list` shows yours)",
                           status=status, code=code)
    if status == 413:
        return ClientError(f"too large: {message}", status=status, code=code)
    if status == 422:
        return ClientError(f"the judge rejected the request: {message}", status=status, code=code)
    if status == 429:
        after = response.headers.get("Retry-After")
        hint = f"try again in {after} s (Retry-After)" if after else "try again later"
        return ClientError(f"too many requests: {message}", hint, status=status, code=code)
    if status >= 500:
        return ClientError(f"the judge failed with HTTP {status}: {message}{where}",
                           "try again later; if it persists, give the request id to whoever runs the judge",
                           status=status, code=code)
    return ClientError(f"HTTP {status}: {message}{where}", status=status, code=code)


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
        self._http = httpx.Client(
            base_url=base_url, transport=transport, headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT))

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

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """The decoded JSON answer of a successful request; a ClientError otherwise."""
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from exc
        if response.status_code >= 400:
            raise error_for(response, self.base_url)
        try:
            return response.json()
        except ValueError as exc:
            raise ClientError(f"the answer from {self.base_url}{path} is not JSON: is this the judge?",
                              f"check the URL (`judge-client configure` shows it; {URL_VARIABLE} "
                              "overrides it)", status=response.status_code, code="not_json") from exc

    def me(self) -> Json:
        result: Json = self.request("GET", "/api/v1/me")
        return result

    def problem(self, slug: str) -> Json:
        result: Json = self.request("GET", f"/api/v1/problems/{slug}")
        return result

    def submit(self, problem: str, code: str, mode: str) -> Json:
        result: Json = self.request("POST", "/api/v1/submissions",
                                    json={"problem": problem, "code": code, "mode": mode})
        return result

    def submission(self, submission_id: int, wait: float = 0, until: str = "done") -> Json:
        params: dict[str, str | float] = {"wait": wait, "until": until} if wait else {}
        result: Json = self.request("GET", f"/api/v1/submissions/{submission_id}", params=params)
        return result

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
        result: Json = self.request("GET", "/api/v1/submissions", params=params)
        return result

    def follow(self, submission_id: int, on_change: Callable[[Json], None], timeout: float) -> Json:
        """Call ``on_change`` with each state of the submission until it is done; return it done.

        The events stream first: it ends after a few minutes in any case and is then opened
        again. Where there is none, ?wait= long polls with until=change, which also report each
        step (queued -> running -> done)."""
        deadline = time.monotonic() + timeout
        use_events = True
        while time.monotonic() < deadline:
            if use_events:
                final, use_events = self._follow_events(submission_id, on_change, deadline)
                if final is not None:
                    return final
                continue
            left = max(1.0, min(POLL_SECONDS, deadline - time.monotonic()))
            state = self.submission(submission_id, wait=left, until="change")
            on_change(state)
            if state.get("status") == "done":
                return state
        raise ClientError(f"submission {submission_id} is not judged after {timeout:g} s",
                          f"it is still on its way: `judge-client status {submission_id}` shows it later",
                          code="not_done")

    def _follow_events(self, submission_id: int, on_change: Callable[[Json], None],
                       deadline: float) -> tuple[Json | None, bool]:
        """One stream, read live until done or ``deadline``: (the submission once done, else
        None; whether to open a stream again). Not again when the server has no events route,
        or when a stream brought no event at all (a proxy that holds the stream back would
        otherwise have it opened over and over)."""
        seen = False
        try:
            with self._http.stream("GET", f"/api/v1/submissions/{submission_id}/events",
                                   headers={"Accept": "text/event-stream"}) as response:
                kind = response.headers.get("content-type", "")
                if response.status_code in NO_EVENTS or (
                        response.status_code == 200 and not kind.startswith("text/event-stream")):
                    return None, False
                if response.status_code >= 400:
                    response.read()
                    raise error_for(response, self.base_url)
                for event in self._parse(response):
                    if event is not None:
                        seen = True
                        on_change(event)
                        if event.get("status") == "done":
                            return event, True
                    if time.monotonic() >= deadline:
                        break
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from exc
        return None, seen

    @staticmethod
    def _parse(response: httpx.Response) -> Iterator[Json | None]:
        """The ``status`` and ``done`` events of a server-sent event stream as the lines arrive,
        and None for each comment (a keep-alive), so that the reader can look at the clock."""
        kind, data = "message", list[str]()
        for line in response.iter_lines():
            if line == "":
                if data and kind in ("status", "done"):  # done: the whole submission
                    try:
                        event = json.loads("\n".join(data))
                    except ValueError as exc:
                        raise ClientError("the judge's event stream sent an event that is not JSON",
                                          "try `judge-client status ID`", code="bad_event") from exc
                    yield event
                kind, data = "message", []
            elif line.startswith(":"):
                yield None  # a keep-alive, or the server's note that the stream is over
            else:
                field, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)
