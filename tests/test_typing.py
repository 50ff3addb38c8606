"""The package is typed: the example of use runs, passes ``mypy --strict``, and
the ``.pyi`` stubs of the compiled modules match them (``stubtest``).

Both checks look at the ``wts`` this process imported: an installed wheel
(found by mypy through its ``py.typed``) or a source tree on ``PYTHONPATH``
(handed to mypy as ``MYPYPATH``). They are skipped when mypy is not installed.
"""

from __future__ import annotations

import importlib.machinery
import pathlib
import re
import shutil
import subprocess
import sysconfig

import pytest

import wts
from tests.support.processes import TESTS, run_python

EXAMPLE = TESTS / "support" / "typed_example.py"
PACKAGE = pathlib.Path(wts.__file__).resolve().parent


def _extension_modules() -> list[str]:
    """Every compiled module of the package, as built for this interpreter, by its
    path under the package: "engine/_core"."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    names = set()
    for path in PACKAGE.rglob("*"):
        suffix = next((s for s in suffixes if path.name.endswith(s)), None)
        if suffix is not None:  # the longest: "_core.cpython-311-x86_64-linux-gnu.so"
            name = str(path.relative_to(PACKAGE))[: -len(suffix)]
            # The core's CPU builds (setup.py) are wts.engine._core itself,
            # loaded under that name: _core.pyi is their stub.
            names.add(re.sub(r"^engine/_core_(x86_64_v\d|aarch64_neon)$", "engine/_core", name))
    return sorted(names)


EXTENSIONS = _extension_modules()
# Names Cython adds to every compiled module; no stub describes them.
STUBTEST_ALLOWLIST = """\
wts\\.[_a-z.]+\\.__test__
wts\\.[_a-z.]+\\.__pyx_capi__
wts\\.[_a-z.]+\\.__reduce_cython__
wts\\.[_a-z.]+\\.__setstate_cython__
"""


def test_typed_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support import typed_example

    typed_example.main()
    assert f"wts {wts.__version__}:" in capsys.readouterr().out


def _package_parent() -> pathlib.Path:
    return PACKAGE.parent


def _is_site_packages(path: pathlib.Path) -> bool:
    paths = sysconfig.get_paths()
    return any(path == pathlib.Path(paths[key]).resolve() for key in ("purelib", "platlib"))


def _mypy(
    args: list[str], cwd: pathlib.Path, module: str = "mypy"
) -> subprocess.CompletedProcess[str]:
    # mypy does not read PYTHONPATH, and refuses site-packages in MYPYPATH,
    # so only a source tree goes there.
    parent = _package_parent()
    mypy_path = None if _is_site_packages(parent) else str(parent)
    return run_python("-m", module, *args, cwd=cwd, env={"MYPYPATH": mypy_path}, timeout=300)


def test_typed_example_passes_mypy_strict(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("mypy")
    # A copy outside the source tree, with no config file beside it: the
    # flags below are the whole configuration.
    shutil.copy(EXAMPLE, tmp_path / "typed_example.py")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    done = _mypy(
        ["--strict", "--python-version", "3.10", "--cache-dir", str(tmp_path / "cache"),
         "--config-file", str(config), "typed_example.py"],
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_compiled_module_has_a_stub() -> None:
    assert {"engine/_core", "engine/_game", "engine/_perft", "engine/_simulate",
            "engine/_batch", "players/_search", "players/_greedy"} <= set(EXTENSIONS)
    missing = [name for name in EXTENSIONS if not (PACKAGE / f"{name}.pyi").is_file()]
    assert not missing, f"compiled modules without a .pyi stub: {missing}"
    assert (PACKAGE / "py.typed").is_file()


def test_stubs_match_the_compiled_modules(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("mypy")
    stubbed = [f"wts.{name.replace('/', '.')}" for name in EXTENSIONS
               if (PACKAGE / f"{name}.pyi").is_file()]
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text(STUBTEST_ALLOWLIST)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\ncache_dir = {tmp_path / 'cache'}\n")
    done = _mypy(
        ["--allowlist", str(allowlist), "--mypy-config-file", str(config), *stubbed],
        cwd=tmp_path, module="mypy.stubtest",
    )
    assert done.returncode == 0, done.stdout + done.stderr
