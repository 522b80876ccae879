# The two commands of the README:
#   make demo   installs what is missing, builds, and runs torch-tidy on examples/
#   make test   installs what is missing, builds, and runs every test
BUILD ?= build
JOBS ?= 2

.PHONY: deps build demo test bench clean
.PHONY: fuzz-build fuzz fuzz-smoke sanitize-build sanitize sanitize-smoke

deps:
	bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash scripts/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure
	$(MAKE) fuzz-smoke
	$(MAKE) sanitize-smoke

bench: build
	bash bench/run.sh

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(ASAN_BUILD) examples/build

# Fuzzing and sanitizers (README.md, "Fuzzing and sanitizers"): clang 19's
# libFuzzer, ASan and UBSan, each in a build directory of its own.
FUZZ_BUILD ?= build-fuzz
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
# The smoke run in make test: this many inputs per fuzzer from seed 1, so that
# CI is deterministic; make fuzz explores for FUZZ_SECONDS.
FUZZ_SMOKE_RUNS ?= 20000
# The sanitized tests: unit, probe, dataflow, check fixtures and replay plans;
# not e2e/ and speed/, whose subprocesses (stock clang-tidy with our plugin)
# cannot load ASan code and which parse LibTorch dozens of times,
# nor the corpus gates (minutes each, and the fixtures cover the same code).
# make test runs the unit and probe tests only: the fixtures would add about
# six minutes (README.md, "Fuzzing and sanitizers").
SANITIZE_TESTS ?= -E '^(e2e|speed|corpus)/'
SANITIZE_SMOKE_TESTS ?= -E '^(check|e2e|speed|corpus|plans)/'
SANITIZER_FLAGS = -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-19

fuzz-build: deps
	cmake -S . -B $(FUZZ_BUILD) $(SANITIZER_FLAGS) -DTORCH_TIDY_FUZZ=ON
	cmake --build $(FUZZ_BUILD) --target fuzzers -j $(JOBS)

fuzz: fuzz-build
	bash test/fuzz/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	FUZZ_RUNS=$(FUZZ_SMOKE_RUNS) bash test/fuzz/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)

sanitize-build: deps
	cmake -S . -B $(ASAN_BUILD) $(SANITIZER_FLAGS) -DTORCH_TIDY_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)

sanitize: sanitize-build
	cd $(ASAN_BUILD) && ctest -j $(JOBS) --output-on-failure $(SANITIZE_TESTS)

sanitize-smoke: sanitize-build
	cd $(ASAN_BUILD) && ctest -j $(JOBS) --output-on-failure $(SANITIZE_SMOKE_TESTS)
