# The two commands of the README:
#   make demo   installs what is missing, builds, and runs torch-tidy on examples/
#   make test   installs what is missing, builds, and runs every test
BUILD ?= build
JOBS ?= 2

.PHONY: deps build demo test bench clean

deps:
	bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash scripts/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

bench: build
	bash bench/run.sh

clean:
	rm -rf $(BUILD) examples/build
