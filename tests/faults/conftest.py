"""The fault suite reuses the service fixtures: the app, its worker and users of every role."""

from tests.api.conftest import client, tokens, worker  # noqa: F401
