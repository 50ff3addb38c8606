#!/usr/bin/env bash
# Build the documentation site (docs/, Sphinx with MyST and furo) into
# docs/_build/html, warnings as errors, then run every page's ">>>" examples
# as doctests (docs/conf.py marks them; Sphinx's doctest builder runs a page's
# examples in order, in one namespace, on the doctrees the HTML build parsed).
# Exits non-zero on any warning or failed example. Needs wts installed (the
# API reference imports it) and the docs extra, which it installs if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python}
if ! "$python" -c "import wts" 2>/dev/null; then
    echo "tools/docs.sh: wts is not importable; install it first: $python -m pip install -e ." >&2
    exit 2
fi
tools_present() { "$python" -c "import sphinx, myst_parser, furo" 2>/dev/null; }
if ! tools_present; then
    # Naming the installed package adds the extra's dependencies alone: no rebuild.
    "$python" -m pip install --quiet "wts[docs]"
    if ! tools_present; then
        echo "tools/docs.sh: the installed wts has no docs extra (installed before it existed);" \
             "reinstall: $python -m pip install -e \".[docs]\"" >&2
        exit 2
    fi
fi

out=docs/_build
rm -rf "$out" docs/generated
# -E: read every page afresh, so each warning is seen (an incremental build
# would not repeat the warnings of pages it did not read again).
"$python" -m sphinx -E -W --keep-going -q -j auto -d "$out/doctrees" -b html docs "$out/html"
"$python" -m sphinx -W --keep-going -q -d "$out/doctrees" -b doctest docs "$out/doctest"
tail -n 6 "$out/doctest/output.txt"
echo "tools/docs.sh: site in $out/html/index.html"
