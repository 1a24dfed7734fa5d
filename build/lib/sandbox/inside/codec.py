"""Type-tagged values: the only way values cross the sandbox boundary.

JSON alone cannot tell a tuple from a list, 1 from 1.0, or carry NaN; a learner's object must never
reach the host. Every value is therefore sent as a small tagged tree. Anything that is not exactly
one of the built-in types below (a subclass, a numpy scalar, a Fraction) travels as ``other`` with
its type name and a capped ``repr``, so the host can explain it without ever holding the object.

A list of nothing but strings (a list of tokens, the commonest argument here) travels as one
``strs`` node holding the strings themselves: encoded, decoded and compared in C, where a node per
string cost the learner's process a Python call for each, three times a test.

This module is standard-library only: it runs inside the sandbox image as well as on the host.
"""

from __future__ import annotations

from sandbox.inside.records import Frozen, set_fields

# No typing or dataclasses at run time: see sandbox.inside.records.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 64
REPR_CAP = 200
TYPE_NAME_CAP = 100
# Keys of one dict that may share a hash. Ints, floats and tuples hash predictably
# (every multiple of 2**61 - 1 hashes to 0), and each key inserted among n that share its hash
# is compared with all n: 20,000 such keys took 2 s to decode, a 4 MiB claim's 65,000 about 21.
# No honest value comes near: distinct ints below 2**61 never share one.
SAME_HASH_CAP = 8


class Opaque(Frozen):
    """A value of a type the judge does not compare structurally, as seen from the host."""

    __slots__ = ("text", "type_name")
    type_name: str
    text: str

    def __init__(self, type_name: str, text: str) -> None:
        set_fields(self, type_name=type_name, text=text)

    def __repr__(self) -> str:
        return f"<{self.type_name} {self.text}>"


class CodecError(ValueError):
    """A tagged tree does not follow the schema."""


def _type_name(value: object) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "") or ""
    name = getattr(kind, "__qualname__", kind.__name__)
    return (name if module == "builtins" else f"{module}.{name}")[:TYPE_NAME_CAP]


def _capped_repr(value: object) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a learner's __repr__ may raise anything
        text = f"<repr failed: {type(exc).__name__}>"
    if not isinstance(text, str):
        text = "<repr returned a non-string>"
    return text if len(text) <= REPR_CAP else text[: REPR_CAP - 3] + "..."


def encode(value: object, depth: int = 0) -> dict[str, Any]:
    """Encode a value as a tagged tree. Only exact built-in types are structural."""
    kind = type(value)
    if depth > MAX_DEPTH:
        return {"t": "other", "type": _type_name(value), "repr": "<nested too deeply>"}
    if value is None:
        return {"t": "none"}
    if kind is bool:
        return {"t": "bool", "v": value}
    if kind is int:
        try:
            return {"t": "int", "v": str(value)}
        except ValueError:  # more digits than int-to-str allows
            return {"t": "other", "type": "int", "repr": "<an int too large to print>"}
    if kind is float:
        return {"t": "float", "v": repr(value)}
    if kind is str:
        return {"t": "str", "v": value}
    if kind is list or kind is tuple:
        if kind is list and value and depth < MAX_DEPTH and _only_strings(value):  # type: ignore[arg-type]
            return {"t": "strs", "v": list(value)}  # type: ignore[call-overload]
        items = [encode(item, depth + 1) for item in value]  # type: ignore[attr-defined]
        return {"t": "list" if kind is list else "tuple", "v": items}
    if kind is dict:
        pairs = [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]  # type: ignore[attr-defined]
        return {"t": "dict", "v": pairs}
    return {"t": "other", "type": _type_name(value), "repr": _capped_repr(value)}


def decode(tree: object, depth: int = 0) -> Any:
    """Decode a tagged tree strictly; raise CodecError on anything that breaks the schema.

    The common well-formed shapes (exact JSON types, exactly the keys their tag wants) are
    decoded on a short path; anything else, including every malformed tree, goes through the
    full checks of ``_decode_checked``, which give the same value or the error.
    """
    if type(tree) is dict and depth <= MAX_DEPTH + 1:
        if len(tree) == 2:
            tag = tree.get("t")
            raw = tree.get("v")
            if tag == "str":
                if type(raw) is str:
                    return raw
            elif tag == "list":
                if type(raw) is list:
                    return [decode(item, depth + 1) for item in raw]
            elif tag == "strs":
                if type(raw) is list and (depth <= MAX_DEPTH or not raw) and _only_strings(raw):
                    return list(raw)
            elif tag == "float":
                if type(raw) is str:
                    try:
                        return float(raw)
                    except ValueError:
                        pass
            elif tag == "int":
                if type(raw) is str:
                    try:
                        return int(raw)
                    except ValueError:
                        pass
            elif tag == "bool":
                if type(raw) is bool:
                    return raw
            elif tag == "tuple" and type(raw) is list:
                return tuple([decode(item, depth + 1) for item in raw])
        elif len(tree) == 1 and tree.get("t") == "none":
            return None
    return _decode_checked(tree, depth)


def _only_strings(items: list[Any]) -> bool:
    """Whether every item is an exact str (true of none): in C, with no call per item."""
    return set(map(type, items)) <= _STR


_STR = {str}


def same_tree(value: object, tree: object, depth: int = 0) -> bool:
    """Whether ``encode(value, depth) == tree``: for a list of strings (a call's arguments,
    compared after it with what was sent, are mostly unchanged lists of tokens) in C, without
    building the tree."""
    if type(value) is list and value and depth < MAX_DEPTH and _only_strings(value):
        if type(tree) is not dict or len(tree) != 2 or tree.get("t") != "strs":
            return False
        strings = tree.get("v")
        return type(strings) is list and strings == value and _only_strings(strings)
    return encode(value, depth) == tree


def _decode_checked(tree: object, depth: int) -> Any:
    if depth > MAX_DEPTH + 1:
        raise CodecError("value nested too deeply")
    if not isinstance(tree, dict) or not isinstance(tree.get("t"), str):
        raise CodecError("a value must be an object with a string tag 't'")
    tag = tree["t"]
    keys = set(tree)
    expected_keys = {"none": {"t"}, "other": {"t", "type", "repr"}}.get(tag, {"t", "v"})
    if keys != expected_keys:
        wanted = sorted(expected_keys)
        raise CodecError(f"a {tag!r} value has keys {sorted(keys)}, expected {wanted}")
    raw = tree.get("v")
    if tag == "none":
        return None
    if tag == "bool" and isinstance(raw, bool):
        return raw
    if tag == "int" and isinstance(raw, str):
        try:
            return int(raw)
        except ValueError as exc:
            raise CodecError(f"bad int {raw[:40]!r}") from exc
    if tag == "float" and isinstance(raw, str):
        try:
            return float(raw)
        except ValueError as exc:
            raise CodecError(f"bad float {raw[:40]!r}") from exc
    if tag == "str" and isinstance(raw, str):
        return raw
    if tag == "strs" and isinstance(raw, list):
        if raw and depth > MAX_DEPTH:
            raise CodecError("value nested too deeply")
        if not _only_strings(raw):
            raise CodecError("a 'strs' value holds strings only")
        return list(raw)
    if tag in ("list", "tuple") and isinstance(raw, list):
        items = [decode(item, depth + 1) for item in raw]
        return items if tag == "list" else tuple(items)
    if tag == "dict" and isinstance(raw, list):
        result: dict[Any, Any] = {}
        hashes: dict[int, int] = {}
        for pair in raw:
            if not isinstance(pair, list) or len(pair) != 2:
                raise CodecError("a dict entry must be a [key, value] pair")
            key = decode(pair[0], depth + 1)
            try:
                digest = hash(key)
            except TypeError as exc:  # an unhashable key such as a list
                raise CodecError(f"unhashable dict key of type {type(key).__name__}") from exc
            hashes[digest] = hashes.get(digest, 0) + 1
            if hashes[digest] > SAME_HASH_CAP:  # a key sent again counts too: no tree repeats one
                raise CodecError(f"more than {SAME_HASH_CAP} keys of a dict share one hash")
            result[key] = decode(pair[1], depth + 1)
        return result
    if tag == "other" and isinstance(tree["type"], str) and isinstance(tree["repr"], str):
        # Capped here too: the sender may be a learner writing its own trees.
        return Opaque(tree["type"][:TYPE_NAME_CAP], tree["repr"][:REPR_CAP])
    raise CodecError(f"unknown tag {tag!r} or a value of the wrong JSON type")

