"""The choice of the core's build (the "CPU kernel") once, at import.

setup.py builds ``wts.engine._core`` for the target's baseline and the same C
again for each higher level: on x86-64 each microarchitecture level the
compiler can target (``_core_x86_64_v2`` ...), on AArch64 the games in NEON
lanes (``_core_aarch64_neon``). :func:`load_core` runs before anything
imports the core: it loads the best build this CPU supports under the name
``wts.engine._core``, so every module that cimports the core (``_game``,
``_simulate``, ``_batch``, the search, other projects) binds to it.

``WTS_CPU_KERNEL`` names a build to use instead (``x86-64``, ``x86-64-v2``,
``x86-64-v3``, ``x86-64-v4`` on x86-64; ``aarch64``, ``aarch64-neon`` on
AArch64; ``baseline`` on any machine). A build this CPU lacks, one not
built, or another architecture's gives a :class:`RuntimeWarning` and the
best one there is; any other name is a :class:`wts.ParameterError`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import platform
import sys
import warnings

from wts.engine._cpu import cpu_level
from wts.errors import ParameterError

__all__ = ["ENVIRONMENT_VARIABLE", "cpu_kernel", "cpu_kernels", "load_core"]

#: Names the build to use in place of the best one.
ENVIRONMENT_VARIABLE = "WTS_CPU_KERNEL"

_CORE = "wts.engine._core"
# Each architecture's builds: (name, level wts_cpu_level() reports, module
# file's name), the baseline first.
_ARCHITECTURES: dict[str, tuple[tuple[str, int, str], ...]] = {
    "x86-64": (("x86-64", 1, "_core"), ("x86-64-v2", 2, "_core_x86_64_v2"),
               ("x86-64-v3", 3, "_core_x86_64_v3"), ("x86-64-v4", 4, "_core_x86_64_v4")),
    "64-bit ARM": (("aarch64", 1, "_core"), ("aarch64-neon", 2, "_core_aarch64_neon")),
}
# A 32-bit Python on a 64-bit machine reports its machine too: it has the baseline only.
_MACHINE = platform.machine().lower() if sys.maxsize > 2**32 else ""
_ARCHITECTURE = ("x86-64" if _MACHINE in ("x86_64", "amd64")
                 else "64-bit ARM" if _MACHINE in ("aarch64", "arm64") else None)
_BUILDS = (_ARCHITECTURES[_ARCHITECTURE] if _ARCHITECTURE is not None
           else (("baseline", 1, "_core"),))
_HERE = [os.path.dirname(os.path.abspath(__file__))]  # where the builds are
_chosen: str | None = None


def _origin(module: str) -> str | None:
    """The file of a build in this package, or None if it was not built."""
    found = importlib.machinery.PathFinder.find_spec(module, _HERE)
    return found.origin if found is not None and found.origin else None


def cpu_kernels() -> tuple[str, ...]:
    """The builds of the core this machine can run, lowest level first: each
    is a name ``WTS_CPU_KERNEL`` accepts, the last the one chosen by default."""
    level = cpu_level()
    return tuple(name for name, needs, module in _BUILDS
                 if needs <= level and (needs == 1 or _origin(module) is not None))


def cpu_kernel() -> str:
    """The name of the core's build in use, as ``"x86-64-v3"``."""
    load_core()
    assert _chosen is not None
    return _chosen


def _choose() -> str:
    usable = cpu_kernels()
    asked = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if not asked:
        return usable[-1]
    if asked == "baseline":
        return usable[0]
    if asked in usable:
        return asked
    level = next((needs for name, needs, _ in _BUILDS if name == asked), None)
    if level is not None:
        why = ("this CPU cannot run that build" if level > cpu_level()
               else "that build is not in this install")
    else:
        # Another architecture's name is not an error: one environment may
        # serve machines of both (a cluster's workers, say).
        other = next((architecture for architecture, builds in _ARCHITECTURES.items()
                      if any(name == asked for name, _, _ in builds)), None)
        if other is None:
            every = [name for builds in _ARCHITECTURES.values() for name, _, _ in builds]
            raise ParameterError(f"{ENVIRONMENT_VARIABLE} must be one of "
                                 f"{', '.join([*every, 'baseline'])}, not {asked!r}")
        why = f"that build is for {other}, and this machine is {_ARCHITECTURE or _MACHINE}"
    warnings.warn(f"{ENVIRONMENT_VARIABLE}={asked}: {why} (it can run "
                  f"{', '.join(usable)}); using {usable[-1]}", RuntimeWarning, stacklevel=3)
    return usable[-1]


def load_core() -> None:
    """Choose the build and load it as ``wts.engine._core``; once per process."""
    global _chosen
    if _chosen is not None:
        return
    if _CORE in sys.modules:  # loaded before the choice could be made: say which it is
        loaded = os.path.basename(sys.modules[_CORE].__file__ or "")
        _chosen = next(name for name, _, module in reversed(_BUILDS)
                       if loaded.startswith(module + "."))
        return
    name = _choose()
    module = next(module for build, _, module in _BUILDS if build == name)
    if module != "_core":
        origin = _origin(module)
        assert origin is not None  # cpu_kernels() lists only builds that are there
        # The file defines PyInit__core: it loads only under the core's own name.
        spec = importlib.util.spec_from_file_location(_CORE, origin)
        assert spec is not None and spec.loader is not None
        core = importlib.util.module_from_spec(spec)
        sys.modules[_CORE] = core
        try:
            spec.loader.exec_module(core)
        except BaseException:
            del sys.modules[_CORE]
            raise
        # What the import system does for a submodule it loads itself.
        setattr(sys.modules["wts.engine"], "_core", core)  # noqa: B010
    _chosen = name
