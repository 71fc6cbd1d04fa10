#!/bin/sh
# Test set-up for the report's rendering test: headless Chromium from the distribution's
# packages. Best effort: where it cannot be installed (not root, no apt, no network),
# the test that needs it skips and says why.
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: headless Chromium is not installed (apt-get install -y chromium as root); the report rendering test will skip" >&2
    exit 0
fi
echo "installing headless Chromium for the report rendering test (apt-get install -y chromium)" >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
  || (apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1) \
  || echo "note: could not install chromium; the report rendering test will skip" >&2
exit 0
