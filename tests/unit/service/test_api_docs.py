"""The API documentation pages, /docs (Swagger UI) and /redoc (Redoc): served entirely by this
origin, so they work offline and no third party runs script on it."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

ASSET = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""")


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_a_docs_page_loads_every_asset_from_this_origin(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "connect-src 'self'" in policy, policy
    assert "<script>" not in page.text, "an inline script: the policy would refuse it"
    assets = ASSET.findall(page.text)
    assert len(assets) >= 2 and all(a.startswith("/") and not a.startswith("//") for a in assets), assets
    for asset in assets:
        served = client.get(asset)
        assert served.status_code == 200, asset
        assert not re.search(r"""["'](?:https?:)?//[^"'\s]*\.(?:svg|png|js|css|woff2?)["']""",
                             served.text[:5_000_000]), f"{asset} loads something from elsewhere"


def test_the_docs_read_this_services_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/v1/submissions" in schema["paths"]
    starters = client.get("/static/docs/swagger.js").text + client.get("/static/docs/redoc.js").text
    assert starters.count('"/openapi.json"') == 2
