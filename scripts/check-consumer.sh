#!/usr/bin/env bash
# Builds and runs Tests/ConsumerPackage, a package that depends on Segue with `traits: []`, the
# way an app or CI job without BLAS would. On a machine that has BLAS installed (and when we may
# create a mount namespace) the CBLAS header and library are hidden for the build, so the check
# proves that the `Segue` and `SegueSpec` products need only the Swift toolchain. Fails if the
# binary links any BLAS or its checks fail.
set -euo pipefail
cd "$(dirname "$0")/../Tests/ConsumerPackage"
SCRATCH=.build-consumer
build() { swift build --scratch-path "$SCRATCH" 2>&1 | tail -n 3; }
hide=()
for f in /usr/include/x86_64-linux-gnu/cblas.h /usr/include/cblas.h \
  /usr/lib/x86_64-linux-gnu/libblas.so /usr/lib/x86_64-linux-gnu/libcblas.so; do
  [ -e "$f" ] && hide+=("$(readlink -f "$f")")
done
if [ ${#hide[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
  echo "check-consumer: building with ${hide[*]} hidden" >&2
  export -f build
  export SCRATCH
  unshare -m bash -c 'for f in "$@"; do mount --bind /dev/null "$f"; done; build' _ "${hide[@]}"
else
  echo "check-consumer: building (BLAS files present: ${#hide[@]})" >&2
  build
fi
BIN="$SCRATCH/debug/SegueConsumer"
"$BIN" | tail -n 1
if ldd "$BIN" | grep -i blas; then
  echo "check-consumer: the consumer links BLAS" >&2
  exit 1
fi
echo "check-consumer: ok (no BLAS linked)"
