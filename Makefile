# stasis top-level Makefile: the commands a user needs.
BUILD_DIR ?= build
JOBS      ?= $(shell nproc)
CMAKE_BUILD_TYPE ?= Release

.PHONY: all deps configure build test demo bench clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

demo: build
	$(BUILD_DIR)/bin/stasis mpcc examples/mpcc/ralph_example.yaml --out $(BUILD_DIR)/demo/mpcc

bench: build
	@$(BUILD_DIR)/bin/bench_sym
	@$(BUILD_DIR)/bin/bench_mpcc

clean:
	rm -rf $(BUILD_DIR)
