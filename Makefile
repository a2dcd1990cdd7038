# Segue: set-up and common commands. Each target first installs what the builds need from Debian
# when it is missing (BLAS, libdeflate, zlib, libpng, libjpeg, FreeType, HarfBuzz, fontconfig,
# fonts); `make test` also what the test suite runs: python3 with jsonschema, node, ffmpeg,
# chromium (scripts/ensure-deps.sh).
SWIFT ?= swift
BENCH_FLAGS ?= -Xswiftc -target-cpu -Xswiftc native

.PHONY: setup setup-test test test-allocations bench build docs format lint

setup:
	./scripts/ensure-deps.sh

setup-test:
	./scripts/ensure-deps.sh test

# The test suite (debug build, Swift Testing).
test: setup-test
	$(SWIFT) test

# The allocation suites (0 allocations per frame once warm) count only in an optimised build.
test-allocations: setup
	$(SWIFT) test -c release -Xswiftc -enable-testing --scratch-path .build-release-tests \
	  --filter AllocationTests

# The main job: the benchmark executable on the standard `stack` workload (release build).
bench: setup
	$(SWIFT) run -c release $(BENCH_FLAGS) segue-bench --workload stack --n 1000000 --t 0.3 --repeats 5

build: setup
	$(SWIFT) build -c release

# The DocC documentation of the library targets (swift-docc-plugin); fails on any DocC warning.
docs: setup
	./scripts/build-docs.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Package.swift
