#!/usr/bin/env bash
# Builds the C reference of the `stack` workload (stack.c) and segue-bench (release), then times
# them back to back on the same core in alternating pairs and prints each run's layer-evals/s,
# ns per layer and checksum, and the ratio Segue/C (above 1 when Segue is faster).
#
#   Benchmarks/StackC/run.sh                  # N = 16384 and 1000000, t = 0.3, 3 pairs each
#   N="16384" ROUNDS=5 Benchmarks/StackC/run.sh
#   ARCH=baseline Benchmarks/StackC/run.sh    # both built for baseline x86-64 instead of native
#
# Environment: N (layer counts), T (time, default 0.3), ROUNDS (pairs per N, default 3), REPEATS
# (timed passes per run, default 41 for N <= 100000, else 7), ARCH (native or baseline), CC (the
# C compiler, default the Swift toolchain's clang: GCC does not vectorise this loop).
# Both sides run one thread, pinned with `taskset -c 0` when taskset exists.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
N="${N:-16384 1000000}"
T="${T:-0.3}"
ROUNDS="${ROUNDS:-3}"
ARCH="${ARCH:-native}"
CC="${CC:-clang}"
build="$root/.build/stack-c"
mkdir -p "$build"

cflags=(-O3 -fopenmp-simd -Wall -Wextra)
swiftflags=()
case "$ARCH" in
  native) cflags+=(-march=native); swiftflags=(-Xswiftc -target-cpu -Xswiftc native) ;;
  baseline) ;;
  *) echo "run.sh: ARCH must be native or baseline (got '$ARCH')" >&2; exit 64 ;;
esac
command -v "$CC" >/dev/null || { echo "run.sh: no C compiler '$CC' (set CC)" >&2; exit 69; }
"$CC" "${cflags[@]}" -o "$build/stack" "$here/stack.c" -lm
echo "C:     $CC ${cflags[*]} ($("$CC" --version | head -n 1))"
(cd "$root" && swift build -c release --product segue-bench "${swiftflags[@]}" 2>&1 | tail -n 1)
bench="$(cd "$root" && swift build -c release --product segue-bench "${swiftflags[@]}" --show-bin-path)/segue-bench"
echo "Swift: segue-bench -c release ${swiftflags[*]:-(baseline)}"
echo "CPU:   $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)"

pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }

# The C kernel's outputs against a double evaluation of the same layers, once.
"$build/stack" --n 16384 --t "$T" --repeats 1 --check | tail -n 1

for n in $N; do
  repeats="${REPEATS:-$([ "$n" -le 100000 ] && echo 41 || echo 7)}"
  echo
  echo "N = $n, t = $T, $repeats timed passes per run (M layer-evals/s, median; ns per layer)"
  printf '%-6s %-10s %-10s %-10s %-10s %-8s %-20s %s\n' round "C M/s" "C ns" "Segue M/s" \
    "Segue ns" "Segue/C" "C checksum" "Segue checksum"
  for round in $(seq 1 "$ROUNDS"); do
    c="$("${pin[@]}" "$build/stack" --n "$n" --t "$T" --repeats "$repeats" --format json)"
    s="$("${pin[@]}" "$bench" --workload stack --n "$n" --t "$T" --path simd --repeats "$repeats" \
      --format json)"
    cRate="$(echo "$c" | field layerEvalsPerSecond)"
    sRate="$(echo "$s" | field layerEvalsPerSecond)"
    awk -v r="$round" -v c="$cRate" -v s="$sRate" -v cn="$(echo "$c" | field nsPerLayer)" \
      -v sn="$(echo "$s" | field nsPerLayer)" -v cs="$(echo "$c" | field checksum)" \
      -v ss="$(echo "$s" | field checksum)" \
      'BEGIN { printf "%-6s %-10.1f %-10.3f %-10.1f %-10.3f %-8.3f %-20.12e %.12e\n", r, c / 1e6, cn, s / 1e6, sn, s / c, cs, ss }'
  done
done
