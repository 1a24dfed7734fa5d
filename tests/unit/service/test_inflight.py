"""problems/inflight.js under Node: a held button is disabled and busy until released, and every click's
Idempotency-Key is new and within the API's 200 characters."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page's modules with")

STATIC = Path(__file__).resolve().parents[3] / "api" / "web" / "static"
INFLIGHT = STATIC / "js" / "problems" / "inflight.js"

SCRIPT = """
import { holdButton, idempotencyKey } from "./inflight.js";
const attributes = new Map();
const classes = new Set();
const button = { disabled: false, setAttribute: (k, v) => attributes.set(k, v),
  removeAttribute: (k) => attributes.delete(k), classList: { add: (c) => classes.add(c), remove: (c) => classes.delete(c) } };
const state = () => ({ disabled: button.disabled, busy: attributes.get("aria-busy") ?? null, classes: [...classes] });
const held = holdButton(button);
const seen = [[held.busy, state()]];
held.hold();
seen.push([held.busy, state()]);
held.release();
seen.push([held.busy, state()]);
const keys = Array.from({ length: 1000 }, idempotencyKey);
console.log(JSON.stringify({ seen, keys }));
"""


def test_a_held_button_is_disabled_and_busy_until_released_and_keys_are_fresh(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "inflight.js").write_text(INFLIGHT.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(SCRIPT, encoding="utf-8")
    ran = subprocess.run(["node", "run.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    out = json.loads(ran.stdout)
    idle: dict[str, object] = {"disabled": False, "busy": None, "classes": []}
    assert out["seen"] == [[False, idle], [True, {"disabled": True, "busy": "true", "classes": ["busy"]}],
                           [False, idle]]
    keys = out["keys"]
    assert len(set(keys)) == len(keys) and all(0 < len(key) <= 200 for key in keys)
