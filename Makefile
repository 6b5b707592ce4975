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
	$(BUILD_DIR)/bin/stasis solve examples/pss/turbo_car.yaml --out out/turbo_car

bench: build
	@for b in $(BUILD_DIR)/bin/bench_*; do echo "== $$b"; $$b || exit 1; done

clean:
	rm -rf $(BUILD_DIR)
