"""The pages' third-party assets (the code editor's bundle, the API documentation viewers): served
by the site itself, exactly the bytes scripts/build-web-assets makes.

Rebuilding them needs npm and takes too long for this layer, so scripts/build-web-assets records
every file's sha256 in web-src/assets.sha256 and these tests hold the committed files to it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "api" / "web"
BUNDLE = WEB / "static" / "vendor" / "codemirror.js"
RECORD = ROOT / "web-src" / "assets.sha256"
EDITOR = WEB / "static" / "js" / "problems" / "editor.js"

# A URL with a scheme or a scheme-relative one (//host/...): anything not served by this origin.
EXTERNAL = re.compile(r"""(?:\b[a-z][a-z0-9+.-]*:)?//[\w.-]+""", re.IGNORECASE)


def _recorded() -> dict[Path, str]:
    """Each built file and the sha256 the build recorded for it."""
    lines = RECORD.read_text(encoding="ascii").splitlines()
    return {ROOT / path: digest for digest, path in (line.split() for line in lines)}


def test_the_committed_assets_are_the_ones_the_build_recorded() -> None:
    recorded = _recorded()
    assert BUNDLE in recorded and any("vendor/docs" in str(path) for path in recorded), recorded
    for path, digest in recorded.items():
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        assert actual == digest, (
            f"{path.relative_to(ROOT)} has sha256 {actual}, but scripts/build-web-assets recorded "
            f"{digest}: run scripts/build-web-assets and commit what it writes")


def test_the_bundle_is_served_from_static_as_javascript(client: TestClient) -> None:
    response = client.get("/static/vendor/codemirror.js")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] in {"text/javascript", "application/javascript"}
    assert response.headers["x-content-type-options"] == "nosniff"  # so the type must be right
    assert hashlib.sha256(response.content).hexdigest() == _recorded()[BUNDLE]
    notice = client.get("/static/vendor/codemirror.LICENSE.txt")
    assert notice.status_code == 200 and "@codemirror/view@" in notice.text and "MIT" in notice.text


def test_the_bundle_is_one_self_contained_module() -> None:
    code = BUNDLE.read_text(encoding="utf-8")
    # A static import is a statement naming a module (import {..} from "m", import * as x from "m",
    # import x from "m", import "m"); a dynamic one is an import( call. Neither may be there.
    static = r"""(?:^|[;}\n])\s*import(?:\s*\{[^}]*\}\s*from|\s*\*\s*as\s+[\w$]+\s+from|\s+[\w$]+\s+from|)\s*["']"""
    assert not re.search(static, code), "the bundle imports another module"
    assert not re.search(r"\bimport\s*\(", code), "the bundle loads a module at run time"


def test_every_name_the_editor_imports_is_exported_by_the_bundle() -> None:
    # problems/editor.js and web-src/entry.js must agree; a name added to one only breaks the page at load.
    exports = re.search(r"export\s*\{([^}]*)\}\s*;?\s*$", BUNDLE.read_text(encoding="utf-8"))
    assert exports, "the bundle ends without its export list"
    exported = {item.split(" as ")[-1].strip() for item in exports.group(1).split(",")}
    imports = re.findall(r"import\s*\{([^}]*)\}\s*from\s*\"([^\"]+)\"", EDITOR.read_text(encoding="utf-8"))
    assert [source for _, source in imports] == ["../../vendor/codemirror.js"]  # static/vendor/
    wanted = {name.strip() for name in imports[0][0].split(",") if name.strip()}
    assert wanted <= exported, f"problems/editor.js imports {sorted(wanted - exported)}, which the bundle lacks"


@pytest.mark.parametrize("path", [WEB / "shell.html", EDITOR], ids=lambda path: path.name)
def test_the_shell_and_the_editor_reference_no_external_url(path: Path) -> None:
    found = EXTERNAL.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} refers to {found}: every asset must come from /static"


def test_the_shell_and_the_editor_only_load_from_this_origin() -> None:
    shell = (WEB / "shell.html").read_text(encoding="utf-8")
    sources = re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", shell)
    assert sources and all(source.startswith("/") and not source.startswith("//") for source in sources), sources
    editor_imports = re.findall(r"""\bfrom\s*["']([^"']+)["']""", EDITOR.read_text(encoding="utf-8"))
    # Relative specifiers only (static/js/problems/ -> static/vendor/): never a URL of its own.
    assert editor_imports and all(source.startswith(("./", "../")) for source in editor_imports), editor_imports


def test_the_build_pins_exact_versions() -> None:
    # Byte-for-byte rebuilds need exact versions; the lockfile pins the rest by integrity hash.
    manifest = json.loads((ROOT / "web-src" / "package.json").read_text(encoding="utf-8"))
    ranges = {name: version for name, version in manifest["devDependencies"].items()
              if not re.fullmatch(r"\d+\.\d+\.\d+", version)}
    assert not ranges, f"web-src/package.json has version ranges: {ranges}"
    lock = json.loads((ROOT / "web-src" / "package-lock.json").read_text(encoding="utf-8"))
    assert all("integrity" in entry for name, entry in lock["packages"].items() if name)
