#!/bin/sh
# Installs what tests/serve/test_serve_browser.py needs: Debian's Chromium (Playwright
# cannot download its own browsers here) and the Python packages of the serve
# tests. Run as root on Debian/Ubuntu, in the environment that runs the tests;
# then run pytest with WTS_REQUIRE_BROWSER=1, so the browser tests fail, not skip,
# when Chromium is missing.
set -eu
if ! command -v chromium >/dev/null 2>&1; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
python -m pip install -q "playwright>=1.40" "starlette>=0.37" "uvicorn>=0.29" \
    "websockets>=12" "pydantic>=2.6" "httpx>=0.27"
chromium --version
