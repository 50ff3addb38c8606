"""Public classes are shown and pickled under their public path, not their home's.

A user meets ``wts.Game`` and ``wts.reference.Game``, not the modules of the
layers they live in; a pickle names the public path too (the class, and its
method that rebuilds it), so a module can move without leaving an alias behind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["publish"]


def publish(module: str, names: Iterable[str], namespace: Mapping[str, object]) -> None:
    """Give the classes of ``names`` in ``namespace`` whose home is a module of
    wts the public path ``module``. Errors keep theirs: :mod:`wts.errors` is
    the home of every one, and its public path."""
    for name in names:
        value = namespace[name]
        if (isinstance(value, type) and not issubclass(value, BaseException)
                and value.__module__.startswith("wts.")):
            value.__module__ = module
