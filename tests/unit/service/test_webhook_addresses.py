"""The SSRF guard: a callback URL is refused unless it is http(s) to a public address, however
the address is written or whatever a name resolves to; with JUDGE_WEBHOOK_ALLOW_PRIVATE the
loopback receiver of the tests is let through, and the attempt connects to the checked IP."""

from __future__ import annotations

import pytest

from judge.errors import InvalidInput
from service.webhooks.addresses import Target, check

PUBLIC = "93.184.215.14"


def names(table: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    """A resolver for names the test defines (a DNS answer an attacker controls)."""
    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError(f"[Errno -2] Name or service not known: {host}")
        return table[host]
    return resolve


HOSTILE = [
    "http://127.0.0.1/hook", "http://127.1.2.3:8080/", "http://localhost/", "http://LOCALHOST./x",
    "http://[::1]/", "http://[::]/", "http://0.0.0.0/", "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://192.168.1.1/",
    "http://100.64.0.1/", "http://224.0.0.1/", "http://239.255.255.250/", "http://240.0.0.1/",
    "http://255.255.255.255/", "http://192.0.2.1/", "http://198.18.0.1/",
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:169.254.169.254]/",
    "http://[fe80::1]/", "http://[fe80::1%25eth0]/", "http://[fc00::1]/", "http://[fd12:3456::1]/",
    "http://[ff02::1]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::1]/",
    "http://[2001:db8::1]/",
    # IPv6 that ``is_global`` calls global yet is not positively public: site-local (fec0::/10,
    # with an IPv4 tail too), the new documentation prefix, and anything outside 2000::/3.
    "http://[fec0::1]/", "http://[fec0::127.0.0.1]/", "http://[feff::1]/", "http://[3fff::1]/",
    "http://[5f00::1]/", "http://[100::1]/", "http://[::1.2.3.4]/", "http://[4000::1]/",
    # Integer, octal and hex spellings that some parsers read as 127.0.0.1.
    "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://0x7f000001/",
    "http://017700000001/", "http://127.1/", "http://0/",
    # A name whose answer is loopback, private or metadata, or mixes one in with a public one.
    "http://rebind.test/", "http://metadata.test/", "https://mixed.test/",
]
RESOLVER = names({"rebind.test": ["127.0.0.1"], "metadata.test": ["169.254.169.254"],
                  "mixed.test": [PUBLIC, "10.1.2.3"], "hooks.test": [PUBLIC, "2606:2800:220:1::1"]})


@pytest.mark.parametrize("url", HOSTILE)
def test_a_non_public_address_is_refused(url: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check(url, allow_private=False, max_length=2048, resolve=RESOLVER)
    assert refused.value.param == "callback_url"
    assert refused.value.status == 422


def test_localhost_is_refused_through_the_real_resolver() -> None:
    """/etc/hosts answers for localhost: no network, and the same resolver a connection uses."""
    with pytest.raises(InvalidInput, match="not a public host"):
        check("http://localhost:9/", allow_private=False, max_length=2048)


def test_a_refused_name_never_tells_what_it_resolves_to() -> None:
    """The refusal is no oracle over the judge's DNS: a name at loopback, at the metadata
    address, at a mix, or nowhere at all gets one message, with no address in it."""
    messages = set()
    for host in ("rebind.test", "metadata.test", "mixed.test", "nowhere.test"):
        with pytest.raises(InvalidInput) as refused:
            check(f"http://{host}/", allow_private=False, max_length=2048, resolve=RESOLVER)
        messages.add(refused.value.message.replace(host, "HOST"))
    assert len(messages) == 1, messages
    (message,) = messages
    for leak in ("127.0.0.1", "169.254", "10.1.2.3", PUBLIC, "loopback", "resolve (", "Errno"):
        assert leak not in message


def test_a_refused_address_written_in_the_url_says_why() -> None:
    with pytest.raises(InvalidInput, match="fec0::1 is site-local"):
        check("http://[fec0::1]/", allow_private=False, max_length=2048)
    with pytest.raises(InvalidInput, match="127.0.0.1 is loopback"):
        check("http://127.0.0.1/", allow_private=False, max_length=2048)


@pytest.mark.parametrize("url, why", [
    ("ftp://hooks.test/", "only http and https"), ("file:///etc/passwd", "only http and https"),
    ("gopher://hooks.test/", "only http and https"), ("javascript:alert(1)", "only http and https"),
    ("http://user:pw@hooks.test/", "user name or password"), ("http:///path", "names no host"),
    ("http://hooks.test/a b", "spaces"), ("http://hooks.test/\r\nX: y", "control"),
    ("http://hooks.test:99999/", "not a URL"), ("http://hooks.test/#frag", "fragment"),
    ("http://nowhere.test/", "not a public host"), ("http://hooks.test/" + "a" * 2100, "at most 2048"),
])
def test_other_bad_urls_are_refused_with_a_reason(url: str, why: str) -> None:
    with pytest.raises(InvalidInput, match=why):
        check(url, allow_private=False, max_length=2048, resolve=RESOLVER)


def test_a_public_name_gives_its_first_checked_address_and_keeps_the_name() -> None:
    target = check("https://hooks.test/judge/in?x=1", allow_private=False, max_length=2048,
                   resolve=RESOLVER)
    assert target == Target("https", "hooks.test", 443, "/judge/in?x=1", PUBLIC)
    assert check("http://hooks.test:8080", False, 2048, RESOLVER).port == 8080
    assert check(f"http://{PUBLIC}/", False, 2048, RESOLVER).address == PUBLIC


def test_allowing_private_lets_the_loopback_receiver_through_but_not_odd_spellings() -> None:
    target = check("http://127.0.0.1:8123/hook", allow_private=True, max_length=2048)
    assert (target.address, target.port, target.path) == ("127.0.0.1", 8123, "/hook")
    assert check("http://rebind.test/", True, 2048, RESOLVER).address == "127.0.0.1"
    with pytest.raises(InvalidInput, match="unusual form"):
        check("http://2130706433/", allow_private=True, max_length=2048)


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_an_attempt_connects_to_the_checked_address_never_to_the_name(
        scheme: str, refused_connections: list[str]) -> None:
    from service.webhooks.delivery import post

    # A name that resolves nowhere: were it looked up again, this would fail before connecting.
    target = Target(scheme, "hooks.example.invalid", 8080, "/in", "127.0.0.1")
    with pytest.raises(ConnectionRefusedError):
        post(target, b"{}", {"Content-Type": "application/json"}, 5.0)
    assert refused_connections == ["AF_INET ('127.0.0.1', 8080)"]
