# Dungji tasks. `make run` starts the whole system; `make test` runs every
# test. Both install what they need first (Debian packages when run as root,
# a private PostgreSQL cluster under .data/ when none answers).

GO        ?= go
DATA      := .data
BIN       := $(DATA)/bin
DUNGJI    := $(BIN)/dungji
APT_PKGS  := tesseract-ocr tesseract-ocr-kor poppler-utils fonts-nanum fonts-unfonts-core
export PATH := $(CURDIR)/$(BIN):$(PATH)

.DEFAULT_GOAL := help
.PHONY: help run test test-race bench chaos generate schema-release verify lint migrate deps versitygw build pg-down reset

help: ## Show this help
	@# Colour only on a terminal; the column fits the longest target.
	@if [ -t 1 ]; then on='\033[36m'; off='\033[0m'; else on=; off=; fi; \
	awk -v on="$$on" -v off="$$off" 'BEGIN {FS = ":.*## "} \
		/^[a-zA-Z_-]+:.*## / {n++; name[n] = $$1; text[n] = $$2; if (length($$1) > w) w = length($$1)} \
		END {print "usage: make TARGET"; for (i = 1; i <= n; i++) printf "  %s%-" w "s%s  %s\n", on, name[i], off, text[i]}' $(MAKEFILE_LIST)

run: deps web/static/app.js build ## Run API, workers and console on embedded defaults (.data/bin/dungji serve; Ctrl-C stops it)
	@# The binary itself, not go run: on Ctrl-C it shuts down and exits 0, and make reports no error.
	ENV=$${ENV:-development} $(DUNGJI) serve

test: deps versitygw web-build build web-deps browser-deps ## Run every test on real Postgres and real S3 servers (-race wherever the code runs goroutines)
	@# gotestsum (a go tool of this module) runs go test -json and prints a line per test as it ends, every failure in
	@# full and a summary; each run's events stay in .data/test-*.json (go tool gotestsum tool slowest --jsonfile FILE).
	@# Two runs at once. The first: the server package and the light packages, with -race, then the fuzz runs, then
	@# the pure-computation packages (jobs/analysis, jobs/ocr/pageimage: regular expressions and pixel loops, no
	@# goroutine outside their tests) without it, where the race detector has no interleaving to check and made them
	@# 2× to 50× slower, then jobs/issuer with -race. The second, at the lowest CPU priority (nice 19) so that the
	@# server's tests of uploads, browsers and live streams, whose hang guards count seconds, get the cores first: the
	@# service and image packages (jobs and its capability packages, jobs/ocr/engine) with -race. The two end about
	@# together: run after the second, the fuzz and computation runs were the last two minutes with one run left; with
	@# jobs/issuer in the second, it ended two minutes after the first (530 s against 420). -p 3, one
	@# test binary more than cores, and the server run's tests three at a time (-parallel 3): most tests spend much of their time waiting on processes, browsers, sockets and
	@# timers. At four the server run took 335 s instead of 451 s, but 94 connections of PostgreSQL's 100
	@# were open at once (each test app has its pools). The image tests read their corpora's hardest copies
	@# (DUNGJI_TEST_FULL_CORPUS=1 reads every one). -timeout is for a hung test.
	@# -trimpath: the compiled packages' cache keys then leave out the checkout's directory, so that a clean clone
	@# elsewhere (as CI's) reuses what an earlier run compiled instead of compiling the module again under -race
	@# (about 100 CPU-s before any test starts; two packages alone, 36 CPU-s against 6).
	@# The fuzz budget is a count, not a duration: with -fuzztime 10s, Go 1.26's fuzz coordinator can fail
	@# the run with a bare "context deadline exceeded" as the time runs out (golang/go#75804, fixed in 1.27).
	@$(GO) build -o $(BIN)/gotestsum gotest.tools/gotestsum || exit 1; \
	echo "make test: two runs at once, a line per test as it ends; about 8 min with its test binaries compiled on 2 cores, 12 without, 20 on a fresh machine (README)"; \
	mod=$$($(GO) list -m) || exit 1; \
	raced="$$mod/jobs $$mod/jobs/core $$mod/jobs/issuance $$mod/jobs/ocrtask $$mod/jobs/hub $$mod/jobs/watcher $$mod/jobs/reconcile $$mod/jobs/ocr/engine"; plain="$$mod/jobs/analysis $$mod/jobs/ocr/pageimage"; issuer="$$mod/jobs/issuer"; \
	rest=$$($(GO) list ./... | grep -v -x -F -e $$mod/server $$(for p in $$raced $$plain $$issuer; do printf -- '-e %s ' $$p; done)) || exit 1; \
	url="$${TEST_DATABASE_URL:-$$($(DUNGJI) pg up)}" || exit 1; \
	export TEST_DATABASE_URL="$$url" DUNGJI_REQUIRE_VERSITYGW=1 DUNGJI_REQUIRE_NODE=$$(command -v npm >/dev/null 2>&1 && echo 1) DUNGJI_REQUIRE_BROWSER=$$(test -x /usr/bin/chromium && echo 1); \
	sum="$(BIN)/gotestsum --format testname --format-icons text"; \
	nice -n 19 $$sum --jsonfile $(DATA)/test-service.json -- -trimpath -race -count=1 -p 3 -timeout 20m $$raced & second=$$!; \
	$$sum --jsonfile $(DATA)/test-server.json -- -trimpath -race -count=1 -p 3 -parallel 3 -timeout 20m $$mod/server $$rest; rc=$$?; \
	$(GO) test -trimpath -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 5000x -fuzzminimizetime 100x -timeout 5m ./jobs/analysis/ || rc=1; \
	$(GO) test -trimpath -run '^$$' -fuzz '^FuzzOperationBounds$$' -fuzztime 20000x -fuzzminimizetime 100x -timeout 5m ./server/httpapi/ || rc=1; \
	$$sum --jsonfile $(DATA)/test-computation.json -- -trimpath -count=1 -p 2 -timeout 20m $$plain || rc=1; \
	$$sum --jsonfile $(DATA)/test-issuer.json -- -trimpath -race -count=1 -timeout 20m $$issuer || rc=1; \
	wait $$second || rc=1; \
	$(DUNGJI) pg down; \
	[ $$rc -eq 0 ] && echo "make test: every run passed" || echo "make test: FAILED (each run's summary is above; events in $(DATA)/test-*.json)"; \
	exit $$rc

test-race: test ## Same as test (-race wherever the code runs goroutines)

bench: deps build ## Run the benchmarks once (raw output: stderr and .data/bench/raw.txt); print one markdown table, each figure beside its baseline
	@# -v: without it go test prints nothing for a skipped benchmark; -p 1: no package builds while another's benchmarks run.
	@mkdir -p $(DATA)/bench && $(GO) build -o $(BIN)/benchtable ./server/cmd/benchtable || exit 1; \
	url="$${TEST_DATABASE_URL:-$$($(DUNGJI) pg up)}" || exit 1; \
	{ TEST_DATABASE_URL="$$url" $(GO) test -v -p 1 -run '^$$' -bench . -benchtime 1x -timeout 20m ./... 2>&1; echo $$? >$(DATA)/bench/rc; } \
		| tee $(DATA)/bench/raw.txt /dev/stderr | $(BIN)/benchtable -db "$$url" -source $(DATA)/bench/raw.txt; trc=$$?; \
	$(DUNGJI) pg down; rc=$$(cat $(DATA)/bench/rc); [ "$$rc" = 0 ] || exit $$rc; exit $$trc

chaos: deps versitygw build ## Run api + 2 workers under faults (kill -9, pg restart, S3 outage, lost callbacks); one table, exit 1 on a wrong figure
	$(GO) run ./server/cmd/chaos -bin $(DUNGJI) -versitygw $(BIN)/versitygw

generate: ## After a change to graph/*.graphqls: gqlgen's code, the served schema (graph/schema.graphql), the console's types (web/src/gql) and bundle
	$(GO) tool gqlgen generate --config gqlgen.yml
	@# The contract (docs/api.md): the schema as served, printed; then the console's typed documents
	@# (graphql-codegen reads graph/schema.graphql), type-checked and bundled by web-build.
	$(GO) run ./server/cmd/schemafile
	@$(MAKE) --no-print-directory web-build

schema-release: ## Release the API contract: graph/schema.graphql becomes graph/schema.baseline.graphql; graph/breaking-changes.txt is emptied
	$(GO) run ./server/cmd/schemafile -release

verify: ## Fail when generated code (gqlgen, graph/schema.graphql, web/src/gql, the console bundle) is stale, go.mod is untidy or a document's relative link is broken
	@$(MAKE) --no-print-directory generate
	@$(GO) mod tidy
	@$(GO) run ./server/cmd/doclinks
	@git diff --exit-code -- graph go.mod go.sum web/src web/static || { echo "generated code or go.mod is stale: run make generate / go mod tidy and commit"; exit 1; }
	@new=$$(git ls-files --others --exclude-standard -- graph web/src web/static); [ -z "$$new" ] || { echo "generated files not committed:"; echo "$$new"; exit 1; }

lint: ## gofmt and go vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet ./...

migrate: build ## Apply migrations to DATABASE_URL (or the development database)
	$(DUNGJI) migrate up

build: ## Build the binary into .data/bin/dungji
	@mkdir -p $(BIN)
	@# -trimpath: a clean clone elsewhere reuses the compiled packages (their cache keys leave out the directory).
	$(GO) build -trimpath -o $(DUNGJI) ./server

.PHONY: web-deps
web-deps: ## Install the npm packages of the JavaScript client tests (web/node_modules)
	@command -v npm >/dev/null 2>&1 || { echo "web-deps: npm not found, skipping; the JavaScript client tests will be skipped (install Node.js 20+ with npm)"; exit 0; }; \
	$(MAKE) --no-print-directory web/node_modules/.stamp

web/node_modules/.stamp: web/package.json web/package-lock.json
	npm ci --prefix web --no-audit --no-fund
	@touch $@

# make run rebuilds the committed console bundle only when its sources are newer, so a fresh
# clone starts without npm (the bundle and GraphiQL's files are committed).
web/static/app.js: $(wildcard web/src/*.ts web/src/gql/*.ts) graph/schema.graphql web/codegen.yml web/build.mjs web/package.json web/package-lock.json
	@$(MAKE) --no-print-directory web-build

.PHONY: web-build browser-deps
web-build: web-deps ## Build the console: typed documents (web/src/gql, from graph/schema.graphql), tsc, web/src → web/static/app.js (committed; deterministic)
	@command -v npm >/dev/null 2>&1 || { echo "web-build: npm not found, serving the committed web/static/app.js"; exit 0; }; \
	npm run --prefix web --silent build

browser-deps: ## Install Debian chromium for the browser tests (as root), or say how
	@test -x /usr/bin/chromium && exit 0; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "installing: chromium"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	else \
		echo "browser-deps: /usr/bin/chromium is missing, the browser tests will be skipped; install it with: sudo apt-get install chromium"; \
	fi

versitygw: ## Build the versitygw S3 gateway the S3 tests also run against
	@bash jobs/blob/versitygw.sh >/dev/null

reset: build ## Forget this checkout's development state: drop its database, delete .data/ but bin/
	$(DUNGJI) reset

pg-down: build ## Stop the private PostgreSQL cluster, if one was started
	$(DUNGJI) pg down

deps: ## Install missing Debian packages (as root), or say which are missing
	@missing=""; \
	for p in $(APT_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then missing="$$missing postgresql"; fi; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "missing Debian packages:$$missing"; echo "install them with: sudo apt-get install$$missing"; exit 1; \
		fi; \
	fi
