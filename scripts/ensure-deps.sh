#!/usr/bin/env bash
# Installs from Debian what Segue's builds and its test suite use, when it is missing:
#
#   scripts/ensure-deps.sh         the build: pkg-config, the CBLAS headers and library
#                                  (libblas-dev, for the default `BLAS` trait); for SegueRender
#                                  libdeflate (PNG writing, snapshot reading), zlib, libpng
#                                  and libjpeg (images), FreeType, HarfBuzz and fontconfig
#                                  (text), and the fonts text is drawn with by default
#                                  and tested with (fonts-inter, fonts-dejavu-core)
#   scripts/ensure-deps.sh test    the build and the programs the test suite runs: python3 with
#                                  jsonschema (the spec schema checks, the PNG and APNG readers),
#                                  node (the preview page's scripts), ffmpeg and ffprobe (the MP4
#                                  output), chromium (the preview page in a browser)
#
# Works as root or through sudo; does nothing when everything is present. python3's jsonschema
# comes from Debian's python3-jsonschema, or from pip when the python3 on PATH is not Debian's.
# Fails when something is still missing afterwards, so that no test is skipped for want of it.
set -euo pipefail
group="${1:-build}"
case "$group" in build | test) ;; *) echo "usage: $0 [build|test]" >&2; exit 64 ;; esac

# One line per Debian package: group|package|check (a command that succeeds when it is there).
packages='
build|pkg-config|command -v pkg-config
build|libblas-dev|pkg-config --exists blas && { [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || [ -e /usr/include/cblas.h ]; }
build|zlib1g-dev|pkg-config --exists zlib
build|libpng-dev|pkg-config --exists libpng
build|libjpeg62-turbo-dev|pkg-config --exists libjpeg
build|libfreetype-dev|pkg-config --exists freetype2
build|libharfbuzz-dev|pkg-config --exists harfbuzz
build|libfontconfig-dev|pkg-config --exists fontconfig
build|libdeflate-dev|pkg-config --exists libdeflate
build|fonts-inter|dpkg -s fonts-inter
build|fonts-dejavu-core|dpkg -s fonts-dejavu-core
test|python3|command -v python3
test|python3-jsonschema|python3 -c "import jsonschema"
test|nodejs|command -v node || command -v nodejs
test|ffmpeg|command -v ffmpeg && command -v ffprobe
test|chromium|command -v chromium || command -v chromium-browser || command -v google-chrome
'

wanted() { [ "$1" = build ] || [ "$group" = test ]; }
missing() {
  local line name check
  while IFS='|' read -r line name check; do
    [ -n "$line" ] && wanted "$line" && ! bash -c "$check" >/dev/null 2>&1 && echo "$name"
  done <<<"$packages"
  return 0
}

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
mapfile -t absent < <(missing)
[ ${#absent[@]} -eq 0 ] && exit 0
echo "segue: installing ${absent[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${absent[@]}" >/dev/null

# A python3 on PATH other than Debian's (pyenv, a virtualenv) does not see python3-jsonschema.
if [ "$group" = test ] && ! python3 -c "import jsonschema" >/dev/null 2>&1; then
  echo "segue: installing jsonschema with pip for $(command -v python3)" >&2
  python3 -m pip install --quiet jsonschema
fi
mapfile -t absent < <(missing)
if [ ${#absent[@]} -gt 0 ]; then
  echo "segue: still missing after the install: ${absent[*]}" >&2
  exit 1
fi
