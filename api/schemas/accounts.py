"""Bodies of the account routes: signing in and out, registering, passwords, tokens, users."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from api.schemas import Me
from judge.service.db.models import Role


class SignIn(BaseModel):
    # Loose bounds here: a name or password that cannot exist fails like any wrong one (401).
    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=1000)


class Register(BaseModel):
    name: str = Field(description="1 to 100 characters; surrounding spaces are dropped")
    password: str = Field(description="10 to 200 characters")
    join_code: str = Field(description="the code of a course's join link (/join/<code>)")


class SessionOut(BaseModel):
    user: Me
    csrf_token: str = Field(description="send it as X-CSRF-Token with every request that changes "
                                        "something while signed in with the session cookie")


class PasswordChange(BaseModel):
    current_password: str | None = Field(None, max_length=1000, description=(
        "required when you already have a password"))
    new_password: str = Field(description="10 to 200 characters")


class TokenCreate(BaseModel):
    label: str = Field(description="your own name for it, 1 to 100 characters")


class TokenOut(BaseModel):
    id: int
    label: str | None
    created_at: datetime
    last_used_at: datetime | None = Field(description="to the minute: written at most once a minute")


class TokenCreated(BaseModel):
    id: int
    label: str | None
    token: str = Field(description="the token itself, shown only this once")


class UserOut(BaseModel):
    id: int
    name: str
    role: Role
    created_at: datetime
    has_password: bool


class UserPage(BaseModel):
    items: list[UserOut]
    total: int


class UserCreate(BaseModel):
    name: str = Field(description="1 to 100 characters; surrounding spaces are dropped")
    role: Role = Role.LEARNER
    password: str = Field(description="10 to 200 characters")


class RoleChange(BaseModel):
    role: Role
