# swfkit: `make demo` runs the whole pipeline on a bundled trace, `make test` runs
# every test. Go is the only prerequisite; modules come from the Go module proxy.

GO        ?= go
BIN       := bin
CMDS      := swfclean swfaugment swfsim swfstat
DEMO      := testdata/KTH-SP2-1996-2.1-cln.swf.gz
OUT       := out
FUZZTIME  ?= 10s
STATICCHECK_VERSION ?= v0.8.2

PREFIX    ?= /usr/local
DESTDIR   ?=

.PHONY: cross pgo all build test unit e2e adversarial components test-integration demo bench sweeps fuzz lint clean man completion install

all: build

# -buildvcs=auto stamps the commit (and whether the work tree was modified)
# into the binaries even where `go env -w GOFLAGS=-buildvcs=false` says not
# to: the tools record it in their version= (0.1.0-dev+4338ed07e126), so that
# swfstat --replay flags a file made by another build. Only in the root of a
# git checkout that git will read: elsewhere (a tarball, one unpacked inside
# another repository, whose commit it is not; a checkout git refuses as of
# another owner) nothing is stamped, as when GOFLAGS in the environment or
# BUILDVCS=false says -buildvcs=false.
ifneq (,$(findstring -buildvcs=false,$(GOFLAGS)))
BUILDVCS  ?= false
endif
# Compared in make, not in the shell: a path may hold quotes or blanks.
ifeq ($(shell git rev-parse --show-toplevel 2>/dev/null),$(CURDIR))
BUILDVCS  ?= auto
else
BUILDVCS  ?= false
endif

build:
	@mkdir -p $(BIN)
	$(GO) build -buildvcs=$(BUILDVCS) -o $(BIN)/ ./cmd/...

# Unit, golden, whole-trace and in-process command tests under the race detector,
# then the end-to-end cases that run the built binaries as processes (exit codes,
# pipes, compression).
# Tests that run real components (GNU parallel, Chromium, Python 3, Slurm) use what
# is installed and say loudly what they skip.
test: components unit e2e cross

# The commands build for macOS, Windows and 32-bit Linux too (the tests run on
# 64-bit Linux only; GOARCH=386 go test ./pkg/swf ./pkg/sim passes):
# platform-specific code stays behind build tags (internal/cli/cmdio/sys_*.go), and
# so do the tests that need Unix system calls (//go:build unix), so that go vet
# checks every package and its tests for Windows too.
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/...
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=linux GOARCH=386 $(GO) build -o /dev/null ./cmd/...

components:
	@bash scripts/components.sh check

# Installs the real components from Debian's packages (root), starts a single-node
# Slurm, and runs every TestIntegration* test; a missing component fails there.
test-integration: build
	GO=$(GO) bash scripts/integration.sh

# The packages whose tests build or run the commands as processes are run
# uncached (-count=1): go test's cache cannot see the sources of a binary a
# test builds, so it would replay an old pass after a change to a command.
PROCESS_TESTS := ./internal/adversarial ./examples/...
# pkg/policy's cross-checks take about 5 minutes under the race detector on
# two cores, near go test's default limit of 10 per package: the limit is
# raised so that a loaded machine does not fail them by the clock.
unit:
	$(GO) test -race -timeout 30m $$($(GO) list ./... | grep -v -e /internal/adversarial -e /examples/)
	$(GO) test -race -timeout 30m -count=1 $(PROCESS_TESTS)

e2e: build
	bash scripts/e2e.sh $(BIN)

# The adversarial suite (internal/adversarial; part of `unit`, where it builds
# the commands itself) alone, against bin/ or any SWFKIT_BIN directory.
adversarial: build
	SWFKIT_BIN=$${SWFKIT_BIN:-$(abspath $(BIN))} $(GO) test -count=1 ./internal/adversarial

demo: build
	bash scripts/demo.sh $(BIN) $(DEMO) $(OUT)

# Man pages and shell completion scripts, generated from the flag definitions
# that --help shows (internal/cli/gendocs).
man:
	$(GO) run ./internal/cli/gendocs -man man

completion:
	$(GO) run ./internal/cli/gendocs -completion completion

# make install PREFIX=$$HOME/.local (or DESTDIR=... for packaging): binaries,
# man pages, bash, zsh and fish completions where those shells look, and the
# example external policies (swfsim --help names them) in share/swfkit/policies.
install: build man completion
	install -d $(DESTDIR)$(PREFIX)/share/swfkit/policies
	install -m 755 examples/policies/*.py $(DESTDIR)$(PREFIX)/share/swfkit/policies/
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	for c in $(CMDS); do \
	  install -m 755 $(BIN)/$$c $(DESTDIR)$(PREFIX)/bin/$$c && \
	  install -m 644 man/$$c.1 $(DESTDIR)$(PREFIX)/share/man/man1/$$c.1 && \
	  install -m 644 completion/bash/$$c $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$c && \
	  install -m 644 completion/zsh/_$$c $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$c && \
	  install -m 644 completion/fish/$$c.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$c.fish || exit 1; \
	done

# Speed and memory benchmarks (the figures quoted in docs/ and in the issue notes).
SWEEPS := Reproductions|GAAggregateUtility|GADampingSelection|DegenerateCases|ResearchChecker|CheckAllTraces|EveryTrace|AllTraces|TrialRunWaits|RICCGrowth
# Regenerates cmd/swfsim/default.pgo, the profile `go build` uses to optimise
# swfsim (profile-guided optimisation; about a minute, needs RICC-2010-2).
pgo:
	GO=$(GO) bash scripts/pgo.sh

bench:
	$(GO) test -run '^$$' -bench . -skip '$(SWEEPS)' -benchmem -timeout 60m ./...

# Whole-trace sweeps kept out of `make test`: every policy through the schedule
# checker on every trace, the degenerate-case equalities, the published-result
# reproductions (BenchmarkReproductions fails when a published figure leaves its
# tolerance) and the GA utility experiments (about an hour on 2 cores).
sweeps:
	$(GO) test -run '^$$' -bench '$(SWEEPS)' -benchtime 1x -timeout 180m ./...
	$(GO) test -run 'Reference|Pruning' -timeout 60m ./pkg/policy -long

# A short run of every fuzz target (FUZZTIME each).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/func //'); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@if $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) -version >/dev/null 2>&1; then \
	  $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...; \
	else echo "staticcheck could not be installed from the module proxy; skipped"; fi

clean:
	rm -rf $(BIN) $(OUT) man completion
