"""Build the Cython extensions; all metadata lives in pyproject.toml.

The core (``wts.engine._core``) is built once for the baseline of the target
and again from the same generated C for each higher level: on x86-64 each
microarchitecture level the compiler can target (``_core_x86_64_v2`` and so
on), on AArch64 the NEON lanes (``_core_aarch64_neon``). Those files still
define ``PyInit__core``; ``wts.engine.kernels`` loads the best one the CPU
supports under the name ``wts.engine._core``, so every module that cimports
the core binds to it.
"""

import os
import sys
import sysconfig
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

extra_compile_args = []
if sys.platform == "win32":
    extra_compile_args += ["/O2"]
else:
    extra_compile_args += ["-O3"]
extra_compile_args += os.environ.get("WTS_EXTRA_CFLAGS", "").split()
extra_link_args = os.environ.get("WTS_EXTRA_LDFLAGS", "").split()

# Level -> (module suffix, GCC/Clang flags, MSVC flags or None where MSVC has no
# such target, macros), for each target with more than one build of the core.
# wts.engine.kernels names the same levels.
CORE_VARIANTS = {
    "x86_64": {
        2: ("x86_64_v2", ["-march=x86-64-v2"], None, []),
        3: ("x86_64_v3", ["-march=x86-64-v3"], ["/arch:AVX2"], []),
        4: ("x86_64_v4", ["-march=x86-64-v4"], ["/arch:AVX512"], []),
    },
    # NEON is in every AArch64 CPU, so the baseline flags have it: this build
    # differs by playing games in NEON lanes (wts_lanes.h; GCC and Clang only).
    "aarch64": {
        2: ("aarch64_neon", [], None, [("WTS_NEON_LANES", "1")]),
    },
}


HEADERS = ["src/wts/engine/wts_bits.h", "src/wts/engine/wts_cpu.h", "src/wts/engine/wts_lanes.h",
           "src/wts/engine/wts_predicates.h",
           "src/wts/engine/wts_status.h", "src/wts/players/wts_blocks.h"]


def extension(name: str) -> Extension:
    """``name`` is the module's dotted path under wts, as "engine._core"."""
    return Extension(
        f"wts.{name}",
        [f"src/wts/{name.replace('.', '/')}.pyx"],
        include_dirs=["src/wts/engine"],  # wts_bits.h, wts_cpu.h
        depends=HEADERS,  # rebuilt when a header changes, the .c file or not
        extra_compile_args=extra_compile_args,
        extra_link_args=extra_link_args,
    )


def target_architecture() -> str | None:
    """"x86_64" or "aarch64" when the wheel being built is for that one
    architecture (not universal2), else None."""
    platform = sysconfig.get_platform().lower()  # honours a cross build's _PYTHON_HOST_PLATFORM
    archflags = os.environ.get("ARCHFLAGS", "")
    if platform.endswith(("x86_64", "amd64")) and "arm64" not in archflags:
        return "x86_64"
    if platform.endswith(("aarch64", "arm64")) and "x86_64" not in archflags:
        return "aarch64"
    return None


def core_variants(core: Extension) -> list[Extension]:
    """The core's C compiled again for each higher level; flags are added by
    ``BuildExt``, which knows the compiler."""
    variants = []
    for level, (suffix, flags, msvc_flags, macros) in CORE_VARIANTS.get(
            target_architecture(), {}).items():
        variant = Extension(
            f"wts.engine._core_{suffix}",
            list(core.sources),
            include_dirs=list(core.include_dirs),
            depends=list(core.depends),
            define_macros=[("WTS_KERNEL_LEVEL", str(level)), *macros],
            extra_compile_args=list(core.extra_compile_args),
            extra_link_args=list(core.extra_link_args),
        )
        variant.wts_level = level
        variant.wts_flags = (flags, msvc_flags)
        variants.append(variant)
    return variants


class BuildExt(build_ext):
    """Adds each core variant's target flags, and leaves out a variant the
    compiler cannot target (an old GCC without -march=x86-64-v4, say)."""

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        kept = []
        for ext in self.extensions:
            level = getattr(ext, "wts_level", None)
            if level is not None:
                flags = ext.wts_flags[1 if msvc else 0]
                if flags is None or not self._accepts(ext, flags):
                    print(f"setup.py: the compiler cannot target level {level}: "
                          f"{ext.name} is not built")
                    continue
                # Before WTS_EXTRA_CFLAGS, so those still have the last word.
                ext.extra_compile_args = flags + ext.extra_compile_args
                self._own_source(ext)
            kept.append(ext)
        self.extensions = kept
        super().build_extensions()

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:  # one compiler a core unless told (--parallel N)
            self.parallel = os.cpu_count() or 1

    def _own_source(self, ext: Extension) -> None:
        """The variants compile the core's generated C under names of their
        own, so their objects stay apart when extensions build in parallel."""
        core = ext.sources[0]
        folder = os.path.join(self.build_temp, "variants")
        os.makedirs(folder, exist_ok=True)
        source = os.path.join(folder, ext.name.rsplit(".", 1)[1] + ".c")
        text = f'#include "{os.path.basename(core)}"\n'
        try:
            with open(source) as file:
                unchanged = file.read() == text
        except FileNotFoundError:
            unchanged = False
        if not unchanged:  # rewritten only on change, so an up-to-date build is kept
            with open(source, "w") as file:
                file.write(text)
        ext.include_dirs = [os.path.dirname(core), *ext.include_dirs]
        ext.depends = [core, *ext.depends]
        ext.sources = [source]

    def get_export_symbols(self, ext):
        if getattr(ext, "wts_level", None) is not None:
            return ["PyInit__core"]  # the core's own init function, whatever the file's name
        return super().get_export_symbols(ext)

    def _accepts(self, ext: Extension, flags: list[str]) -> bool:
        """Whether the compiler builds the variant's headers with its flags and
        macros: wts_lanes.h refuses NEON lanes where it cannot build them (a
        compiler without NEON, a 32-bit ARM one on an AArch64 machine)."""
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "probe.c")
            with open(source, "w") as file:
                file.write('#include "wts_lanes.h"\nint main(void) { return WTS_LANES_SIMD; }\n')
            try:
                self.compiler.compile([source], output_dir=tmp, macros=ext.define_macros,
                                      include_dirs=ext.include_dirs, extra_postargs=flags)
            except CompileError:
                return False
        return True


modules = cythonize(
    [extension(name) for name in ("engine._core", "engine._cpu", "engine._history",
                                  "engine._game", "engine._perft", "engine._simulate",
                                  "engine._batch", "players._prior", "players._search",
                                  "players._greedy", "players._az")],
    # Every module's directives, here only: a file sets one of its own only
    # where it needs to, with a comment why (docs/architecture.md).
    compiler_directives={
        "language_level": "3",
        # Safe without the GIL by design: every shared object holds its own
        # lock (docs/threads.md), so a free-threaded CPython keeps the GIL off.
        "freethreading_compatible": True,
        # The kernels index C arrays in range by construction and divide only
        # non-negative ints: no Python checks or semantics on that path.
        "boundscheck": False,
        "wraparound": False,
        "initializedcheck": False,
        "cdivision": True,
    },
)
modules += core_variants(next(m for m in modules if m.name == "wts.engine._core"))

setup(ext_modules=modules, cmdclass={"build_ext": BuildExt})
