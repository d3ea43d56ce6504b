#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (Playwright never downloads a browser here).
# Installs it when missing; needs root (as on the project's machines) or sudo.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
echo "Chromium not found at $path: installing Debian's chromium package…"
run() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
run apt-get update -qq
DEBIAN_FRONTEND=noninteractive run apt-get install -y -qq chromium >/dev/null
[ -x "$path" ] || { echo "chromium did not install at $path; set CHROMIUM_PATH to a Chromium binary" >&2; exit 1; }
