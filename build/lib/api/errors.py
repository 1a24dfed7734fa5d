"""Every error is JSON ``{"error": {"code", "message", "param", "request_id"}}``.

A ``DomainError`` is answered with the status its class declares (``service.errors.STATUS``, the
one table); a code missing from that table is the judge's own bug, so it is logged and answered
as a 500, never guessed at. ``param`` names the request field at fault (the dotted location of
a validation error, e.g. ``tests.3.args``) and is null when no one field is; ``request_id`` is
the id ``api.request_ids`` gave the request, which the log carries too. A 405 names in ``Allow``
every method its path takes (``api.allowed_methods``).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import Scope

from api.allowed_methods import resources
from api.request_ids import request_id
from judge.errors import DomainError
from service.errors import STATUS, QuotaExceeded

log = logging.getLogger("api")

# Statuses the framework answers by itself (an unknown path, a wrong method, ...) and the code
# each gets; a status that also belongs to a domain code gets that code.
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
              422: "invalid_input", 429: "quota_exceeded"}


def rate_limit_headers(limit: int, remaining: int, reset: int) -> dict[str, str]:
    """RateLimit-Limit, -Remaining and -Reset (seconds) as the IETF httpapi draft names them."""
    return {"RateLimit-Limit": str(limit), "RateLimit-Remaining": str(max(remaining, 0)),
            "RateLimit-Reset": str(max(reset, 0))}


def error_body(code: str, message: str, rid: str, param: str | None = None) -> dict[str, object]:
    return {"error": {"code": code, "message": message, "param": param, "request_id": rid}}


def error_response(request: Request, status: int, code: str, message: str,
                   headers: dict[str, str] | None = None, param: str | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, request_id(request.scope), param), status,
                        headers=headers)


def not_allowed(scope: Scope) -> JSONResponse:
    """405 for the request's method, with every method its path takes, in Allow and in words."""
    allowed = ", ".join(resources(scope).methods(scope))
    message = f"{scope['method']} is not allowed on {scope['path']}; it takes {allowed}"
    return JSONResponse(error_body("method_not_allowed", message, request_id(scope)), 405,
                        headers={"Allow": allowed})


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc if part != "body") or "body"


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(request: Request, exc: DomainError) -> JSONResponse:
        status = STATUS.get(exc.code)
        if status is None or status != exc.status:
            rid = request_id(request.scope)
            log.error("request %s: %s has code %r and status %s, which service.errors.STATUS does "
                      "not hold (define the class in service/errors.py)", rid, type(exc).__name__,
                      exc.code, exc.status)
            return error_response(request, 500, "internal",
                                  f"the server failed on this request (request {rid})")
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
        if isinstance(exc, QuotaExceeded) and exc.limit is not None:
            # The quota that refused, in the IETF draft's names: none left until Reset.
            headers.update(rate_limit_headers(exc.limit, 0, exc.retry_after or 1))
        if exc.code == "unauthorized":
            headers["WWW-Authenticate"] = "Bearer"
        return error_response(request, status, exc.code, exc.message, headers, exc.param)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = tuple(first.get("loc", ()))
        where = _where(loc)
        message = f"{where}: {first.get('msg')}"
        if loc == ("body",):  # the body as a whole is wrong, typically not sent as JSON
            message += " (send a JSON object with Content-Type: application/json)"
        # Neither the body as a whole nor a character offset of JSON that does not parse names
        # a field a client could correct.
        whole = where == "body" or first.get("type") == "json_invalid"
        return error_response(request, 422, "invalid_input", message, param=None if whole else where)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, ClientDisconnect):
            raise exc.__cause__  # FastAPI's 400 for a body cut off: the client's, as RequestIds says
        if exc.status_code == 400:
            # FastAPI's only 400 is a body it could not decode: bytes that are not UTF-8, or
            # JSON nested deeper than the decoder goes.
            return error_response(request, 422, "invalid_input",
                                  "body: not decodable JSON (not UTF-8, or nested too deeply)")
        if exc.status_code == 405:  # Starlette's Allow names the first matching route's methods only
            return not_allowed(request.scope)
        code = HTTP_CODES.get(exc.status_code, "error")
        headers = dict(exc.headers) if exc.headers else None
        return error_response(request, exc.status_code, code, str(exc.detail), headers)
