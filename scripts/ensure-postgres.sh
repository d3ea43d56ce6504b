#!/usr/bin/env bash
# PostgreSQL tests start a throw-away cluster from Debian's binaries (scripts/pg-cluster.mjs).
# Installs the postgresql package when no initdb is found; needs root (as on the project's machines) or sudo.
# The package may start its own system cluster: harmless, the tests never use it.
set -euo pipefail
found() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
if found; then exit 0; fi
echo "PostgreSQL not found under /usr/lib/postgresql: installing Debian's postgresql package…"
run() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
found || { echo "postgresql did not install an initdb under /usr/lib/postgresql/*/bin" >&2; exit 1; }
