#!/usr/bin/env bash
# Installs what Segue's own builds need from Debian when it is missing: pkg-config, the CBLAS
# headers and library (libblas-dev, for the default `BLAS` trait), zlib (zlib1g-dev, for the
# SegueRender product) and libdeflate (libdeflate-dev, for SegueTesting's snapshot reader). Works
# as root or through sudo; does nothing when all are present.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { pkg-config --exists blas 2>/dev/null \
  && [ -e /usr/include/x86_64-linux-gnu/cblas.h -o -e /usr/include/cblas.h ]; }; then
  missing+=(libblas-dev)
fi
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
pkg-config --exists libdeflate 2>/dev/null || missing+=(libdeflate-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "segue: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
