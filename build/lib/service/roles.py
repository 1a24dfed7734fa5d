"""The roles a user may have: apart from the models, so that the command line can offer them
without loading SQLAlchemy."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"
    ADMIN = "admin"
