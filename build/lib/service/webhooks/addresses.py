"""Where a webhook may go: http or https to a public address, nothing else (the SSRF guard).

A callback URL is checked when a submission names it and again before every attempt, since a
name may resolve elsewhere by then. The check resolves the host and refuses it unless every one
of its addresses is positively public: a global IPv4 address that is none of loopback, private,
link-local, multicast, reserved, unspecified, shared or documentation, or an IPv6 address of
the global unicast range 2000::/3 that is none of those either (IPv4 inside IPv6 is judged as
the IPv4 it carries). A list of what to refuse always misses a range (``is_global`` counts the
deprecated site-local fec0::/10 as global), so IPv6 outside 2000::/3 is refused whatever it is.
The attempt then connects to the address that was checked, never to the name again.

A refusal of a name never says what it resolved to, nor whether it resolved at all: either
would make the check an oracle over the judge's own DNS (which internal names exist, and
where). An address written in the URL is the caller's own, and its refusal says why. Hosts written as an
integer or in octal or hex parts (``2130706433``, ``0177.1``) are refused outright: they are
127.0.0.1 to some parsers and a name to others. ``JUDGE_WEBHOOK_ALLOW_PRIVATE`` lets
non-public addresses through, for a receiver on the judge's own host or network.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from judge.errors import InvalidInput

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Sequence[str]]
PARAM = "callback_url"
_NUMERIC_LABELS = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+))*\.?", re.IGNORECASE)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
# Inside 2000::/3 yet not a host on the internet, and not (yet) known to ``is_global``.
_NOT_PUBLIC_V6 = (ipaddress.IPv6Network("3fff::/20"),)  # documentation (RFC 9637)


def refused(message: str) -> InvalidInput:
    """A callback URL that a webhook may not be sent to: 422 with param callback_url."""
    return InvalidInput(f"callback_url: {message}", param=PARAM)


@dataclass(frozen=True)
class Target:
    """A checked callback: what to connect to (``address``) and what to ask for there."""

    scheme: str
    host: str  # as written in the URL: the Host header and the TLS server name
    port: int
    path: str  # with the query
    address: str  # the checked IP the attempt connects to


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the host's resolver gives for host (the same call a connection makes)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.teredo is not None:
        return address.teredo[1]  # the client's address, which the relay would reach
    return None


def why_not_public(address: IPAddress) -> str | None:
    """Why a webhook may not go to address, or None when it is public."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None:
            reason = why_not_public(inner)
            return f"{reason} (as {inner} inside IPv6)" if reason else None
    checks = (("unspecified", address.is_unspecified), ("loopback", address.is_loopback),
              ("link-local", address.is_link_local), ("multicast", address.is_multicast),
              ("private", address.is_private), ("reserved", address.is_reserved),
              ("not globally routable", not address.is_global))
    reason = next((name for name, hit in checks if hit), None)
    if reason is None and isinstance(address, ipaddress.IPv6Address):
        if address.is_site_local:
            return "site-local"
        if address not in _GLOBAL_UNICAST or any(address in net for net in _NOT_PUBLIC_V6):
            return "outside the public IPv6 unicast range"
    return reason


def _parse(url: str, max_length: int) -> tuple[str, str, int, str]:
    if len(url) > max_length:
        raise refused(f"at most {max_length} characters, not {len(url)}")
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        raise refused("must not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise refused(f"not a URL: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise refused("only http and https URLs are posted to")
    if parts.username is not None or parts.password is not None:
        raise refused("must not carry a user name or password")
    host = parts.hostname
    if not host:
        raise refused("names no host")
    if parts.fragment:
        raise refused("must not have a #fragment")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port or (443 if scheme == "https" else 80), path


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        if _NUMERIC_LABELS.fullmatch(host):
            raise refused(f"{host!r} is an address in an unusual form: write it as a "
                             "dotted-decimal IPv4 or a bracketed IPv6 address, or use a name") from None
        return None


def check(url: str, allow_private: bool, max_length: int,
          resolve: Resolver = system_resolver) -> Target:
    """The target to connect to for url; InvalidInput (param callback_url) when a webhook may not go there."""
    scheme, host, port, path = _parse(url, max_length)
    literal = _literal(host)
    if literal is not None:
        reason = None if allow_private else why_not_public(literal)
        if reason:
            raise refused(f"{literal} is {reason}; webhooks go only to public addresses")
        return Target(scheme, host, port, path, str(literal))
    # One answer for a name that does not resolve and one that resolves anywhere but public
    # addresses (the module's docstring says why).
    not_public = refused(f"the host {host!r} is not a public host: webhooks go only to names "
                         "that resolve, and only to public addresses")
    try:
        found = [ipaddress.ip_address(a.split("%", 1)[0]) for a in resolve(host, port)]
    except (OSError, UnicodeError, ValueError):
        raise not_public from None
    # Every address must be public: a name may list a public one beside 127.0.0.1.
    if not found or (not allow_private and any(why_not_public(a) for a in found)):
        raise not_public
    return Target(scheme, host, port, path, str(found[0]))
