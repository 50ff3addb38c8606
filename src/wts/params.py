"""Checks of the plain parameters public calls take: counts, seeds, sizes, rates.

The bounds themselves are in :mod:`wts.limits`.

Every check takes the value and the parameter's name, and returns the value
in its plain Python form or raises :class:`wts.ParameterError` (out of range,
not finite) or :class:`wts.ParameterTypeError` (wrong type) naming both. Any
integer type is an int here (``numpy.int64`` too), but ``bool`` is not.
"""

from __future__ import annotations

import math
import operator
import os

import numpy as np

from wts.errors import ParameterError, ParameterTypeError
from wts.limits import SEED_MAX

__all__ = ["check_int", "check_float", "check_seed", "check_choice",
           "check_bool", "describe_int", "is_masked_array", "masked_array_refused",
           "usable_cores"]


def usable_cores() -> int:
    """The cores this process may run on: more threads than that, each
    computing without the GIL, only queue for them."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _bounds(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"from {minimum} to {maximum}"
    if minimum is not None:
        return f"at least {minimum}"
    return f"at most {maximum}"


def is_masked_array(value: object) -> bool:
    """Whether ``value`` is a numpy masked array. numpy's plain reads of one
    (``np.asarray``, the buffer protocol, ``int()``) drop the mask and use the
    masked entries as if they were valid, so every entry point refuses them."""
    return (isinstance(value, np.ndarray) and type(value) is not np.ndarray
            and isinstance(value, np.ma.MaskedArray))


def masked_array_refused(name: str) -> str:
    """The message for a masked array given as ``name``."""
    return (f"{name} must not be a numpy masked array (its mask would be ignored): "
            "pass a plain array, such as masked.filled(value)")


def check_int(value: object, name: str, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an int within ``[minimum, maximum]`` (None: unbounded)."""
    if is_masked_array(value):
        raise ParameterTypeError(masked_array_refused(name))
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ParameterTypeError(f"{name} must be an int, not {type(value).__name__}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # a numpy array of size one defines __index__ and refuses
        raise ParameterTypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ParameterError(
            f"{name} must be {_bounds(minimum, maximum)}, not {describe_int(number)}")
    return number


def check_float(value: object, name: str, minimum: float, maximum: float, *,
                exclude_minimum: bool = False) -> float:
    """``value`` as a finite float within ``[minimum, maximum]`` (or
    ``(minimum, maximum]`` with ``exclude_minimum``); NaN and infinities are refused."""
    if is_masked_array(value):
        raise ParameterTypeError(masked_array_refused(name))
    if isinstance(value, (bool, np.bool_)) or (not isinstance(value, (int, float)) and not hasattr(
            type(value), "__float__")):
        raise ParameterTypeError(f"{name} must be a number, not {type(value).__name__}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int past the floats: a number, out of range
        number = math.inf
    except (TypeError, ValueError):
        raise ParameterTypeError(f"{name} must be a number, not {type(value).__name__}") from None
    low_ok = number > minimum if exclude_minimum else number >= minimum
    if not (math.isfinite(number) and low_ok and number <= maximum):
        low = "(" if exclude_minimum else "["
        shown = describe_int(value) if isinstance(value, int) else repr(value)
        raise ParameterError(f"{name} must be a finite number in {low}{minimum}, {maximum}], "
                             f"not {shown}")
    return number


def check_seed(value: object, name: str = "seed") -> int:
    """A 64-bit seed: an int from 0 to 2**64 - 1."""
    return check_int(value, name, 0, SEED_MAX)


def check_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """One of the strings ``choices``, as a plain str (``numpy.str_`` too)."""
    if not isinstance(value, str):
        raise ParameterTypeError(f"{name} must be a str, one of "
                                 f"{', '.join(map(repr, choices))}, not {type(value).__name__}")
    if value not in choices:
        raise ParameterError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                             f"not {value[:60]!r}")
    return str(value)


def check_bool(value: object, name: str) -> bool:
    """A flag: ``True`` or ``False`` (``numpy.bool_`` too), not an int or a string."""
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterTypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def describe_int(number: int) -> str:
    """An int for a message: huge ones by their size, not their 5,000 digits."""
    if abs(number) < 10**30:
        return str(number)
    return f"an int of {number.bit_length()} bits"
