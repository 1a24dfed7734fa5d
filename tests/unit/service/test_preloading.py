"""Which standard modules a spawner loads ahead for a learner's module (``sandbox.learner``):
read from the syntax tree, only those on the list, and nothing of the learner's runs."""

from __future__ import annotations

import pytest

from sandbox.inside.learner import PRELOADABLE, preloadable_imports


def test_absolute_imports_on_the_list_are_named_once_in_source_order() -> None:
    source = (
        "import unicodedata, os\n"
        "from collections import Counter\n"
        "from fractions import Fraction as F\n"
        "import collections.abc\n"
        "def f():\n"
        "    import statistics\n"
        "    import unicodedata\n"
    )
    assert preloadable_imports(source) == ["unicodedata", "collections", "fractions",
                                           "collections.abc", "statistics"]


@pytest.mark.parametrize("source", [
    "from . import unicodedata\n",  # relative: the learner's own module, never the standard one
    "from .statistics import mean\n",
    "import subprocess, socket, antigravity, this\n",  # not on the list
    "__import__('unicodedata')\n",  # a name built at run time is not an import statement
    "x = 'import unicodedata'\n",
])
def test_relative_unlisted_and_dynamic_imports_are_left_to_each_process(source: str) -> None:
    assert preloadable_imports(source) == []


def test_reading_the_imports_runs_none_of_the_code() -> None:
    assert preloadable_imports("raise SystemExit('ran')\nimport math\n") == ["math"]


def test_the_list_holds_only_modules_that_do_nothing_outside_the_interpreter() -> None:
    assert PRELOADABLE.isdisjoint({"os", "subprocess", "socket", "threading", "multiprocessing",
                                   "tempfile", "antigravity", "this", "webbrowser", "ctypes"})
