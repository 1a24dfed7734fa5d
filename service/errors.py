"""The service's refusals: who is asking, what they may do, conflicts with what is stored, quotas,
and dependencies that are down. Each is a ``DomainError`` (``judge.errors``, the root of the one
tree, with the engine's own refusals) with its code and HTTP status side by side.

``STATUS`` is the one table the API answers from, built here once every class of the tree is
defined. The whole tree (class, code, status); ``tests/test_error_tree.py`` holds it to the
classes, and the classes of ``judge.errors`` to their part of it::

    DomainError                 bad_request           400
      Unauthorized              unauthorized          401
        BadCredentials          bad_credentials       401
        LaunchRefused           launch_refused        401
      Forbidden                 forbidden             403
        NotSolved               not_solved            403
        CsrfRejected            csrf                  403
        WrongPassword           wrong_password        403
        NotOpen                 not_open              403
        PastDue                 past_due              403
      NotFound                  not_found             404
      Conflict                  conflict              409
        NoMoreHints             no_more_hints         409
        LastAdmin               last_admin            409
        LastInstructor          last_instructor       409
        TooManyInvitations      too_many_invitations  409
      TooLarge                  too_large             413
      InvalidInput              invalid_input         422
        ProblemError            invalid_input         422
      QuotaExceeded             quota_exceeded        429
        TooManyAttempts         too_many_attempts     429
        HashingBusy             busy                  429
      PlatformError             platform_error        502
      Unavailable               unavailable           503
"""

from __future__ import annotations

from judge.errors import DomainError, status_table

# ---------------------------------------------------------------------------------------------
# 401: who is asking is unknown


class Unauthorized(DomainError):
    """No credentials, or credentials that name nobody."""

    code = "unauthorized"
    status = 401


class BadCredentials(Unauthorized):
    """Sign-in: the name or the password is wrong (one message for both)."""

    code = "bad_credentials"
    status = 401


class LaunchRefused(Unauthorized):
    """An LTI launch (or a message of its login) that the judge will not take: the message says
    which check failed (service.lti.id_tokens)."""

    code = "launch_refused"
    status = 401


# ---------------------------------------------------------------------------------------------
# 403: known, and not allowed


class Forbidden(DomainError):
    code = "forbidden"
    status = 403


class NotSolved(Forbidden):
    """The editorial, before an accepted submission."""

    code = "not_solved"
    status = 403


class CsrfRejected(Forbidden):
    """A state-changing request made with the session cookie lacks the session's CSRF token."""

    code = "csrf"
    status = 403


class WrongPassword(Forbidden):
    """A signed-in user's current password, asked again before it is changed, is wrong."""

    code = "wrong_password"
    status = 403


class NotOpen(Forbidden):
    """A submission for an assignment that has not opened yet."""

    code = "not_open"
    status = 403


class PastDue(Forbidden):
    """A submission after the due time of an assignment that refuses late work."""

    code = "past_due"
    status = 403


# ---------------------------------------------------------------------------------------------
# 404, 409, 413


class NotFound(DomainError):
    code = "not_found"
    status = 404


class Conflict(DomainError):
    code = "conflict"
    status = 409


class NoMoreHints(Conflict):
    code = "no_more_hints"
    status = 409


class LastAdmin(Conflict):
    """The last admin cannot be removed or demoted."""

    code = "last_admin"
    status = 409


class LastInstructor(Conflict):
    """A course keeps one instructor."""

    code = "last_instructor"
    status = 409


class TooManyInvitations(Conflict):
    """A course's pending invitations are capped."""

    code = "too_many_invitations"
    status = 409


class TooLarge(DomainError):
    code = "too_large"
    status = 413


# ---------------------------------------------------------------------------------------------
# 429 and 503: try again later (with Retry-After where the wait is known)


class QuotaExceeded(DomainError):
    """A per-user quota is used up. ``quota`` names it and ``limit`` is its size when the
    refusal comes from one quota of a known size: the API then answers with RateLimit-* headers
    for it as well as Retry-After."""

    code = "quota_exceeded"
    status = 429

    def __init__(self, message: str, retry_after: int | None = None, param: str | None = None,
                 *, quota: str | None = None, limit: int | None = None) -> None:
        super().__init__(message, retry_after, param)
        self.quota = quota
        self.limit = limit


class TooManyAttempts(QuotaExceeded):
    """Failed sign-ins for a name or from an address are at their limit."""

    code = "too_many_attempts"
    status = 429


class HashingBusy(QuotaExceeded):
    """Every worker of the password hashing pool is busy and its queue is full; try again in a
    second."""

    code = "busy"
    status = 429


class PlatformError(DomainError):
    """An LTI platform (an LMS) could not be reached, or answered what the judge cannot use; the
    message says which call and why (service.lti.remote)."""

    code = "platform_error"
    status = 502


class Unavailable(DomainError):
    """A dependency (the queue, the database) is down; the request may be retried."""

    code = "unavailable"
    status = 503


STATUS = status_table()  # the one map from the judge's error codes to HTTP
