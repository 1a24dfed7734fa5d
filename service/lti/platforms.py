"""Registered platforms: an admin's to add, change and remove (the API's /lti/platforms, the
/admin/lti page, or dynamic registration), and their public keys, fetched from each platform's
JWKS URL, cached, and fetched again when a token names a key the cache lacks (at most once every
REFETCH_AFTER, so tokens naming made-up keys cannot make the judge fetch without end)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from joserfc.jwk import KeySet
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.db.models import LtiPlatform, User, utcnow
from service.errors import Conflict, NotFound, PlatformError
from service.lti import remote

REFETCH_AFTER = timedelta(seconds=10)
MAX_DEPLOYMENTS = 50
MAX_KEYS = 20


@dataclass(frozen=True)
class PlatformFields:
    """What an admin gives to register a platform."""

    name: str
    issuer: str
    client_id: str
    deployment_ids: list[str]
    auth_login_url: str
    token_url: str
    jwks_url: str
    token_audience: str | None = None

    def checked(self) -> PlatformFields:
        """These fields when each is well formed; InvalidInput naming the first that is not."""
        def text(value: str, name: str, most: int) -> str:
            value = value.strip()
            if not 1 <= len(value) <= most:
                raise InvalidInput(f"{name}: 1 to {most} characters", param=name)
            if not value.isprintable():
                raise InvalidInput(f"{name}: printable characters only (no control or bidi characters)",
                                   param=name)
            return value

        def url(value: str, name: str) -> str:
            try:
                return remote.checked_url(value.strip(), name)
            except ValueError as exc:
                raise InvalidInput(str(exc), param=name) from exc

        deployments = [text(d, "deployment_ids", 255) for d in self.deployment_ids]
        # None at all is allowed (a dynamic registration may be given none): launches are then
        # refused, saying to add the deployment id the platform sends.
        if len(deployments) > MAX_DEPLOYMENTS or len(set(deployments)) != len(deployments):
            raise InvalidInput(f"deployment_ids: at most {MAX_DEPLOYMENTS} deployment ids, each once",
                               param="deployment_ids")
        return PlatformFields(
            name=text(self.name, "name", 200), issuer=url(self.issuer, "issuer"),
            client_id=text(self.client_id, "client_id", 255), deployment_ids=deployments,
            auth_login_url=url(self.auth_login_url, "auth_login_url"),
            token_url=url(self.token_url, "token_url"), jwks_url=url(self.jwks_url, "jwks_url"),
            token_audience=text(self.token_audience, "token_audience", 1000) if self.token_audience else None)


def listing(session: Session) -> list[LtiPlatform]:
    return list(session.scalars(select(LtiPlatform).order_by(LtiPlatform.id)))


def find(session: Session, platform_id: int) -> LtiPlatform:
    platform = session.get(LtiPlatform, platform_id)
    if platform is None:
        raise NotFound(f"no LTI platform {platform_id}")
    return platform


def _save(session: Session, platform: LtiPlatform) -> LtiPlatform:
    try:
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        raise Conflict(f"a platform with issuer {platform.issuer!r} and client id {platform.client_id!r} "
                       "is registered already") from exc
    return platform


def register(session: Session, admin: User, fields: PlatformFields) -> LtiPlatform:
    good = fields.checked()
    platform = LtiPlatform(registered_by=admin.id, **vars(good))
    session.add(platform)
    return _save(session, platform)


def update(session: Session, platform_id: int, fields: PlatformFields) -> LtiPlatform:
    platform = find(session, platform_id)
    good = fields.checked()
    if platform.jwks_url != good.jwks_url:
        platform.jwks, platform.jwks_fetched_at = None, None
    for name, value in vars(good).items():
        setattr(platform, name, value)
    return _save(session, platform)


def remove(session: Session, platform_id: int) -> None:
    """Remove a platform: its launches stop; the users, courses and submissions it made stay."""
    session.delete(find(session, platform_id))
    session.commit()


def by_issuer(session: Session, issuer: str, client_id: str | None) -> LtiPlatform | None:
    """The platform an issuer (and client id, when a login names one) stands for. An issuer
    registered under several client ids needs the client id to tell them apart."""
    query = select(LtiPlatform).where(LtiPlatform.issuer == issuer)
    if client_id:
        query = query.where(LtiPlatform.client_id == client_id)
    found = list(session.scalars(query.limit(2)))
    return found[0] if len(found) == 1 else None


def _fetch_keys(session: Session, platform: LtiPlatform) -> None:
    document = remote.get_json(platform.jwks_url, f"the key set of platform {platform.name!r}")
    keys = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(keys, list) or not keys:
        raise PlatformError(f"the key set at {platform.jwks_url} holds no keys")
    platform.jwks = {"keys": [k for k in keys[:MAX_KEYS] if isinstance(k, dict)]}
    platform.jwks_fetched_at = utcnow()
    session.commit()


def _kids(platform: LtiPlatform) -> set[str]:
    return {str(k.get("kid")) for k in (platform.jwks or {}).get("keys", [])}


def key_set(session: Session, platform: LtiPlatform, kid: str) -> KeySet:
    """The platform's keys, holding ``kid`` if the platform publishes it: the cache, or a fresh
    fetch when the cache lacks it (not more often than REFETCH_AFTER)."""
    fetched = platform.jwks_fetched_at
    if platform.jwks is None or (kid not in _kids(platform) and (
            fetched is None or utcnow() - fetched >= REFETCH_AFTER)):
        _fetch_keys(session, platform)
    usable: list[dict[str, Any]] = []
    for key in (platform.jwks or {}).get("keys", []):
        if key.get("kty") == "RSA" and key.get("use", "sig") == "sig":
            usable.append(key)
    try:
        return KeySet.import_key_set({"keys": usable})
    except ValueError as exc:
        raise PlatformError(f"the key set at {platform.jwks_url} holds a key that is not "
                                   f"a valid RSA key: {exc}") from exc
