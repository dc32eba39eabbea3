# Outorga — developer and operator entry points. `make run` serves the demo, `make test` runs everything.
# Every step is idempotent: stamps inside .venv/ and node_modules/ record what is already installed, so a
# second run only redoes what changed (a new lock file reinstalls, an unchanged one does not).

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
# Recipes are multi-line shell scripts; each prints its own "==>" lines instead of echoing its source.
.SILENT:
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
NPM ?= npm
CHROMIUM ?= /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 3
PYTEST_ARGS ?=
# The whole suite must run its browser tests; a subset picked with PYTEST_ARGS may have none.
REQUIRE_BROWSER := $(if $(strip $(PYTEST_ARGS)),0,1)
BROWSER_NOTE := $(if $(strip $(PYTEST_ARGS)),a subset: browser tests optional,browser tests required)
PG_URL ?= postgresql://postgres@127.0.0.1:5432
UV ?= $(firstword $(wildcard /tmp/tools/venv/bin/uv) $(shell command -v uv 2>/dev/null))

VENV_STAMP := $(VENV)/.outorga-venv
BASE_STAMP := $(VENV)/.outorga-base
DEV_STAMP := $(VENV)/.outorga-dev
NODE_STAMP := node_modules/.outorga-npm
STATIC_STAMP := staticfiles/.outorga-collected
# Every project static file (ours and the apps'), so collectstatic reruns when one changes.
STATIC_SOURCES := $(shell find static apps -path '*/static/*' -type f 2>/dev/null)

.PHONY: help run serve worker scheduler install install-dev assets static migrate seed test pytest lawcode-test test-pg lint \
	lock bench check-chromium check-system check-system-run check-system-pg clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

# --- environment -------------------------------------------------------------------------------------

$(VENV_STAMP):
	echo "==> Creating the virtual environment in $(VENV)/"
	$(PYTHON) -m venv $(VENV)
	touch $@

$(BASE_STAMP): requirements/base.txt | $(VENV_STAMP)
	echo "==> Installing Python dependencies (requirements/base.txt, hash-checked)"
	$(PIP) install --quiet --require-hashes -r requirements/base.txt
	touch $@

$(DEV_STAMP): requirements/base.txt requirements/dev.txt | $(VENV_STAMP)
	echo "==> Installing Python dependencies (requirements/base.txt + dev.txt, hash-checked)"
	$(PIP) install --quiet --require-hashes -r requirements/base.txt -r requirements/dev.txt
	touch $(BASE_STAMP) $@

# --ignore-scripts: the assets are plain files; no package needs to run code at install time.
$(NODE_STAMP): package.json package-lock.json
	echo "==> Installing front-end packages (npm ci)"
	$(NPM) ci --ignore-scripts --no-audit --no-fund
	touch $@

$(STATIC_STAMP): $(NODE_STAMP) $(BASE_STAMP) outorga/settings.py $(STATIC_SOURCES)
	echo "==> Collecting static files into staticfiles/"
	$(PY) manage.py collectstatic --noinput --verbosity 0
	touch $@

install: check-system-run $(BASE_STAMP) $(NODE_STAMP) ## Install runtime dependencies (Python and front-end)
install-dev: $(DEV_STAMP) $(NODE_STAMP) ## Install runtime and test/lint dependencies
assets: $(NODE_STAMP) ## Install the front-end packages (gov.br DS, HTMX, fonts) with npm ci
static: $(STATIC_STAMP) ## Collect static files into staticfiles/ (served by WhiteNoise)

# --- running ------------------------------------------------------------------------------------------

migrate: $(BASE_STAMP) ## Check the database connection, then apply migrations and create the cache table
	$(PY) manage.py outorga_dbcheck
	echo "==> Applying migrations"
	$(PY) manage.py migrate --noinput
	# The database cache shared by every worker (rate limits, proof-of-work tokens); idempotent.
	$(PY) manage.py createcachetable

seed: migrate ## Load the demo data (idempotent) and print the demo logins
	echo "==> Loading demo data"
	$(PY) manage.py seed_demo

run: install static seed serve ## From a clean clone: install, migrate, load the demo and serve on 127.0.0.1:8000

# The web server, the task worker and the scheduler together; Ctrl+C (or any of them ending) stops all three.
serve: $(BASE_STAMP) ## Serve with gunicorn, the task worker and the scheduler (no setup steps)
	echo "Outorga em http://$(HOST):$(PORT)/ (Ctrl+C para parar), com a fila de tarefas e o agendador"
	pids=()
	trap 'kill "$${pids[@]}" 2>/dev/null; wait' EXIT
	$(PY) manage.py db_worker --no-reload --no-startup-delay & pids+=($$!)
	$(PY) manage.py outorga_scheduler & pids+=($$!)
	$(VENV)/bin/gunicorn outorga.wsgi:application --bind $(HOST):$(PORT) --workers $(WORKERS) \
		--worker-class sync --timeout 60 --access-logfile - --error-logfile - & pids+=($$!)
	wait -n "$${pids[@]}"

worker: $(BASE_STAMP) ## Only the task worker (manage.py db_worker), as its own service in production
	exec $(PY) manage.py db_worker --no-reload

scheduler: $(BASE_STAMP) ## Only the scheduler of the periodic jobs (manage.py outorga_scheduler)
	exec $(PY) manage.py outorga_scheduler

# --- tests ----------------------------------------------------------------------------------------------

# The system packages come from the one list in README.md (tools/system-packages reads it). A Chromium at
# another path (CHROMIUM=...) stands in for the chromium package.
SKIP_CHROMIUM_PACKAGE := $(if $(filter /usr/bin/chromium,$(CHROMIUM)),,chromium)
check-system-run: ## Check the system packages make run needs (the README's list)
	tools/system-packages offer run

check-system: ## Check the system packages make test needs (the README's list)
	SYSTEM_PACKAGES_SKIP="$(SKIP_CHROMIUM_PACKAGE)" tools/system-packages offer run test
	$(MAKE) check-chromium

check-system-pg:
	tools/system-packages check test-pg

check-chromium:
	if [ ! -x "$(CHROMIUM)" ]; then
		echo "ERROR: Chromium not found at $(CHROMIUM); browser tests cannot run." >&2
		echo "Install it with: apt-get install chromium   (or pass CHROMIUM=/path/to/chromium)" >&2
		exit 1
	fi

# Both halves always run, so one report shows every failure; the target fails if either did.
test: ## Run the whole suite: pytest (unit, integration, browser) and the law scenarios
	status=0
	$(MAKE) pytest || status=1
	$(MAKE) lawcode-test || status=1
	exit "$$status"

# pytest exits 5 when it collected nothing: that is a broken suite, never a pass.
pytest: check-system $(DEV_STAMP) $(STATIC_STAMP) ## Run pytest only (PYTEST_ARGS=... to pass options)
	export OUTORGA_REQUIRE_BROWSER=$(REQUIRE_BROWSER) OUTORGA_CHROMIUM="$(CHROMIUM)"
	status=0
	echo "==> pytest ($(BROWSER_NOTE))"
	$(PY) -m pytest $(PYTEST_ARGS) || status=$$?
	if [ "$$status" -eq 5 ]; then
		echo "ERROR: pytest collected no tests (exit 5). The suite is broken, not green." >&2
		exit 1
	fi
	exit "$$status"

# The engine is tested with Django switched off (-p no:django, no project conftest above lawcode/): it needs
# no database and no settings, and this run proves it. Both halves run; the target fails if either did.
lawcode-test: $(DEV_STAMP) ## Run the law engine's tests without Django, then the law scenario files
	status=0
	echo "==> lawcode unit tests, without Django (pytest -p no:django lawcode)"
	$(PY) -m pytest -q -p no:django --confcutdir=lawcode lawcode || status=$$?
	echo "==> Law scenarios: python -m lawcode test lawcode/regimes"
	$(PY) -m lawcode test lawcode/regimes || status=1
	echo "==> What the apps ask that a regime leaves open: python -m lawcode doctor"
	$(PY) -m lawcode doctor || status=1
	exit "$$status"

# A throwaway database per run: created, used by pytest (which makes its own test_ copy), always dropped.
test-pg: check-system check-system-pg $(DEV_STAMP) $(STATIC_STAMP) ## Run pytest against PostgreSQL on 127.0.0.1:5432
	db="outorga_ci_$$$$_$$(date +%s)"
	psql_admin() { PGOPTIONS="-c client_min_messages=warning" psql "$(PG_URL)/postgres" -v ON_ERROR_STOP=1 --quiet --no-psqlrc "$$@"; }
	drop_databases() {
		psql_admin -c "DROP DATABASE IF EXISTS test_$$db WITH (FORCE)"
		psql_admin -c "DROP DATABASE IF EXISTS $$db WITH (FORCE)"
	}
	psql_admin -c "CREATE DATABASE $$db"
	trap drop_databases EXIT
	export DATABASE_URL="$(PG_URL)/$$db" OUTORGA_REQUIRE_BROWSER=$(REQUIRE_BROWSER) OUTORGA_CHROMIUM="$(CHROMIUM)"
	echo "==> pytest against PostgreSQL (throwaway database $$db; $(BROWSER_NOTE))"
	status=0
	$(PY) -m pytest $(PYTEST_ARGS) || status=$$?
	if [ "$$status" -eq 5 ]; then
		echo "ERROR: pytest collected no tests on PostgreSQL (exit 5)." >&2
		exit 1
	fi
	exit "$$status"

# --- quality --------------------------------------------------------------------------------------------

lint: $(DEV_STAMP) ## ruff (lint + format), mypy, import-linter, writes only in services, dead code, missing migrations
	status=0
	run() { echo "==> $$*"; "$$@" || { status=1; echo "FAILED: $$*" >&2; }; }
	run $(VENV)/bin/ruff check .
	run $(VENV)/bin/ruff format --check .
	run $(VENV)/bin/mypy
	run $(VENV)/bin/lint-imports --no-cache
	run $(PY) tools/check_writes.py
	run $(PY) tools/check_audit.py
	run $(PY) tools/check_dead_code.py
	run $(PY) manage.py makemigrations --check --dry-run
	exit "$$status"

# The lock files carry exact versions and hashes, so installs are reproducible from PyPI alone.
lock: ## Regenerate requirements/*.txt from requirements/*.in (needs uv)
	if [ -z "$(UV)" ]; then echo "ERROR: uv not found; install it (pipx install uv) or pass UV=/path/to/uv" >&2; exit 1; fi
	for name in base dev; do
		"$(UV)" pip compile --python-version 3.11 --generate-hashes --no-header \
			--index-url https://pypi.org/simple requirements/$$name.in -o requirements/$$name.txt
	done

# Every benchmark at one scale (SCALE=1 is São Paulo, 300,000 vehicles; 0.1 takes minutes on 2 cores), each on a
# PostgreSQL database of its own (outorga_bench_<name>, kept between runs: the scripts reuse or replace only their
# synthetic municipality), ROUNDS rounds of baseline and Outorga interleaved; ONE table of medians at the end.
# BENCH=benchmarks/x.py picks scripts.
SCALE ?= 0.1
ROUNDS ?= 3
BENCH ?=
bench: $(DEV_STAMP) ## Run every benchmark (SCALE=0.1 ROUNDS=3 BENCH=benchmarks/x.py) and print one table
	PG_URL="$(PG_URL)" $(PY) benchmarks/run.py --scale "$(SCALE)" --rounds "$(ROUNDS)" $(BENCH)

clean: ## Remove collected static files and caches (keeps .venv, node_modules and the database)
	rm -rf staticfiles .pytest_cache .mypy_cache .ruff_cache .import_linter_cache test-results
