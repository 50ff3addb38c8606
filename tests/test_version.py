"""One version: ``src/wts/_version.py``, read by pyproject.toml, seen as
``wts.__version__``, as the installed distribution's metadata and as the
changelog's latest release."""

from __future__ import annotations

import ast
import json
import pathlib
import re
from importlib import metadata
from urllib.parse import unquote, urlparse

import pytest

import wts
from tests.support.processes import ROOT
from wts import _version

CHANGELOG = ROOT / "CHANGELOG.md"
# "## [0.2.0] - 2026-12-06": a release, as Keep a Changelog heads it.
RELEASE = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\d{4}-\d{2}-\d{2})$", re.M)


def _release_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def test_the_version_is_a_public_pep_440_version() -> None:
    # Public part only: N(.N)*, optional pre/post/dev release.
    assert re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", wts.__version__)


def test_the_version_module_holds_the_version_as_a_literal() -> None:
    """setuptools reads ``attr = "wts._version.__version__"`` without importing
    the package: the module must assign it a plain string, the one imported."""
    tree = ast.parse(pathlib.Path(_version.__file__).read_text(encoding="utf-8"))
    assigned = [node.value.value for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)]
    assert assigned == [wts.__version__]


def test_pyproject_takes_the_version_from_the_version_module() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.is_file():
        pytest.skip("no pyproject.toml beside the tests")
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    assert "version" in config["project"]["dynamic"] and "version" not in config["project"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "wts._version.__version__"}


def test_the_changelog_s_latest_release_is_this_version() -> None:
    """Changes since then are listed under "Unreleased" until a release
    names them, and the releases go newest first."""
    if not CHANGELOG.is_file():
        pytest.skip("no CHANGELOG.md beside the tests")
    text = CHANGELOG.read_text(encoding="utf-8")
    releases = [match["version"] for match in RELEASE.finditer(text)]
    assert releases, "the changelog names no release"
    assert releases[0] == wts.__version__
    keys = [_release_key(version) for version in releases]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys), releases
    unreleased = text.find("## [Unreleased]")
    assert unreleased < 0 or unreleased < text.find(f"## [{releases[0]}]")


def _distribution_of_imported_wts() -> metadata.Distribution | None:
    """The installed distribution that provides the ``wts`` imported here, if any:
    a wheel install (its RECORD lists our __init__.py) or an editable install of
    the source tree we import from."""
    try:
        dist = metadata.distribution("wts")
    except metadata.PackageNotFoundError:
        return None
    here = pathlib.Path(wts.__file__).resolve()
    for file in dist.files or ():
        if pathlib.Path(str(dist.locate_file(file))).resolve() == here:
            return dist
    direct = dist.read_text("direct_url.json")
    if direct:
        info = json.loads(direct)
        if info.get("dir_info", {}).get("editable"):
            root = pathlib.Path(unquote(urlparse(info["url"]).path)).resolve()
            if here.is_relative_to(root):
                return dist
    return None


def test_installed_metadata_version_is_wts_version() -> None:
    dist = _distribution_of_imported_wts()
    if dist is None:
        pytest.skip("the wts imported here is not an installed distribution (a bare source tree)")
    assert dist.version == wts.__version__
    assert dist.metadata["Name"] == "wts"
