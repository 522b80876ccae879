# The two commands of the README:
#   make demo   installs what is missing, builds, and runs torch-tidy on examples/
#   make test   installs what is missing, builds, and runs every test; prints
#               the time of each part and the slowest tests (scripts/test.sh)
BUILD ?= build
JOBS ?= 2

.PHONY: deps build demo test ctest bench clean install package
.PHONY: instrumented-build fuzz-build fuzz fuzz-smoke sanitize-build sanitize sanitize-smoke

deps:
	bash scripts/install-deps.sh

# Configured once; ninja re-runs CMake itself when a CMakeLists.txt changes.
$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash scripts/demo.sh $(BUILD)

test:
	bash scripts/test.sh

# ctest's part of make test. Tests that parse LibTorch hold the resource lock
# torch-tidy-heavy, so two of them never run at once; its JUnit report gives
# scripts/ci/test-times.py the time of each test.
ctest: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --output-junit ctest-junit.xml

# torch-tidy, torch-tidy-probe, the plugin, the man page and the docs under
# PREFIX (cmake/Install.cmake); a Debian package of them in $(BUILD).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	cd $(BUILD) && cpack -G DEB

bench: build
	bash bench/run.sh

clean:
	rm -rf $(BUILD) $(INSTRUMENTED_BUILD) examples/build

# Fuzzing and sanitizers (README.md, "Fuzzing and sanitizers"): one build with
# clang 19, ASan and UBSan, and libFuzzer's coverage (-fsanitize=fuzzer-no-link)
# in every library; the fuzz targets link libFuzzer's main, the test binaries
# do not (as OSS-Fuzz builds LLVM's fuzzers).
INSTRUMENTED_BUILD ?= build-asan
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

# -O1, as ASan's documentation and OSS-Fuzz's builds use (8% less CPU than -O3).
$(INSTRUMENTED_BUILD)/build.ninja: | deps
	cmake -S . -B $(INSTRUMENTED_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	      -DCMAKE_CXX_FLAGS_RELEASE='-O1 -DNDEBUG' -DCMAKE_CXX_COMPILER=clang++-19 \
	      -DTORCH_TIDY_SANITIZE=ON -DTORCH_TIDY_FUZZ=ON

instrumented-build: deps $(INSTRUMENTED_BUILD)/build.ninja
	cmake --build $(INSTRUMENTED_BUILD) -j $(JOBS) --target all fuzzers

fuzz-build sanitize-build: instrumented-build

fuzz: instrumented-build
	bash test/fuzz/run-fuzzers.sh $(INSTRUMENTED_BUILD) $(FUZZ_SECONDS)

fuzz-smoke: instrumented-build
	FUZZ_RUNS=$(FUZZ_SMOKE_RUNS) bash test/fuzz/run-fuzzers.sh $(INSTRUMENTED_BUILD) $(FUZZ_SMOKE_SECONDS)

sanitize: instrumented-build
	cd $(INSTRUMENTED_BUILD) && ctest -j $(JOBS) --output-on-failure $(SANITIZE_TESTS)

sanitize-smoke: instrumented-build
	cd $(INSTRUMENTED_BUILD) && ctest -j $(JOBS) --output-on-failure $(SANITIZE_SMOKE_TESTS)
