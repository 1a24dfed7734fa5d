"""The ranges a request's ids, offsets and times must lie in, checked by the schema.

An id past the database's integer (PostgreSQL's INTEGER: 2**31 - 1), or a time whose UTC form
leaves the calendar, used to reach the query or the conversion and fail there (a 5xx). Bounded
here, every route refuses it with a 422 that names the field, and the OpenAPI document states the
range.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, AwareDatetime, Field

from judge.problems import SLUG
from service.accounts import MAX_PASSWORD, MIN_PASSWORD
from service.courses import MAX_ID
from service.settings import get_settings
from service.users import MAX_LABEL

Id = Annotated[int, Field(ge=1, le=MAX_ID)]  # a row's id: PostgreSQL's INTEGER, 1 to 2**31 - 1
Offset = Annotated[int, Field(ge=0, le=MAX_ID)]  # rows to skip: never more than there can be rows
# An id in a JSON body is a JSON integer: true or "12" is refused, not read as 1 or 12 (a path or
# a query is text, so Id parses it).
BodyId = Annotated[int, Field(strict=True, ge=1, le=MAX_ID)]

# Times are stored as naive UTC. The range keeps the conversion (an offset of up to a day either
# way) and any later arithmetic on a stored time (a day or a year added) inside datetime's years.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(9999, 1, 1)
TIME_RANGE = f"between {EARLIEST:%Y-%m-%d} and {LATEST:%Y-%m-%d} (UTC)"


def naive_utc(moment: datetime) -> datetime:
    """An aware time as naive UTC; a time outside TIME_RANGE is a ValueError (the field's 422)."""
    try:
        utc = moment.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:  # year 0 or year 10000 once the offset is applied
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        raise ValueError(f"must be {TIME_RANGE}")
    return utc


TimeIn = Annotated[AwareDatetime, AfterValidator(naive_utc)]


# Bounds the service itself enforces (with its own message, a 422 invalid_input), stated in the
# schema only: checking them here too would answer the same refusal in other words.
Slug = Annotated[str, Field(json_schema_extra={"pattern": SLUG.pattern})]
NewPassword = Annotated[str, Field(json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD})]
# A name or a label is trimmed first: 1 to 100 characters of it must be left.
UserName = Annotated[str, Field(json_schema_extra={"minLength": 1, "maxLength": 100})]
Label = Annotated[str, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_LABEL})]
# A webhook's address stays text: service.webhooks.addresses reads it (scheme, host, public
# address) and refuses it past JUDGE_WEBHOOK_MAX_URL_LENGTH, naming callback_url. The schema says
# what it is, a URI of at most that length (read when the routes are defined, as the waits are),
# so that a generated client and schemathesis send one; 2048, the most that setting takes, stays
# the schema's own check before the service's.
CallbackUrl = Annotated[str, Field(max_length=2048, json_schema_extra={
    "format": "uri", "maxLength": get_settings().webhook_max_url_length})]

# ?wait=: seconds to hold an answer, up to JUDGE_MAX_WAIT_SECONDS (read when the routes are
# defined: the process's setting). inf and nan are refused, not held "forever" or compared.
MAX_WAIT_SECONDS = get_settings().max_wait_seconds
WaitSeconds = Annotated[float, Field(ge=0, le=MAX_WAIT_SECONDS, allow_inf_nan=False)]
