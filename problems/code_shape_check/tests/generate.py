"""Rebuild tests/hidden.json for code_shape_check.

Run from anywhere: python problems/code_shape_check/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import copy
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 20261030


def f(body, params="x", name="f", prefix=""):
    lines = "".join("    " + line + "\n" for line in body.split("\n"))
    return f"{prefix}def {name}({params}):\n{lines}"


HAND = [
    ("empty_source", ["", "f", 0]),
    ("only_comment", ["# def f(x): return x\n", "f", 1]),
    ("zero_arity", [f("return 1", params=""), "f", 0]),
    ("kw_only_counted", [f("return a", params="a, *, b, c=1"), "f", 3]),
    ("pos_only_counted", [f("return a", params="a, /, b"), "f", 2]),
    ("defaults_counted", [f("return a", params="a=1, b=2"), "f", 2]),
    ("kwargs_only_zero", [f("return kw", params="**kw"), "f", 0]),
    ("star_args_wrong_arity", [f("return args", params="*args"), "f", 1]),
    ("async_def", ["async def fetch(url):\n    return await get(url)\n", "fetch", 1]),
    ("method_counts_self", ["class Parser:\n    def parse(self, text):\n        return text\n", "parse", 2]),
    ("method_without_self_arity", ["class Parser:\n    def parse(self, text):\n        return text\n", "parse", 1]),
    ("nested_target_function", [f("def g(y):\n    return y\nreturn g", params="x", name="outer"), "g", 1]),
    ("lambda_is_not_def", ["f = lambda x: x\n", "f", 1]),
    ("class_named_fn", ["class f:\n    def __init__(self, x):\n        self.x = x\n", "f", 1]),
    ("name_case_sensitive", [f("return x", name="Parse"), "parse", 1]),
    ("name_prefix_only", [f("return x", name="parse_csv_v2"), "parse_csv", 1]),
    ("unicode_name", [f("return x", name="größe"), "größe", 1]),
    ("two_defs_second_right", [f("return 1", params="") + f("return x"), "f", 1]),
    ("two_defs_right_one_no_return", [f("print(x)") + f("return a", params="a, b"), "f", 1]),
    ("return_none_literal", [f("return None"), "f", 1]),
    ("bare_return_only", [f("if x:\n    return\nprint(x)"), "f", 1]),
    ("bare_return_in_loop", [f("for i in x:\n    if i:\n        return\nprint(x)"), "f", 1]),
    ("bare_yield", [f("yield"), "f", 1]),
    ("yield_value", [f("for i in x:\n    yield i"), "f", 1]),
    ("yield_from", [f("yield from x"), "f", 1]),
    ("yield_in_lambda_not_counted", [f("g = lambda: (yield)\nprint(g)"), "f", 1]),
    ("return_in_nested_class", [f("class C:\n    def m(self):\n        return 1\nprint(C)"), "f", 1]),
    ("return_in_nested_async", [f("async def g():\n    return 1\nprint(g)"), "f", 1]),
    ("return_deep_in_blocks", [f("try:\n    for i in x:\n        with open(i) as h:\n            if h:\n                return h.read()\nexcept OSError:\n    pass"), "f", 1]),
    ("return_in_match_case", [f("match x:\n    case 1:\n        return 'one'\n    case _:\n        pass"), "f", 1]),
    ("await_not_return", ["async def f(x):\n    await x\n", "f", 1]),
    ("crlf_line_endings", ["def f(x):\r\n    return x\r\n", "f", 1]),
    ("tab_indentation", ["def f(x):\n\treturn x\n", "f", 1]),
    ("indentation_error", ["def f(x):\nreturn x\n", "f", 1, ["return"], ["x"]]),
    ("syntax_error_with_sdk_text", ["import openai\ndef f(x) return x\n", "f", 1, [], ["openai"]]),
    ("unclosed_bracket", ["def f(x):\n    return [x\n", "f", 1]),
    ("require_case_sensitive", [f("return x.upper()"), "f", 1, ["UPPER", "upper"]]),
    ("require_in_comment_counts", ["# GROUP BY\n" + f("return x"), "f", 1, ["GROUP BY"]]),
    ("require_duplicates_once", [f("return x"), "f", 1, ["zip(", "zip(", "map("]]),
    ("require_empty_string_ignored", [f("return x"), "f", 1, [""]]),
    ("forbid_empty_string_ignored", [f("return x"), "f", 1, [], [""]]),
    ("forbid_in_string_literal", [f("return 'never call eval('"), "f", 1, [], ["eval("]]),
    ("forbid_with_space_slips", [f("return sorted (x)"), "f", 1, [], ["sorted("]]),
    ("forbid_order_kept", [f("return sorted(list(x))"), "f", 1, [], ["list(", "sorted(", "list("]]),
    ("forbid_unicode", [f("return 'größe'"), "f", 1, [], ["ö", "ß"]]),
    ("sdk_import_as", ["import openai.types as t\n" + f("return t"), "f", 1]),
    ("sdk_from_submodule", ["from google.generativeai import types\n" + f("return types"), "f", 1]),
    ("sdk_from_openai_class", ["from openai import OpenAI\n" + f("return OpenAI"), "f", 1]),
    ("sdk_star_import", ["from anthropic import *\n" + f("return x"), "f", 1]),
    ("sdk_two_in_one", ["import anthropic, groq\n" + f("return x"), "f", 1]),
    ("sdk_duplicate_once", ["import openai\nimport openai\nfrom openai import OpenAI\n" + f("return x"), "f", 1]),
    ("sdk_source_order", ["import groq\n" + f("import anthropic\nreturn x") + "import openai\n", "f", 1]),
    ("sdk_nested_before_top_level", [f("import openai\nreturn x") + "import groq\n", "f", 1]),
    ("sdk_same_line_order", ["import os; import groq; import openai\n" + f("return x"), "f", 1]),
    ("sdk_inside_function", [f("import anthropic\nreturn anthropic.Client()"), "f", 1]),
    ("sdk_inside_try", ["try:\n    import groq\nexcept ImportError:\n    groq = None\n" + f("return x"), "f", 1]),
    ("sdk_google_module_alone_ok", ["import google\n" + f("return google"), "f", 1]),
    ("sdk_google_other_ok", ["from google import genai, protobuf\n" + f("return x"), "f", 1]),
    ("sdk_google_mixed_names", ["from google import protobuf, generativeai\n" + f("return x"), "f", 1]),
    ("sdk_lookalike_names_ok", ["import openai_helper\nimport googleapiclient\nimport groqlib\n" + f("return x"), "f", 1]),
    ("sdk_relative_import_ok", ["from . import openai\nfrom .anthropic import client\n" + f("return x"), "f", 1]),
    ("sdk_in_string_ok", [f("return 'import openai'"), "f", 1]),
    ("sdk_in_comment_ok", ["# import openai\n" + f("return x"), "f", 1]),
    ("sdk_dunder_import_not_seen", [f("return __import__('openai')"), "f", 1]),
    ("sdk_generativeai_submodule", ["import google.generativeai.types as gt\n" + f("return gt"), "f", 1]),
    ("sdk_prefix_not_module", ["import google.generativeai_extra\n" + f("return x"), "f", 1]),
    ("everything_fails", ["import openai\n" + f("print(x)", params="x, y"), "f", 1, ["csv"], ["print("]]),
]

IMPORTS = ["import os\n", "import csv\n", "import openai\n", "from groq import Groq\n",
           "from google import generativeai\n", "import openai_tools\n", "import re, anthropic\n",
           "from . import openai\n", "from collections import Counter\n"]
BODIES = ["return x", "return", "yield x", "print(x)", "return sorted(x)", "x.sort()\nreturn x",
          "def inner():\n    return x\ninner()", "total = 0\nfor v in x:\n    total += v\nreturn total",
          "return eval(x)", "pass", "return None", "yield from x"]
PARAMS = ["x", "x, y", "x, *rest", "x, y=1", "x, *, key=None", "self, x", "x, **kw"]
NEEDLES = ["sorted(", "eval(", "return", "for ", "import", "csv", "total", ".sort(", "yield"]


def random_source(rng):
    source = "".join(rng.choice(IMPORTS) for _ in range(rng.randrange(0, 3)))
    if rng.random() < 0.3:
        source += "# helper: " + rng.choice(NEEDLES) + "\n"
    name = rng.choice(["solve", "solve", "helper"])
    source += f(rng.choice(BODIES), params=rng.choice(PARAMS), name=name,
                prefix=rng.choice(["", "", "async "]))
    if rng.random() < 0.1:
        source = source.replace(":\n", "\n", 1)  # a syntax error
    return source


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        if rng.random() < 0.3:
            args = copy.deepcopy(rng.choice(HAND)[1])
            args[2] = rng.choice([args[2], args[2], 0, 1, 2, 3])
        else:
            args = [random_source(rng), rng.choice(["solve", "solve", "helper", "f"]), rng.choice([0, 1, 1, 2, 3])]
        if len(args) == 3 and rng.random() < 0.6:
            args.append(rng.sample(NEEDLES, rng.randrange(0, 3)) + rng.choice([[], [], [""]]))
            if rng.random() < 0.7:
                args.append(rng.sample(NEEDLES, rng.randrange(0, 3)) + rng.choice([[], [], [""]]))
        inputs.append((args, {}))
    return inputs


def main():
    reference = load_reference(FOLDER).code_shape_check
    rng = random.Random(SEED)
    cases = list(HAND)
    for i in range(24):
        args = [random_source(rng), "solve", rng.choice([1, 1, 2])]
        if rng.random() < 0.6:
            args.append(rng.sample(NEEDLES, rng.randrange(0, 3)))
            if rng.random() < 0.7:
                args.append(rng.sample(NEEDLES, rng.randrange(0, 3)))
        cases.append((f"random_{i:02d}", args))

    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
