"""The parameter checks every entry point shares (wts.params): each value is
taken as a plain Python value, or refused with the right error."""

from __future__ import annotations

import numpy as np
import pytest

import wts
from wts.params import check_choice, check_float, check_int
from wts.players.search_options import SearchOptions


def test_a_numpy_bool_is_no_number() -> None:
    for flag in (True, np.True_):
        with pytest.raises(wts.ParameterTypeError):
            check_float(flag, "exploration", 0.0, 1.0)
        with pytest.raises(wts.ParameterTypeError):
            check_int(flag, "threads", 1, 2)
    with pytest.raises(wts.ParameterTypeError):
        SearchOptions(exploration=np.True_)


def test_an_int_past_the_floats_is_out_of_range_not_of_the_wrong_type() -> None:
    with pytest.raises(wts.ParameterError, match="finite number") as info:
        check_float(10**400, "time_limit", 0.0, 100.0)
    assert not isinstance(info.value, TypeError) and "bits" in str(info.value)


def test_a_choice_is_a_plain_str_and_a_non_str_is_of_the_wrong_type() -> None:
    chosen = check_choice(np.str_("rm"), "policy", ("ucb", "rm"))
    assert type(chosen) is str and chosen == "rm"
    assert type(SearchOptions(policy=np.str_("rm")).policy) is str
    for bad in (b"ucb", None, 3):
        with pytest.raises(wts.ParameterTypeError, match="policy must be a str"):
            check_choice(bad, "policy", ("ucb", "rm"))
    with pytest.raises(wts.ParameterError, match="not 'xx"):
        check_choice("x" * 10_000, "policy", ("ucb", "rm"))
