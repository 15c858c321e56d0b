# Thin wrapper over CMake. `make demo` and `make test` install what is
# missing first (scripts/install-deps.sh), so both work on a fresh Debian 12.
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 20
KIT_BUILD ?= build-kit

.PHONY: all deps build asan-build demo test test-normal test-python asan tsan fuzz \
        fuzz-smoke gpu-kit gpu-kit-check bench bench-cuda clean

all: build

deps:
	@bash scripts/install-deps.sh

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

asan-build:
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DUFJIT_SANITIZE=ON \
	    -DUF_NUMBA_CACHE_DIR=$(abspath $(BUILD))/numba-cache >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: deps build
	./$(BUILD)/cli/ufjit demo

# The whole suite, once normally (the C tests, then the Python package's)
# and once under ASan+UBSan, then each fuzz target for a few seconds, then
# the GPU kit built and run on cudasim. One codegen cache for the run
# (compiler/host/jit_codegen_cache.h): the sanitizer build loads the
# object code of the modules the normal build compiled instead of running
# LLVM's optimiser on them again (most of its time, none of it our code);
# made fresh for each run, removed after.
test: deps
	@cache=$$(mktemp -d "$${TMPDIR:-/tmp}/ufjit-codegen-XXXXXX") && \
	UFJIT_CODEGEN_CACHE_DIR=$$cache $(MAKE) --no-print-directory \
	    test-normal test-python asan fuzz-smoke gpu-kit-check; \
	rc=$$?; rm -rf "$$cache"; exit $$rc

test-normal: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The Python package (python/) from the build tree, with pytest: "no tests
# collected" (exit 5) fails like any other failure.
test-python: build
	@if ls $(BUILD)/python/ufjit/_core.*.so >/dev/null 2>&1; then \
	    cd $(BUILD) && PYTHONPATH=$(abspath $(BUILD))/python python3 -m pytest \
	        -q -rs -p no:cacheprovider $(CURDIR)/python/tests; \
	else \
	    echo "test-python: SKIPPED: the extension was not built (no Python" \
	         "headers: see CMake's message)"; \
	fi

asan: asan-build
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest --output-on-failure -j $(JOBS)

# The concurrency tests (ctest -L concurrency) under ThreadSanitizer, built
# with clang-14 in $(TSAN_BUILD), on the serial and omp threading layers
# (scripts/tsan.sh says why clang and why not tbb). Not part of `test`.
# TSAN_ARGS are more ctest arguments, e.g. TSAN_ARGS="-R stress".
tsan: deps
	@bash scripts/tsan.sh $(TSAN_BUILD) $(JOBS) $(TSAN_ARGS)

# The libFuzzer targets (tests/fuzz/README.md), clang only: each for
# FUZZ_SECONDS on a scratch copy of its corpus in $(FUZZ_BUILD).
fuzz: deps
	JOBS=$(JOBS) tests/fuzz/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# make test's share: about 20 s each; skipped, visibly, without clang.
fuzz-smoke:
	JOBS=$(JOBS) tests/fuzz/fuzz.sh --smoke $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)

# The GPU kit (README "Running on a GPU"): gpu-kit/ and gpu-kit.tar.xz,
# the programs linked with LLVM's static libraries, built in $(KIT_BUILD).
gpu-kit: deps
	JOBS=$(JOBS) KIT_BUILD=$(KIT_BUILD) bash scripts/gpu-kit.sh

# The kit's check as the GPU machine runs it, here on cudasim, from the
# tarball unpacked elsewhere: the kit is known to work before it travels.
gpu-kit-check: gpu-kit
	OUT=$(KIT_BUILD)/gpu-check UFJIT_ENABLE_CUDASIM=1 \
	    bash scripts/gpu-check.sh gpu-kit.tar.xz

# ufjit side by side with NumPy, numexpr, Numba and the machine's limits
# (bench/README.md); writes its CPU family's section of bench/RESULTS.md
# and bench/results-FAMILY.png.
# About 10 minutes; BENCH_QUICK=1 for about one.
# It ends with the CUDA section (bench-cuda).
bench: deps build
	python3 bench/run.py $(BUILD)

# The CUDA section alone (about a minute; bench/README.md, "CUDA"): PTX
# registers and instructions against numba-cuda, compile times, and on a
# machine with a GPU the timings; writes bench/CUDA_RESULTS.md.
bench-cuda: build
	python3 bench/cuda/run.py $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD) $(KIT_BUILD) \
	    gpu-kit gpu-kit.tar.xz
