"""The unit layer's walk of the OpenAPI document (tests/unit/service/test_input_bounds.py) on PostgreSQL:
its INTEGER ids end at 2**31 - 1 where SQLite's go on to 2**63 - 1, and an id past them was a 503
here while SQLite took it; and PostgreSQL refuses a NUL in text, which SQLite stores."""

from __future__ import annotations

from tests.unit.service.test_input_bounds import (
    test_an_assignment_time_whose_utc_form_overflows_names_its_field,
    test_every_integer_and_time_out_of_range_is_a_422_naming_the_field,
    test_no_float_parameter_is_a_5xx,
    test_no_text_holding_a_nul_is_a_5xx,
)

__all__ = [
    "test_an_assignment_time_whose_utc_form_overflows_names_its_field",
    "test_every_integer_and_time_out_of_range_is_a_422_naming_the_field",
    "test_no_float_parameter_is_a_5xx",
    "test_no_text_holding_a_nul_is_a_5xx",
]
