"""Sphinx configuration of the wts documentation: ``bash tools/docs.sh`` builds
it (warnings are errors) and runs every page's ``>>>`` examples as doctests."""

from __future__ import annotations

import doctest
import importlib.util

from docutils import nodes
from sphinx.application import Sphinx

import wts

project = "wts"
author = "The wts authors"
copyright = "The wts authors"
version = release = wts.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}  # autosummary writes .rst
exclude_patterns = ["_build"]
# Anchors for the headings down to ###, so pages link to a section as
# `speed.md#cpu-kernels`, on GitHub and here alike.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "furo"
html_title = f"wts {release}"

# The API reference: one page a public module, from the docstrings.
autosummary_generate = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# wts.Game inherits most of its API from the engines' shared base class: show
# inherited members, but not those of the builtins, the standard library or
# the frameworks the adapters subclass (documented by their projects).
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "inherited-members": ",".join([
        "object", "tuple", "str", "int", "float", "dict", "Enum", "IntEnum",
        "BaseException", "Exception", "ValueError", "TypeError", "IndexError", "RuntimeError",
        "OSError", "KeyboardInterrupt", "ParallelEnv", "VectorEnv",
    ]),
}
# The adapters import their optional dependencies at import time; without
# them installed the reference is still built, from mock modules.
autodoc_mock_imports = [module for module in ("pettingzoo", "gymnasium", "pyspiel", "open_spiel",
                                              "pyarrow", "ray")
                        if importlib.util.find_spec(module) is None]

# The pages' examples run as doctests with the flags tests/test_readme.py
# uses. Only the pages' own examples: the docstrings' are run by the tests of
# their modules, in the module's namespace (see _mark_page_sessions).
doctest_default_flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
doctest_test_doctest_blocks = ""


def _mark_page_sessions(app: Sphinx, doctree: nodes.document) -> None:
    """Make every ```python block of a Markdown page that is a ``>>>``
    session a doctest for ``-b doctest`` (one shared namespace a page, in
    order, as tests/test_readme.py runs them), highlighted as a session."""
    if not str(app.env.doc2path(app.env.docname)).endswith(".md"):
        return
    for block in doctree.findall(nodes.literal_block):
        if block.get("language") == "python" and block.astext().lstrip().startswith(">>>"):
            block["language"] = "pycon"
            block["testnodetype"] = "doctest"
            block["groups"] = ["default"]


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("doctree-read", _mark_page_sessions)
    return {"parallel_read_safe": True}
