#!/usr/bin/env bash
# Builds the libFuzzer targets (FuzzJSON, FuzzSpec, FuzzEvents, FuzzLive) into Fuzz/.build/release.
#
# The Swift code is compiled with AddressSanitizer and libFuzzer's coverage instrumentation
# (what -sanitize=fuzzer adds: edge coverage, comparison tracing, 8-bit counters, PC table) and
# linked with the toolchain's libFuzzer *without* its main: SwiftPM gives every executable its
# own `main` (each target's @main calls LLVMFuzzerRunDriver), which collides with the main that
# `-sanitize=fuzzer` links in.
set -euo pipefail
cd "$(dirname "$0")"
swiftc_dir="$(dirname "$(command -v swiftc)")"
runtime="$(ls "$swiftc_dir"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)"
exec swift build -c release \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker "$runtime" -Xlinker -lstdc++ "$@"
