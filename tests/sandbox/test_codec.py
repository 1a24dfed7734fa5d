from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from sandbox.inside.codec import MAX_DEPTH, CodecError, Opaque, _decode_checked, decode, encode


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


def _random_tree(rng: random.Random, depth: int) -> Any:
    """A tagged tree, well formed or broken in one of the ways a hostile claim could be."""
    tag = rng.choice(["none", "bool", "int", "float", "str", "list", "tuple", "dict", "other",
                      "magic", 7, None])
    raw: Any = rng.choice([
        True, 0, 1.5, None, "x", "12", " 3 ", "1_0", "-0", "nan", "1e400", "inf", "0x1f", "", [], {},
    ])
    if tag in ("list", "tuple", "dict") and depth < 70 and rng.random() < 0.8:
        size = rng.randrange(3)
        raw = ([[_random_tree(rng, depth + 1), _random_tree(rng, depth + 1)] for _ in range(size)]
               if tag == "dict" and rng.random() < 0.8 else
               [_random_tree(rng, depth + 1) for _ in range(size)])
    tree: Any = {"t": tag, "v": raw}
    shape = rng.random()
    if shape < 0.1:
        del tree["v"]
    elif shape < 0.15:
        tree["x"] = 1
    elif shape < 0.2:
        tree = {"t": "other", "type": rng.choice(["T", 1]), "repr": rng.choice(["r", None])}
    elif shape < 0.22:
        tree = rng.choice([[], "s", 1, None, {"v": 1}])
    return tree


def _outcome(decoder: Any, tree: object) -> tuple[str, str]:
    try:
        value = decoder(tree)
    except CodecError as exc:
        return "error", str(exc)
    return "value", repr((value, type(value)))


def test_the_short_path_decodes_as_the_full_checks_do() -> None:
    rng = random.Random(20261201)
    for _ in range(20_000):
        tree = _random_tree(rng, 0)
        assert _outcome(decode, tree) == _outcome(lambda t: _decode_checked(t, 0), tree), tree


def test_the_short_path_keeps_the_depth_cap() -> None:
    tree: Any = {"t": "str", "v": "deep"}
    for _ in range(MAX_DEPTH + 1):
        tree = {"t": "list", "v": [tree]}
    decode(tree)
    with pytest.raises(CodecError, match="nested too deeply"):
        decode({"t": "list", "v": [tree]})


def test_a_dict_whose_keys_share_one_hash_is_refused_in_linear_time() -> None:
    """Every multiple of 2**61 - 1 hashes to 0: inserting n such keys compares each with all
    before it, so a 4 MB tree of them took about 20 s to decode. More than a few is refused."""
    modulus = (1 << 61) - 1
    colliding = {"t": "dict", "v": [[encode(k * modulus), encode(None)] for k in range(1, 60_001)]}
    with pytest.raises(CodecError, match="keys of a dict share one hash"):
        decode(json.loads(json.dumps(colliding)))
    # Honest keys that happen to collide (hash(-1) == hash(-2), 1 == 1.0) still decode.
    assert decode(encode({-1: "a", -2: "b", 1.5: "c", (1, 2): "d"})) == {-1: "a", -2: "b", 1.5: "c", (1, 2): "d"}
    assert len(decode(encode({k: k for k in range(60_000)}))) == 60_000
