#!/usr/bin/env bash
# Builds and runs Tests/ConsumerPackage, a package that depends on Segue with `traits: []`, the
# way an app or CI job without BLAS would, and proves that the `Segue` and `SegueSpec` products
# need only the Swift toolchain:
#
# 1. the build plan (the package manager's manifest of compile and link commands) names no CBLAS
#    module and no BLAS library, and no link command passes -lblas or -lcblas;
# 2. the binary loads no BLAS (ldd);
# 3. where a mount namespace can be made (root, and `unshare -m` allowed: not in every container
#    or chroot), the build is also run with the CBLAS header and library hidden.
#
# Needs no privilege for 1 and 2. Fails if BLAS shows up anywhere or the consumer's checks fail.
set -euo pipefail
cd "$(dirname "$0")/../Tests/ConsumerPackage"
SCRATCH=.build-consumer
build() { swift build --scratch-path "$SCRATCH" -v >"$SCRATCH.log" 2>&1 || { tail -n 20 "$SCRATCH.log"; return 1; }; }
hide=()
for f in /usr/include/x86_64-linux-gnu/cblas.h /usr/include/cblas.h \
  /usr/lib/x86_64-linux-gnu/libblas.so /usr/lib/x86_64-linux-gnu/libcblas.so; do
  [ -e "$f" ] && hide+=("$(readlink -f "$f")")
done
if [ ${#hide[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null \
  && unshare -m true 2>/dev/null; then
  echo "check-consumer: building with ${hide[*]} hidden" >&2
  export -f build
  export SCRATCH
  unshare -m bash -c 'mount --make-rprivate / && for f in "$@"; do mount --bind /dev/null "$f"; done && build' _ "${hide[@]}"
else
  echo "check-consumer: building (no mount namespace here; BLAS files present: ${#hide[@]})" >&2
  build
fi
tail -n 1 "$SCRATCH.log"

# The build plan: every command the package manager ran or would run for this build.
plan="$SCRATCH/debug.yaml"
[ -f "$plan" ] || { echo "check-consumer: no build plan at $plan" >&2; exit 1; }
if grep -n -i -E 'CBLAS|-l(c)?blas\b|libc?blas' "$plan" "$SCRATCH.log" | head -n 5 | grep .; then
  echo "check-consumer: the consumer's build plan or link line names BLAS" >&2
  exit 1
fi
grep -q -E '(^|[ /])Segue\.(build|swiftmodule)' "$plan" || {
  echo "check-consumer: the build plan does not build Segue: the check would prove nothing" >&2
  exit 1
}
BIN="$SCRATCH/debug/SegueConsumer"
"$BIN" | tail -n 1
if ldd "$BIN" | grep -i blas; then
  echo "check-consumer: the consumer links BLAS" >&2
  exit 1
fi
echo "check-consumer: ok (no CBLAS in the build plan or link line, no BLAS linked)"
