# kerndiff — plain make build. `make`, `make test`, `make install PREFIX=...`,
# `make sanitize` (ASan+UBSan build of the tool and the tests), `make fuzz` (clang libFuzzer).
CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.1.0

# CFLAGS/LDFLAGS are the user's (and the sanitizer builds'); what kerndiff itself needs
# is kept apart so that overriding them never drops the language level or the warnings.
CFLAGS   ?= -O2 -g
# The toolkit kerndiff was built against, for --version.
KD_CUDA_RELEASE := $(or $(shell PATH="$$PATH:/usr/local/cuda/bin" nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\),.*/\1/p'),unknown)
KD_CPPFLAGS := -Isrc -DKD_VERSION='"$(VERSION)"' -DKD_CUDA_VERSION='"$(KD_CUDA_RELEASE)"' -D_GNU_SOURCE
KD_CFLAGS   := -std=c11 -Wall -Wextra -Wshadow -Wformat=2
KD_LIBS     := -ljansson -lnettle -lsqlite3 -lz -ldl -lm -lstdc++

SRC      := $(sort $(wildcard src/*/*.c))
OBJ      := $(SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libkerndiff.a
BIN      := $(BUILD)/kerndiff
# The measuring children (harness/): the CUDA one and the simulated one used by CI.
HARNESS  := $(BUILD)/kerndiff-harness $(BUILD)/kerndiff-sim-harness
# The Triton helper (scripts/kerndiff-triton.py), found like the harness programs.
HELPERS  := $(BUILD)/kerndiff-triton.py
# The A/A calibration record (bench/aa_summary.py writes it), read beside the harness programs.
SHARE    := $(BUILD)/kerndiff-calibration.txt
# The collector of `kerndiff app`, loaded into the user's program (CUDA_INJECTION64_PATH).
INJECT   := $(BUILD)/libkerndiff-inject.so
# The protocol conformance transcript (docs/PROTOCOL.md), played against any harness.
CONFORMANCE := $(BUILD)/tests/conformance
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# The project's virtual environment (scripts/install-deps.sh makes .venv where the system
# Python is externally managed, PEP 668): first on PATH, so that python3 in the tests is the
# one with Triton and jsonschema.
VENV_BIN := $(wildcard $(CURDIR)/.venv/bin)
# nvcc and the PyPI-installed SASS tools, for the tests and the demo.
CUDA_TOOLS := $(shell PATH="$(if $(VENV_BIN),$(VENV_BIN):)$$PATH" python3 scripts/cuda-tools-path.py 2>/dev/null)
export PATH := $(if $(VENV_BIN),$(VENV_BIN):)$(PATH):/usr/local/cuda/bin$(if $(CUDA_TOOLS),:$(CUDA_TOOLS))

.PHONY: all test unit e2e check layers clean-clone install sanitize fuzz fuzz-run demo clean man
all: $(BIN) $(HARNESS) $(HELPERS) $(SHARE) $(INJECT) $(CONFORMANCE)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) $(KD_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The commit the build was made from, "+" when the sources differ from it, for --version's
# "source:" line: results name the build they ran (a copy of the tree on another machine may
# carry a stale .git). The file is rewritten only when that changes, so nothing rebuilds else.
KD_COMMIT_FILE := $(BUILD)/commit.txt
.PHONY: FORCE
$(KD_COMMIT_FILE): FORCE
	@mkdir -p $(dir $@)
	@c=$$(git rev-parse --short HEAD 2>/dev/null) && { git diff --quiet HEAD -- src harness include scripts Makefile 2>/dev/null || c="$$c+"; } || c=unknown; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$c" ] || echo "$$c" >$@
$(BUILD)/src/cmd/info.o: $(KD_COMMIT_FILE)
$(BUILD)/src/cmd/info.o: KD_CPPFLAGS += -DKD_COMMIT="\"$$(cat $(KD_COMMIT_FILE))\""

$(LIB): $(OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/src/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KD_LIBS) $(LDLIBS)

# CUPTI's record layouts come from the toolkit's headers; the library itself is dlopen'ed.
CUDA_HOME ?= /usr/local/cuda
$(BUILD)/harness/cupti_timer.o $(BUILD)/harness/cupti_library.o: CPPFLAGS += -I$(CUDA_HOME)/include
# cupti_profiler_host.h (CUDA 13) includes C++'s <string> for nothing: harness/cupti_compat has an empty one.
$(BUILD)/harness/cupti_profiler.o: CPPFLAGS += -Iharness/cupti_compat -I$(CUDA_HOME)/include

$(BUILD)/kerndiff-harness: $(BUILD)/harness/cuda_harness.o $(BUILD)/harness/server.o $(BUILD)/harness/cuda_driver.o $(BUILD)/harness/cupti_timer.o $(BUILD)/harness/cupti_pcsampling.o $(BUILD)/harness/cupti_pcsampling_cmd.o $(BUILD)/harness/cupti_sass.o $(BUILD)/harness/cupti_profiler.o $(BUILD)/harness/cupti_library.o $(BUILD)/harness/counters_reply.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KD_LIBS) $(LDLIBS)

$(BUILD)/kerndiff-triton.py: scripts/kerndiff-triton.py
	@mkdir -p $(dir $@)
	cp $< $@

$(BUILD)/kerndiff-calibration.txt: share/kerndiff-calibration.txt
	@mkdir -p $(dir $@)
	cp $< $@

$(BUILD)/kerndiff-sim-harness: $(BUILD)/harness/sim_harness.o $(BUILD)/harness/server.o $(BUILD)/harness/counters_reply.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KD_LIBS) $(LDLIBS)

# It runs inside programs built without sanitizers, so the sanitizer flags stay out of it.
# libcupti is searched for as the harness searches it (cupti_library.c, util/env.c compiled in).
$(INJECT): harness/inject.c harness/capture_inject.c harness/capture_inject.h harness/cupti_library.c harness/cupti_library.h src/util/env.c
	$(CC) $(KD_CPPFLAGS) -I$(CUDA_HOME)/include $(KD_CFLAGS) $(filter-out -fsanitize%,$(CFLAGS)) \
	  -fPIC -shared -fvisibility=hidden -o $@ $(filter %.c,$^) -ldl -lpthread

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) -Itests/unit $(KD_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) -lcmocka $(KD_LIBS) $(LDLIBS)

# test_cupti_profiler_prep tests the harness's cupti_profiler.c (KERNDIFF_COUNTER_PREP's names).
$(BUILD)/tests/test_cupti_profiler_prep: tests/unit/test_cupti_profiler_prep.c $(BUILD)/harness/cupti_profiler.o $(BUILD)/harness/cupti_library.o $(BUILD)/harness/counters_reply.o $(BUILD)/harness/server.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) -Iharness -Itests/unit $(KD_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(filter %.o,$^) $(LIB) -lcmocka $(KD_LIBS) $(LDLIBS)

# The fake NVML that the --lock-clocks tests load instead of the driver's (tests/fakes).
FAKE_NVML := $(BUILD)/tests/libfake_nvml.so
$(FAKE_NVML): tests/fakes/fake_nvml.c
	@mkdir -p $(dir $@)
	$(CC) $(KD_CFLAGS) $(CFLAGS) -shared -fPIC -o $@ $<

# The fake libcuda.so.1 that makes gpu/probe.c find a GPU (tests/fakes/fake_libcuda.c); like
# the injection library, loaded into programs built without sanitizers.
FAKE_CUDA := $(BUILD)/tests/fakecuda/libcuda.so.1
$(FAKE_CUDA): tests/fakes/fake_libcuda.c
	@mkdir -p $(dir $@)
	$(CC) $(KD_CFLAGS) $(filter-out -fsanitize%,$(CFLAGS)) -shared -fPIC -o $@ $<

# test_harness_pool starts the simulated harness beside it (BUILD/kerndiff-sim-harness)
unit: $(TEST_BIN) $(BUILD)/kerndiff-sim-harness
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; KD_FIXTURES=tests/fixtures $$t; done

$(CONFORMANCE): tests/conformance/conformance.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) $(KD_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(KD_LIBS) $(LDLIBS)

e2e: $(BIN) $(HARNESS) $(HELPERS) $(SHARE) $(INJECT) $(FAKE_NVML) $(FAKE_CUDA) $(CONFORMANCE)
	$(CONFORMANCE) $(BUILD)/kerndiff-sim-harness
	tests/e2e/run.sh $(BIN) $(FAKE_NVML)

test: unit e2e

# Everything CI runs: the tests, again under ASan+UBSan, a short fuzz of each parser, and
# `make demo` and `make install` from a fresh clone (what a newcomer runs first).
# The three builds (normal, sanitizer, fuzz) compile first, side by side on every core unless
# the command line says -j itself (issue 41: a plain `make check` built them one after the
# other on one core); the tests then run as before, one stage after another.
check:
	$(MAKE) $(KD_PAR) check-builds
	$(MAKE) check-tests
check-tests: layers test-both fuzz-run clean-clone

# `test` and `sanitize` side by side (issue 41: a suite spends most of its time waiting on the
# programs it starts, so two runs share 2 cores; one after the other took 33 of make check's
# 39 minutes), each into its own log, both shown when both are done; the Slurm suite starts
# one cluster, so the ASan run leaves it out and runs it alone afterwards.
test-both:
	@mkdir -p $(BUILD) build-san
	@$(MAKE) test >$(BUILD)/test.log 2>&1 & normal=$$!; \
	E2E_SKIP=slurm $(MAKE) $(SAN_VARS) test >build-san/test.log 2>&1; san=$$?; \
	wait $$normal; rc=$$?; \
	echo "== make test"; cat $(BUILD)/test.log; echo "== make sanitize (ASan+UBSan; slurm after)"; cat build-san/test.log; \
	echo "make test exit $$rc, make sanitize exit $$san"; [ $$rc = 0 ] && [ $$san = 0 ]
	E2E_ONLY=slurm $(MAKE) $(SAN_VARS) e2e

# What `test` needs built, without running anything.
test-build: $(BIN) $(HARNESS) $(HELPERS) $(SHARE) $(INJECT) $(FAKE_NVML) $(FAKE_CUDA) $(CONFORMANCE) $(TEST_BIN)
.PHONY: check-builds check-build-normal check-build-san check-build-fuzz check-tests test-build test-both
check-builds: check-build-normal check-build-san check-build-fuzz
check-build-normal:
	$(MAKE) test-build
check-build-san:
	$(MAKE) $(SAN_VARS) test-build
check-build-fuzz:
	$(MAKE) fuzz

# Includes only run down the floors of src/, and only report/, cli/, cmd/ and main.c print
# (docs/ARCHITECTURE.md, "Floors"; scripts/layers-allow.txt must end empty); no function
# takes more than 6 parameters (issue 29: more take a struct).
layers: $(BIN)
	python3 scripts/check-layers.py --self-test
	python3 scripts/check-layers.py --objects $(BUILD)/src
	python3 scripts/check-params.py --self-test
	python3 scripts/check-params.py

clean-clone:
	tests/e2e/clean_clone.sh

# The demo times both sides when there is a GPU: it needs the harness programs too, built on
# every core unless the command line says -j itself; then it says how to run what it built.
KD_JOBS := $(shell nproc 2>/dev/null || echo 2)
KD_PAR = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(KD_JOBS))
demo:
	$(MAKE) $(KD_PAR) $(BIN) $(HARNESS) $(HELPERS)
	$(BIN) examples/vector_loads/v1.cu examples/vector_loads/v2.cu
	@echo
	@echo "kerndiff is built: run it as $(BIN) V1.cu V2.cu, or install it with sudo make install (PREFIX=$(PREFIX))"

# Sanitizer build in its own folder so it never mixes objects with the normal build.
SAN_VARS = BUILD=build-san CC=clang \
  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
  LDFLAGS="-fsanitize=address,undefined"
sanitize:
	$(MAKE) $(SAN_VARS) test

# FUZZ_BUILD: the fuzzers' own build folder (one per worker when several fuzz at once).
FUZZ_BUILD ?= build-fuzz
fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" $(FUZZ_BUILD)/libkerndiff.a
	@mkdir -p $(FUZZ_BUILD)/fuzz
	for f in tests/fuzz/fuzz_*.c; do \
	  clang $(KD_CPPFLAGS) $(KD_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -o $(FUZZ_BUILD)/fuzz/$$(basename $$f .c) $$f $(FUZZ_BUILD)/libkerndiff.a $(KD_LIBS) || exit 1; \
	done

FUZZ_SECONDS ?= 20
fuzz-run: fuzz
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

install: $(BIN) $(HARNESS) $(HELPERS) $(SHARE) $(INJECT)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/kerndiff
	install -d $(DESTDIR)$(PREFIX)/libexec/kerndiff $(DESTDIR)$(PREFIX)/include/kerndiff
	install -m 644 include/kerndiff/*.h $(DESTDIR)$(PREFIX)/include/kerndiff/
	install -m 755 $(HARNESS) $(HELPERS) $(INJECT) $(DESTDIR)$(PREFIX)/libexec/kerndiff/
	install -m 644 $(SHARE) $(DESTDIR)$(PREFIX)/libexec/kerndiff/
	install -m 644 docs/kerndiff.1 $(DESTDIR)$(PREFIX)/share/man/man1/kerndiff.1
	# Shell completions, made by the program from its own option table.
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(BIN) --completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kerndiff
	$(BIN) --completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kerndiff
	$(BIN) --completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kerndiff.fish

clean:
	rm -rf build build-san build-fuzz

# The hot-spot diff's PC-sampling recorder (CUPTI's headers, libcupti dlopen'ed) and the GPU
# test's two programs (tests/gpu/hotspots.sh).
$(BUILD)/harness/cupti_pcsampling.o $(BUILD)/harness/cupti_sass.o: CPPFLAGS += -I$(CUDA_HOME)/include
HOTSPOTS_TOOLS := $(BUILD)/tests/kd-hotspots-record $(BUILD)/tests/kd-hotspots-diff
$(BUILD)/tests/kd-hotspots-record: tests/gpu/hotspots_record.c $(BUILD)/harness/cupti_pcsampling.o $(BUILD)/harness/cupti_sass.o $(BUILD)/harness/cuda_driver.o $(BUILD)/harness/cupti_library.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) -Iharness $(KD_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(KD_LIBS) $(LDLIBS)
$(BUILD)/tests/kd-hotspots-diff: tests/gpu/hotspots_diff.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(KD_CPPFLAGS) $(CPPFLAGS) $(KD_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(KD_LIBS) $(LDLIBS)

-include $(OBJ:.o=.d) $(BUILD)/src/main.d $(wildcard $(BUILD)/harness/*.d)

# The man page's options come from `kerndiff --help` (scripts/gen-man.py); e2e checks it is current.
# The exit-status tables of README.md and docs/OPTIONS.md come from cli/exit_codes.h (scripts/gen-exit-codes.py).
man: $(BIN)
	python3 scripts/gen-man.py $(BIN) docs/kerndiff.1.in > docs/kerndiff.1
	python3 scripts/gen-exit-codes.py
