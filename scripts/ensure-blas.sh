#!/usr/bin/env bash
# Installs what Segue needs from Debian when it is missing: the CBLAS headers and library
# (libblas-dev) and pkg-config. Works as root or through sudo; does nothing when both are present.
set -euo pipefail
if pkg-config --exists blas 2>/dev/null && [ -e /usr/include/x86_64-linux-gnu/cblas.h -o -e /usr/include/cblas.h ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "segue: installing libblas-dev and pkg-config" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libblas-dev pkg-config >/dev/null
