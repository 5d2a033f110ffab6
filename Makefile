# commerce — `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO ?= go
# make test PKG=./rest/... TESTFLAGS='-run TestRateLimit -v'
PKG ?= ./...
TESTFLAGS ?=
# make cluster SERVERS=3 WORKERS=2
SERVERS ?= 2
WORKERS ?= 1
# make soak SOAK_DURATION=30m (a Go duration); SOAK_TIMEOUT must exceed it
# by a few minutes.
SOAK_DURATION ?= 10m
SOAK_TIMEOUT ?= 2h
# govulncheck's database: vuln.go.dev when it answers, otherwise the local
# copy in VULNDB_DIR (a directory of OSV files GO-*.json, such as data/osv of
# golang.org/x/vulndb, or a database in govulncheck's v1 layout): by default
# ../shared/vulndb when it exists (the offline copy beside the repository that
# CI has), else .data/vulndb. Setting VULNDB=URL (https://… or file:///…) uses
# that and nothing else.
VULNDB ?=
VULNDB_DIR ?= $(if $(wildcard ../shared/vulndb/index/modules.json),../shared/vulndb,.data/vulndb)
vulndb_dir := $(abspath $(VULNDB_DIR))

.PHONY: help
help: ## Show this help
	@echo "Usage: make TARGET"
	@echo
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-14s %s\n", $$1, $$2}'

.PHONY: run
run: ## Start PostgreSQL and Redis (in .data/), migrate, create a dev API key, serve on :8080
	scripts/run.sh

.PHONY: test
test: ## Run the tests against throwaway PostgreSQL and Redis (PKG=…, TESTFLAGS=…)
	scripts/services.sh test -- $(GO) test -race -count=1 -timeout 15m $(TESTFLAGS) $(PKG)

.PHONY: alerts
alerts: ## Check the alerting rules and the example Prometheus configuration with promtool, and run the rules' unit tests (deploy/prometheus; also in make test)
	@command -v promtool >/dev/null || { echo "alerts: promtool is missing: apt-get install --no-install-recommends prometheus (make test installs it)" >&2; exit 1; }
	cd deploy/prometheus && promtool check rules alerts.yml && promtool check config prometheus.yml && promtool test rules alerts_test.yml

.PHONY: drill
drill: ## Crash drills: kill -9 `commerce serve` during 200 purchases (every webhook out, one download email per buyer within 20 s of the restart), during a sweep of 200 due membership renewals (each renewed and charged once, one receipt per buyer; real SMTP sink, one Message-ID), and of River's leader (drill-leader)
	scripts/services.sh test -- env COMMERCE_DRILL=1 $(GO) test -count=1 -timeout 10m -run 'TestKillDuringPurchases|TestKillDuringRenewals|TestKillLeader' -v ./drill/

.PHONY: drill-leader
drill-leader: ## Leader-kill drill: kill -9 River's leader (one of two working processes) during 200 purchases and expiring checkouts; periodic work again within 10 s, every email and webhook out, nothing duplicated (figures printed)
	scripts/services.sh test -- env COMMERCE_DRILL=1 $(GO) test -count=1 -timeout 10m -run 'TestKillLeader$$' -v ./drill/

.PHONY: cluster
cluster: ## SERVERS (default 2) `serve --no-worker` and WORKERS (default 1) `worker` processes behind nginx, PgBouncer, PostgreSQL and Redis; prints the URL, runs until Ctrl-C (docs/operations.md)
	SERVERS=$(SERVERS) WORKERS=$(WORKERS) scripts/cluster.sh run

.PHONY: cluster-test
cluster-test: ## The cluster on free ports, the end-to-end tests of ./cluster/ through nginx (REST, GraphQL subscription, MCP, console API, revocation, kill -9 of a serving process during a POST), then stop
	SERVERS=$(SERVERS) WORKERS=$(WORKERS) scripts/cluster.sh test

.PHONY: soak
soak: ## Soak: mixed traffic against `commerce serve` for SOAK_DURATION (default 10m); fails when RSS, goroutines, connections or queues grow
	scripts/services.sh test -- env COMMERCE_SOAK=1 SOAK_DURATION=$(SOAK_DURATION) $(GO) test -count=1 -timeout $(SOAK_TIMEOUT) -run 'TestSoak$$' -v ./soak/

.PHONY: lighthouse
lighthouse: ## Lighthouse (mobile defaults, Debian's chromium) on a product, store, thank-you and download page: prints the four scores per page, fails below 95 (the median of three runs for a page under it)
	cd lighthouse && npm ci --no-audit --no-fund --loglevel=error
	scripts/services.sh test -- env COMMERCE_LIGHTHOUSE=1 CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(GO) test -count=1 -timeout 10m -run 'TestLighthouse$$' -v ./lighthouse/

.PHONY: build
build: ## Build bin/commerce
	$(GO) build -o bin/commerce ./cmd/commerce

.PHONY: generate
generate: console-deps ## Regenerate the GraphQL code with gqlgen (gqlgen.yml) and the direct marshaller (cmd/gqlgen → graph/fast_gen.go), docs/graphql.md (rest/routes.go), the MCP tools (mcp/tools_gen.go) and the console's typed operations (console/src/gql)
	$(GO) run ./cmd/gqlgen
	$(GO) run ./cmd/graphqldoc docs/graphql.md
	$(GO) run ./cmd/mcpgen mcp/tools_gen.go
	cd console && npx --no-install graphql-codegen --config codegen.yml --silent

# The console's npm packages, exactly as console/package-lock.json pins them
# (installed again when the lock file changes).
.PHONY: console-deps
console-deps: console/node_modules/.package-lock.json
console/node_modules/.package-lock.json: console/package-lock.json
	cd console && npm ci --no-audit --no-fund

.PHONY: console
console: ## Build console/dist (the embedded console) from a clean npm ci: typecheck, vite build, first-screen size check
	cd console && npm ci --no-audit --no-fund && npx --no-install graphql-codegen --config codegen.yml --silent && npm run build

.PHONY: verify
verify: generate console ## Fail when generated code, the built console, go.mod or go.sum are out of date
	$(GO) mod tidy
	@changes=$$(git status --porcelain -- graph docs/graphql.md go.mod go.sum mcp/tools_gen.go console/src/gql console/dist); \
	if [ -n "$$changes" ]; then \
		echo "$$changes"; \
		echo "verify: generated code, console/dist or go.mod/go.sum are out of date: run 'make generate', 'make console' and 'go mod tidy' and commit the result" >&2; \
		exit 1; \
	fi

.PHONY: lint
lint: ## gofmt check, go vet and staticcheck
	@unformatted=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go') </dev/null); \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files need formatting (gofmt -w):" >&2; \
		echo "$$unformatted" >&2; \
		exit 1; \
	fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

.PHONY: vuln
vuln: ## govulncheck (vuln.go.dev, or offline the OSV files in VULNDB_DIR)
	@if [ -n "$(VULNDB)" ]; then \
		db="$(VULNDB)"; \
	elif timeout 5 bash -c ': >/dev/tcp/vuln.go.dev/443' 2>/dev/null; then \
		db=https://vuln.go.dev; \
	elif [ -f "$(vulndb_dir)/index/modules.json" ] || compgen -G "$(vulndb_dir)/*.json" >/dev/null; then \
		db="file://$(vulndb_dir)"; \
	else \
		echo "vuln: vuln.go.dev cannot be reached and there is no local database in $(vulndb_dir)." >&2; \
		echo "vuln: put the OSV files (GO-*.json, e.g. data/osv of golang.org/x/vulndb) there, or set VULNDB=file:///DIR or an https URL." >&2; \
		exit 1; \
	fi; \
	echo "govulncheck -db $$db ./..."; \
	$(GO) tool govulncheck -db "$$db" ./...

.PHONY: bench
bench: ## Load benchmarks (scripts/bench.sh)
	scripts/bench.sh

.PHONY: profile
profile: ## Where one bench scenario's time goes: CPU per process, pprof, pg_stat_statements (SCENARIO=name)
	scripts/profile.sh $(SCENARIO)

.PHONY: refresh-disposable-domains
refresh-disposable-domains: ## Refresh the disposable email domain list from npm (VERSION=…)
	scripts/refresh-disposable-domains.sh $(VERSION)

.PHONY: graphiql
graphiql: ## Refresh the GraphQL IDE's embedded files (server/graphiql/vendor) from npm at the pinned versions
	scripts/graphiql.sh

.PHONY: apidocs
apidocs: ## Refresh the API reference's embedded Redoc (server/apidocs/vendor) from npm at the pinned version
	scripts/apidocs.sh

.PHONY: services-stop
services-stop: ## Stop the development PostgreSQL and Redis
	scripts/services.sh stop

.PHONY: clean
clean: ## Remove build output (bin/; .data/ stays)
	rm -rf bin

.PHONY: drill-failover
drill-failover: ## Failover drill: pg_auto_failover (monitor + two nodes, synchronous) fails the primary over during a purchase stream; writes again within 30 s of the promotion, every LISTEN back, no paid order lost or doubled, webhooks and emails once
	scripts/failover.sh test -- scripts/services.sh test -- env COMMERCE_DRILL=1 $(GO) test -count=1 -timeout 10m -run 'TestFailover$$' -v ./drill/
