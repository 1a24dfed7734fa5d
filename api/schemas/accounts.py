"""Bodies of the account routes: signing in and out, registering, passwords, tokens, users."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from api.schemas import Me
from api.schemas.bounds import Id, Label, NewPassword, UserName
from api.schemas.common import UtcTime
from service.db.models import NotificationKind, Role


def _example(**body: str) -> ConfigDict:
    example: dict[str, JsonValue] = dict(body)
    return ConfigDict(json_schema_extra={"examples": [example]})


class SignIn(BaseModel):
    model_config = _example(name="ada", password="correct horse battery")

    # Loose bounds here: a name or password that cannot exist fails like any wrong one (401).
    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=1000)


class Register(BaseModel):
    model_config = _example(name="ada", password="correct horse battery", join_code="k3J9xQ2b")

    name: UserName = Field(description="1 to 100 characters; surrounding spaces are dropped")
    password: NewPassword = Field(description="10 to 200 characters")
    join_code: str = Field(description="the code of a course's join link (/join/<code>)")


class SessionOut(BaseModel):
    user: Me
    csrf_token: str = Field(description="send it as X-CSRF-Token with every request that changes "
                                        "something while signed in with the session cookie")


class PasswordChange(BaseModel):
    model_config = _example(current_password="correct horse battery", new_password="a longer passphrase")

    current_password: str | None = Field(None, max_length=1000, description=(
        "required when you already have a password"))
    new_password: NewPassword = Field(description="10 to 200 characters")


class TokenCreate(BaseModel):
    model_config = _example(label="laptop")

    label: Label = Field(description="your own name for it, 1 to 100 characters")


class TokenOut(BaseModel):
    id: int
    label: str | None
    created_at: UtcTime
    last_used_at: UtcTime | None = Field(description="to the minute: written at most once a minute")


class TokenCreated(BaseModel):
    id: int
    label: str | None
    token: str = Field(description="the token itself, shown only this once")


class UserOut(BaseModel):
    id: int
    name: str
    role: Role
    created_at: UtcTime
    has_password: bool


class UserPage(BaseModel):
    items: list[UserOut]
    total: int


class UserCreate(BaseModel):
    model_config = _example(name="grace", role="instructor", password="a long enough password")

    name: UserName = Field(description="1 to 100 characters; surrounding spaces are dropped")
    role: Role = Role.LEARNER
    password: NewPassword = Field(description="10 to 200 characters")


class RoleChange(BaseModel):
    model_config = _example(role="instructor")

    role: Role


class EmailSettings(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"email": "ada@example.org", "email_notifications": True}]})

    email: str | None = Field(max_length=254, description=(
        "where your notifications are e-mailed, when the judge's operator configured SMTP; null "
        "or empty: nowhere"))
    email_notifications: bool = Field(True, description="false: keep them on the pages only")


class NotificationOut(BaseModel):
    id: int
    kind: NotificationKind = Field(description=(
        "feedback (a comment or a score set by hand), regrade_answer, or grades_released"))
    text: str
    link: str = Field(description="the page it is about, a path on this judge")
    created_at: UtcTime
    read: bool


class NotificationsOut(BaseModel):
    items: list[NotificationOut] = Field(description="newest first")
    unread: int
    total: int
    limit: int
    offset: int


class MarkRead(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"ids": [3, 4]}, {"ids": None}]})

    ids: list[Id] | None = Field(None, max_length=200, description=(
        "your notifications to mark read; null or left out: all of them"))


class MarkedRead(BaseModel):
    marked: int = Field(description="how many of them were unread")
