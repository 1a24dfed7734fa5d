from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from sandbox.inside.codec import MAX_DEPTH, CodecError, Opaque, _decode_checked, decode, encode, same_tree


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, -7, 10**40, 0.1, -0.0, math.inf, "h\u00e9llo \U0001f600", "",
     [1, [2.5, "x"]], (1, (2,)), {"a": [1], 2: (None,)}, [], (), ["the", "", "cat"],
     [["a", "b"], ["c"]], ("a", "b")],
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
     {"t": "strs", "v": ["a", 1]}, {"t": "strs", "v": "ab"}, {"t": "strs", "v": [["a"]]},
     {"t": "dict", "v": [[{"t": "list", "v": []}, {"t": "none"}]]}, {"t": "none", "v": 1},
     {"t": "magic", "v": 1}],
)
def test_decode_is_strict(tree: object) -> None:
    with pytest.raises(CodecError):
        decode(tree)


def _random_tree(rng: random.Random, depth: int) -> Any:
    """A tagged tree, well formed or broken in one of the ways a hostile claim could be."""
    tag = rng.choice(["none", "bool", "int", "float", "str", "list", "tuple", "dict", "other",
                      "strs", "magic", 7, None])
    raw: Any = rng.choice([
        True, 0, 1.5, None, "x", "12", " 3 ", "1_0", "-0", "nan", "1e400", "inf", "0x1f", "", [], {},
    ])
    if tag in ("list", "tuple", "dict") and depth < 70 and rng.random() < 0.8:
        size = rng.randrange(3)
        raw = ([[_random_tree(rng, depth + 1), _random_tree(rng, depth + 1)] for _ in range(size)]
               if tag == "dict" and rng.random() < 0.8 else
               [_random_tree(rng, depth + 1) for _ in range(size)])
    if tag == "strs" and rng.random() < 0.8:
        raw = [rng.choice(["a", "", "b", "a", 1, None, ["a"]] if rng.random() < 0.2 else ["a", "", "b"])
               for _ in range(rng.randrange(4))]
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


class _Text(str):
    """A str subclass: encoded as an opaque value, never as a string."""


def _random_value(rng: random.Random, depth: int) -> Any:
    """A value as a learner's call may leave an argument: mostly lists of strings, with the
    types the codec must not take for strings, nested past the depth cap now and then."""
    pick = rng.random()
    if depth > 70 or pick < 0.5:
        return rng.choice(["tok", "", "x\x00", _Text("tok"), 1, 1.0, True, None, b"tok", math.nan])
    if pick < 0.8:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick < 0.9:
        return tuple(_random_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {rng.choice(["k", 1]): _random_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _nested(levels: int, leaf: Any = "tok") -> Any:
    value = leaf
    for _ in range(levels):
        value = [value, "tok"]
    return value


def _changed(rng: random.Random, tree: Any) -> Any:
    """The tree with one small change, as a call that mutated its argument would leave it."""
    text = json.dumps(tree, default=str)
    edits = [('"tok"', '"tak"'), ('"t": "str"', '"t": "int"'), ('"t": "list"', '"t": "tuple"'),
             ('"v": "', '"w": "'), ('"v": "', '"v": "", "x": "')]
    before, after = rng.choice(edits)
    return json.loads(text.replace(before, after, 1))


def test_same_tree_is_encoding_compared_without_building_it() -> None:
    rng = random.Random(20261205)
    values = [_random_value(rng, 0) for _ in range(2_000)]
    values += [_nested(n, leaf) for n in range(MAX_DEPTH - 4, MAX_DEPTH + 4) for leaf in ("tok", 5)]
    for value in values:
        for depth in (0, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1):
            sent = json.loads(json.dumps(encode(value, depth), default=str))
            for tree in (sent, _changed(rng, sent)):
                assert same_tree(value, tree, depth) == (encode(value, depth) == tree), (value, tree)


def test_a_list_of_strings_encodes_each_item_as_alone() -> None:
    assert encode(["a", _Text("b"), 1]) == {"t": "list", "v": [encode("a"), encode(_Text("b")), encode(1)]}
    at_the_cap = encode(["a"], MAX_DEPTH)
    assert at_the_cap == {"t": "list", "v": [encode("a", MAX_DEPTH + 1)]}
    assert at_the_cap["v"][0]["t"] == "other"  # its item is past the cap, string or not


def test_a_list_of_strings_is_one_node() -> None:
    assert encode(["the", "cat"]) == {"t": "strs", "v": ["the", "cat"]}
    assert encode([]) == {"t": "list", "v": []} and encode(("a",))["t"] == "tuple"
    assert encode(["a", _Text("b")])["t"] == "list"  # a subclass is no string here


def test_strings_past_the_depth_cap_are_refused_as_any_item() -> None:
    tree: Any = {"t": "strs", "v": ["deep"]}
    for _ in range(MAX_DEPTH):
        tree = {"t": "list", "v": [tree]}
    decode(tree)
    with pytest.raises(CodecError, match="nested too deeply"):
        decode({"t": "list", "v": [tree]})
