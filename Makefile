# stasis top-level Makefile: the commands a user needs.
BUILD_DIR ?= build
JOBS      ?= $(shell nproc)
CMAKE_BUILD_TYPE ?= Release
PREFIX    ?= /usr/local

.PHONY: all deps configure build test demo demo-quick bench examples docs install clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The quick demo (a time-optimal car, about 1 s), then the hopping robot of seed 000 over three
# holes (examples/hopper.yaml: about 25 min on 2 cores to solve and 25 to validate; its report is
# out/hopper/report.html).
demo: demo-quick
	@echo "== the hopping robot over three holes (examples/hopper.yaml): about 25 min to solve and 25 to validate on 2 cores; make demo-quick skips it"
	$(BUILD_DIR)/bin/stasis solve examples/hopper.yaml --out out/hopper

demo-quick: build
	$(BUILD_DIR)/bin/stasis solve examples/pss/turbo_car.yaml --out out/turbo_car

bench: build
	@for b in $(BUILD_DIR)/bin/bench_*; do echo "== $$b"; $$b || exit 1; done

# The C++ example programs (examples/cpp/NAME.cpp -> bin/example_NAME, docs/cpp-api.md): build
# only them (and the library), then run each.
EXAMPLES := $(patsubst examples/cpp/%.cpp,example_%,$(wildcard examples/cpp/*.cpp))
examples: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target $(EXAMPLES)
	@for e in $(EXAMPLES); do echo "== $(BUILD_DIR)/bin/$$e"; $(BUILD_DIR)/bin/$$e || exit 1; done

# docs/report-screenshot.png: the report of REPORT_EXAMPLE in headless Chromium (docs/report.md);
# docs/hopper-report.png: the report of the hopper's result in HOPPER_RESULT (docs/hopper holds a
# result of `stasis solve examples/hopper.yaml`, gzipped (docs/hopper-experiments.md, session 35): `gzip -c out/hopper/result.json >
# docs/hopper/result.json.gz` updates it; HOPPER_RESULT=out/hopper uses a new one directly).
REPORT_EXAMPLE ?= examples/time_freezing/particle_friction.yaml
HOPPER_RESULT ?= docs/hopper
docs: build
	@bash scripts/report-screenshot.sh $(BUILD_DIR) $(REPORT_EXAMPLE) docs/report-screenshot.png
	@bash scripts/report-screenshot.sh $(BUILD_DIR) $(HOPPER_RESULT) docs/hopper-report.png 2400

# Installs headers, libstasis, the CLI, the CMake package and stasis.pc (docs/install.md).
# Does not build (so that `sudo make install` writes no root-owned files into the build tree):
# run `make build` first. `make install PREFIX=$HOME/.local` installs elsewhere.
install:
	@test -f $(BUILD_DIR)/cmake_install.cmake || { echo "make install: no build in $(BUILD_DIR); run 'make build' first" >&2; exit 1; }
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR)
