"""Every error is JSON ``{"error": {"code", "message"}}`` with the right 4xx status."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from judge.errors import DomainError

STATUS = {  # the one map from the judge's error codes to HTTP
    "unauthorized": 401,
    "bad_credentials": 401,  # sign-in: one answer for an unknown name and a wrong password
    "not_found": 404,
    "forbidden": 403,
    "not_solved": 403,  # the editorial, before an accepted submission
    "csrf": 403,  # a cookie-authenticated change without the session's X-CSRF-Token
    "wrong_password": 403,  # changing a password: the current one is wrong or missing
    "not_open": 403,  # a submission for an assignment that has not opened yet
    "past_due": 403,  # a submission after the due time of an assignment that refuses late work
    "too_large": 413,
    "invalid_input": 422,
    "conflict": 409,
    "no_more_hints": 409,
    "last_admin": 409,
    "last_instructor": 409,  # a course keeps one instructor
    "too_many_invitations": 409,  # a course's pending invitations are capped
    "quota_exceeded": 429,
    "too_many_attempts": 429,  # failed sign-ins; with Retry-After
    "busy": 429,  # the password hashing pool is full: at once, with Retry-After
    "bad_request": 400,
    "unavailable": 503,
}
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
              422: "invalid_input", 429: "quota_exceeded"}


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status, headers=headers)


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc if part != "body") or "body"


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, exc: DomainError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
        if exc.code == "unauthorized":
            headers["WWW-Authenticate"] = "Bearer"
        return error_response(STATUS.get(exc.code, 400), exc.code, exc.message, headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = tuple(first.get("loc", ()))
        message = f"{_where(loc)}: {first.get('msg')}"
        if loc == ("body",):  # the body as a whole is wrong, typically not sent as JSON
            message += " (send a JSON object with Content-Type: application/json)"
        return error_response(422, "invalid_input", message)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's only 400 is a body it could not decode: bytes that are not UTF-8, or
            # JSON nested deeper than the decoder goes.
            return error_response(422, "invalid_input",
                                  "body: not decodable JSON (not UTF-8, or nested too deeply)")
        code = HTTP_CODES.get(exc.status_code, "error")
        headers = dict(exc.headers) if exc.headers else None
        return error_response(exc.status_code, code, str(exc.detail), headers)
