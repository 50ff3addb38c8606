"""Build the Cython extensions; all metadata lives in pyproject.toml."""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

extra_compile_args = []
if sys.platform == "win32":
    extra_compile_args += ["/O2"]
else:
    extra_compile_args += ["-O3"]
extra_compile_args += os.environ.get("WTS_EXTRA_CFLAGS", "").split()
extra_link_args = os.environ.get("WTS_EXTRA_LDFLAGS", "").split()


def extension(name: str) -> Extension:
    """``name`` is the module's dotted path under wts, as "engine._core"."""
    return Extension(
        f"wts.{name}",
        [f"src/wts/{name.replace('.', '/')}.pyx"],
        include_dirs=["src/wts/engine"],  # wts_bits.h
        extra_compile_args=extra_compile_args,
        extra_link_args=extra_link_args,
    )


setup(
    ext_modules=cythonize(
        [extension(name) for name in ("engine._core", "engine._history", "engine._game",
                                      "engine._perft", "engine._simulate", "engine._batch",
                                      "players._search", "players._greedy")],
        # Safe without the GIL by design: every shared object holds its own lock
        # (README, "Threads"), so a free-threaded CPython keeps the GIL off.
        compiler_directives={"language_level": "3", "freethreading_compatible": True},
    ),
)
