"""One version: ``src/wts/_version.py``, read by pyproject.toml, seen as
``wts.__version__`` and as the installed distribution's metadata."""

from __future__ import annotations

import json
import pathlib
import re
from importlib import metadata
from urllib.parse import unquote, urlparse

import pytest

import wts
from wts import _version


def test_version_lives_in_version_module() -> None:
    assert wts.__version__ == _version.__version__
    # PEP 440, public part only: N(.N)*, optional pre/post/dev release.
    assert re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", wts.__version__)


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
