#!/usr/bin/env bash
# Installs every Debian package stasis needs to build, test and benchmark.
# Idempotent: packages already present are not reinstalled. Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  coinor-libipopt-dev           # IPOPT 3.11 + MUMPS
  libeigen3-dev
  libyaml-cpp-dev
  nlohmann-json3-dev
  libfmt-dev
  libcli11-dev
  libgtest-dev libgmock-dev
  libbenchmark-dev
  chromium fonts-dejavu-core    # headless browser test of report.html (ctest browser.report), make docs
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
