#!/usr/bin/env bash
# Installs the Debian bookworm packages sparts builds with, and with everything
# the tests use (scripts/test.sh); with --server, only what building and
# running the server need (scripts/start.sh). Idempotent: quiet and quick when
# everything is already there. Runs apt-get as root, or through sudo.
set -euo pipefail
server_only=false
[ "${1:-}" = "--server" ] && server_only=true

# What the build needs: the Dockerfile's build stage installs exactly these
# (tests/tools/deploy_files_test.cpp checks that the two lists agree).
packages=(
  g++ cmake ninja-build pkg-config
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlitecpp-dev doctest-dev
  libcli11-dev libssl-dev libjemalloc-dev libpq-dev libjwt-dev
)
# What only the tests need: the JSON Schema validator the protocol tests use, clang
# and libFuzzer for the fuzz targets (scripts/fuzz.sh), PostgreSQL and HAProxy (the
# storage tests and the cluster tests start their own), websockets and pytest (the
# Python client library's tests, clients/python), and
# Debian's Chromium that the web client's browser tests drive (playwright-core
# speaks to it directly: no chromium-driver), dpkg-shlibdeps (dpkg-dev) for
# the Debian package's dependencies (tests/package/), and nginx, which the
# web client's sub-path test runs with deploy/nginx's file.
test_packages=(
  python3-jsonschema
  clang-15 libfuzzer-15-dev
  postgresql-15 haproxy
  python3-websockets python3-pytest python3-yaml
  chromium
  dpkg-dev nginx
)
# Node.js and npm for the web client's tests (web/): Debian's, unless a node and an
# npm are already installed (NodeSource's nodejs package has its own npm, which
# Debian's npm package would conflict with).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  test_packages+=(nodejs npm)
fi
$server_only || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    as_root=(sudo)
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # The tests start PostgreSQL clusters of their own: Debian's package is told not to create (and
  # start, as a service on port 5432) a "main" cluster of its own on this machine.
  if [[ " ${missing[*]} " == *" postgresql-15 "* ]] && [ ! -e /etc/postgresql-common/createcluster.d/sparts.conf ]; then
    "${as_root[@]}" mkdir -p /etc/postgresql-common/createcluster.d
    echo "create_main_cluster = false" | "${as_root[@]}" tee /etc/postgresql-common/createcluster.d/sparts.conf >/dev/null
  fi
  "${as_root[@]}" apt-get update -qq
  # --force-unsafe-io: dpkg unpacks without an fsync per file (a third less time
  # for Boost's thousands of headers and Chromium); a crash mid-install would
  # need the install run again, nothing worse.
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-unsafe-io \
    "${missing[@]}" >/dev/null
fi

# The web client's test tools (playwright-core, typescript) and the protocol
# documents' (@redocly/cli, @asyncapi/parser), exactly as web/package-lock.json
# pins them; again only when the lock file changed. SCARF_ANALYTICS: one of
# @redocly/cli's packages reports installs home otherwise.
web="$(dirname "$0")/../web"
if $server_only; then exit 0; fi
if [ ! -f "$web/node_modules/.package-lock.json" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
  echo "install-deps: npm ci in web/"
  (cd "$web" && SCARF_ANALYTICS=false npm ci --no-audit --no-fund --loglevel=error)
fi
