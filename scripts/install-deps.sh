#!/usr/bin/env bash
# Installs the Debian bookworm packages sparts builds with. Idempotent: quiet and
# quick when everything is already there. Runs apt-get as root, or through sudo.
set -euo pipefail

# What the build needs: the Dockerfile's build stage installs exactly these
# (tests/tools/deploy_files_test.cpp checks that the two lists agree).
packages=(
  g++ cmake ninja-build pkg-config
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlitecpp-dev doctest-dev
)
# What only the tests need: the JSON Schema validator the protocol tests use.
test_packages=(
  python3-jsonschema
)
packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
