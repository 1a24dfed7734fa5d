"""What the browser tests share besides fixtures: the availability rule, the axe audit, the
checks on layout, and the API calls a story makes to set its scene."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

IN_CI = os.environ.get("CI", "").lower() == "true"
# Debian's chromium-headless-shell package (Chromium's old headless mode, which Playwright itself
# runs for headless tests: the full browser cost the suite 75 % more CPU); another build can be
# named with JUDGE_TEST_CHROMIUM.
CHROMIUM = Path(os.environ.get("JUDGE_TEST_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell"))
AXE_SOURCE_PATH = Path(__file__).parent / "vendor" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


class HasToken(Protocol):
    token: str


def api_request(base: str, account: HasToken, method: str, path: str, **body: Any) -> httpx.Response:
    """One call of the API at ``base`` as ``account`` (``body`` as JSON, when given)."""
    return httpx.request(method, f"{base}/api/v1{path}", headers={"Authorization": f"Bearer {account.token}"},
                         json=body or None, timeout=60)


def api_call(base: str, account: HasToken, method: str, path: str, **body: Any) -> Any:
    """``api_request`` that must succeed: its JSON body."""
    response = api_request(base, account, method, path, **body)
    assert response.is_success, response.text
    return response.json()


def hours_from_now(hours: float) -> str:
    """An ISO 8601 time with its offset, ``hours`` from now (negative: ago)."""
    return (datetime.now(UTC) + timedelta(hours=hours)).isoformat()


def unavailable(reason: str) -> NoReturn:
    """CI must run the browser tests, so there a missing piece fails; elsewhere it skips."""
    if IN_CI:
        pytest.fail(f"CI needs the browser tests to run: {reason}", pytrace=False)
    pytest.skip(reason)


def require_playwright() -> None:
    """Call at the top of a test module, before importing playwright."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "the playwright package is not installed (scripts/setup installs the dev dependencies)"
        if IN_CI:
            raise
        pytest.skip(reason, allow_module_level=True)


_AXE_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.map((t) => Array.isArray(t) ? t.join(" >>> ") : t).join(" ")),
  }));
}"""


def assert_accessible(page: Page) -> None:
    """Run axe-core's WCAG 2.0/2.1 A and AA rules on the page as it is now; fail listing each
    violation with its rule, impact, the elements it found and what the rule asks for."""
    # evaluate goes through the DevTools protocol, which the page's CSP does not govern (a
    # script tag, inline or not, would be refused); it runs in the page's main world, where
    # axe sees the same DOM the learner does, shadow roots included.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE_PATH.read_text(encoding="utf-8"))
    violations: list[dict[str, Any]] = page.evaluate(_AXE_RUN, WCAG_TAGS)
    if violations:
        lines = [f"{len(violations)} accessibility violation(s) on {page.url}:"]
        for v in violations:
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
            lines.extend(f"    at {target}" for target in v["targets"][:10])
            if len(v["targets"]) > 10:
                lines.append(f"    ... and {len(v['targets']) - 10} more")
        pytest.fail("\n".join(lines), pytrace=False)


def settle(page: Page, seconds: float = 3) -> None:
    """Wait until no request has been in flight for half a second, or give up after seconds:
    a page following a submission keeps its events stream open, and that is no fault."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=seconds * 1000)


def horizontal_overflow(page: Page) -> dict[str, Any] | None:
    """None when the document does not scroll sideways; else its widths and the widest
    elements that stick out past the right edge, to say what to fix."""
    return page.evaluate("""() => {
      const doc = document.documentElement;
      if (doc.scrollWidth <= window.innerWidth) return null;
      const culprits = [];
      for (const node of document.body.querySelectorAll("*")) {
        const rect = node.getBoundingClientRect();
        const parent = node.parentElement.getBoundingClientRect();
        // Only where the overflow starts: an element sticking out of a parent that fits.
        if (rect.right > window.innerWidth + 0.5 && parent.right <= window.innerWidth + 0.5) {
          culprits.push(`${node.tagName.toLowerCase()}${node.id ? "#" + node.id : ""}` +
            `${node.className && typeof node.className === "string" ? "." + node.className.trim().split(/\\s+/).join(".") : ""}` +
            ` right=${Math.round(rect.right)}`);
        }
      }
      return {scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, culprits: culprits.slice(0, 8)};
    }""")


def in_viewport(locator: Locator) -> dict[str, Any]:
    """Where an element's box sits in the viewport, and whether its top part is in view
    (top edge inside, and either all of it or its first 40 px above the bottom edge)."""
    return locator.evaluate("""(node) => {
      const rect = node.getBoundingClientRect();
      const visible = rect.top >= 0 && rect.left >= 0 && rect.right <= window.innerWidth + 0.5 &&
        Math.min(rect.bottom, rect.top + 40) <= window.innerHeight;
      return {visible, top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right,
              innerWidth: window.innerWidth, innerHeight: window.innerHeight, scrollY: window.scrollY};
    }""")
