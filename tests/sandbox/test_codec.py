from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import pytest

from sandbox.codec import CodecError, Opaque, decode, encode


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, -7, 10**40, 0.1, -0.0, math.inf, "h\u00e9llo \U0001f600", "",
     [1, [2.5, "x"]], (1, (2,)), {"a": [1], 2: (None,)}, [], ()],
)
def test_round_trip_through_json_keeps_types(value: Any) -> None:
    back = decode(json.loads(json.dumps(encode(value))))
    assert back == value and type(back) is type(value)


def test_nan_survives() -> None:
    assert math.isnan(decode(json.loads(json.dumps(encode(math.nan)))))


def test_subclasses_and_foreign_types_become_opaque() -> None:
    class Sneaky(float):
        def __eq__(self, other: object) -> bool:
            return True

    assert isinstance(decode(encode(Sneaky(1.0))), Opaque)
    frac = decode(encode(Fraction(1, 3)))
    assert frac == Opaque("fractions.Fraction", "Fraction(1, 3)")


def test_self_referencing_list_is_capped() -> None:
    loop: list[Any] = []
    loop.append(loop)
    decode(encode(loop))  # terminates


@pytest.mark.parametrize(
    "tree",
    [{"t": "float", "v": 1.0}, {"t": "int", "v": "x"}, {"t": "list"}, {"v": 1}, [],
     {"t": "dict", "v": [[{"t": "list", "v": []}, {"t": "none"}]]}, {"t": "none", "v": 1},
     {"t": "magic", "v": 1}],
)
def test_decode_is_strict(tree: object) -> None:
    with pytest.raises(CodecError):
        decode(tree)
