#!/usr/bin/env bash
# Installs what Segue's own builds need from Debian when it is missing: pkg-config, the CBLAS
# headers and library (libblas-dev, for the default `BLAS` trait); for the SegueRender product zlib
# (zlib1g-dev), libpng and libjpeg-turbo (images), FreeType, HarfBuzz and fontconfig (text) and the
# fonts text is drawn with by default and tested with (fonts-inter, fonts-dejavu-core). Works as root or through sudo; does
# nothing when all are present.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { pkg-config --exists blas 2>/dev/null \
  && [ -e /usr/include/x86_64-linux-gnu/cblas.h -o -e /usr/include/cblas.h ]; }; then
  missing+=(libblas-dev)
fi
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
# SegueRender: images, then text.
pkg-config --exists libpng 2>/dev/null || missing+=(libpng-dev)
pkg-config --exists libjpeg 2>/dev/null || missing+=(libjpeg62-turbo-dev)
pkg-config --exists freetype2 2>/dev/null || missing+=(libfreetype-dev)
pkg-config --exists harfbuzz 2>/dev/null || missing+=(libharfbuzz-dev)
pkg-config --exists fontconfig 2>/dev/null || missing+=(libfontconfig-dev)
for font in fonts-inter fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$font" 2>/dev/null | grep -q 'ok installed' || missing+=("$font")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "segue: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
