#!/usr/bin/env bash
# Builds the DocC documentation of every library target with swift-docc-plugin
# (`swift package generate-documentation`) and fails on any warning: an unresolved symbol link, a
# doc comment whose parameters do not match the declaration, a missing article. The targets are
# built together as combined documentation, so a target may link to a symbol of a target it
# depends on as ``/Segue/ValidationError`` and to an article of that target's catalog as
# <doc:/Segue/Performance> (not the other way: Segue's articles name SegueSpec's and
# SegueRender's in plain text). Segue, SegueSpec and SegueRender each have a catalog
# (Sources/<Target>/<Target>.docc, with a landing page <Target>.md); SegueBenchSupport has its
# doc comments only. The archives land in .build/plugins/Swift-DocC/outputs/ (Segue.doccarchive
# is the combined one). Usage: scripts/build-docs.sh [extra docc options]
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(Segue SegueSpec SegueRender SegueSnapshot SegueTesting SegueBenchSupport)
CATALOGS=(Segue SegueSpec SegueRender SegueTesting)
args=()
for t in "${TARGETS[@]}"; do args+=(--target "$t"); done
for c in "${CATALOGS[@]}"; do
  if [ ! -f "Sources/$c/$c.docc/$c.md" ]; then
    echo "build-docs: Sources/$c/$c.docc/$c.md (the landing page of $c) is missing" >&2
    exit 1
  fi
done
# The documentation is self-contained: nothing in it (README, CONTRIBUTING, articles, doc
# comments, tests) points at files outside the repository.
outside='/work/shared|\.\./shared|shared/(reference|benchmarks)|seed-transitions\.md|core-animation\.md|stack-workload\.md'
if grep -rnE "$outside" README.md CONTRIBUTING.md Sources Tests Benchmarks Fuzz \
  --exclude-dir=.build; then
  echo "build-docs: the lines above refer to files outside the repository" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
swift package generate-documentation "${args[@]}" \
  --enable-experimental-combined-documentation --ide-console-output "$@" \
  >"$log" 2>&1 || status=$?
# Compiler and docc diagnostics; the progress lines of the build are left out.
grep -E '(warning|error):' "$log" | sort -u || true
warnings=$(grep -cE '(warning|error):' "$log" || true)
echo "build-docs: ${#TARGETS[@]} targets, $warnings warnings or errors, $(($(date +%s) - start)) s"
if [ "$status" -ne 0 ]; then
  tail -n 20 "$log" >&2
  echo "build-docs: failed: swift package generate-documentation exited with $status" >&2
  exit 1
fi
if [ "$warnings" -ne 0 ]; then
  echo "build-docs: failed: $warnings warnings" >&2
  exit 1
fi
echo "build-docs: ok (.build/plugins/Swift-DocC/outputs/Segue.doccarchive)"
