"""The one error hierarchy: every refusal the judge or the service makes is a ``DomainError``.

Each kind has a stable ``code``; the API maps codes to HTTP statuses in one table
(``api.errors``) and the command line prints the message. Errors of the layers below (the
sandbox's protocol and codec) never reach a caller: the engine turns them into verdicts.
"""

from __future__ import annotations


class DomainError(Exception):
    """Something the caller asked for cannot be done; ``code`` says which kind of refusal."""

    code = "bad_request"

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Unauthorized(DomainError):
    """No credentials, or credentials that name nobody."""

    code = "unauthorized"


class NotFound(DomainError):
    code = "not_found"


class Forbidden(DomainError):
    code = "forbidden"


class TooLarge(DomainError):
    code = "too_large"


class InvalidInput(DomainError):
    code = "invalid_input"


class Conflict(DomainError):
    code = "conflict"


class QuotaExceeded(DomainError):
    code = "quota_exceeded"


class Unavailable(DomainError):
    """A dependency (the queue, the database) is down; the request may be retried."""

    code = "unavailable"
