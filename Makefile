# Turnwise: `make run` serves the site, `make test` runs every test.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

# A Python >= 3.12: PATH first, then pyenv's versions.
PYTHON ?= $(shell for p in python3.13 python3.12; do command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { command -v $$p; exit 0; }; done; \
	root=$$(pyenv root 2>/dev/null); for v in 3.13 3.12; do for d in $$(ls -d "$$root"/versions/$$v* 2>/dev/null | sort -rV); do [ -x "$$d/bin/python$$v" ] && { echo "$$d/bin/python$$v"; exit 0; }; done; done)

.PHONY: run test test-fast lint bench bench-bots install install-dev browser clean migrate worker catalogues

$(VENV)/.installed: requirements.txt
	@if [ -z "$(PYTHON)" ]; then echo "Turnwise needs Python 3.12 or newer (3.13 preferred); none found on PATH or in pyenv." >&2; exit 1; fi
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.txt
	@$(PY) -c 'import django, sys; sys.exit(0 if django.VERSION >= (6, 0) else "Django 6 or newer is required; found " + django.get_version())'
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PIP) install --quiet -r requirements-dev.txt
	@touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

# The translations (locale/, locale_django/, each game's locale/) compiled to the .mo files Django reads, with polib: no
# gettext needed. Only changed catalogues are compiled again (docs/i18n.md).
catalogues: install
	$(PY) tools/compile_catalogues.py

run: migrate catalogues
	@echo "Turnwise on http://$(HOST):$(PORT)/"
	$(PY) manage.py runserver $(HOST):$(PORT)

# The background work (computer players, clocks, emails) as its own process (production: BOT_RUNNER_IN_PROCESS=false in the web processes).
worker: migrate catalogues
	$(PY) manage.py run_worker

# Debian's Chromium for the browser tests (never a downloaded browser), and Debian's fonts for the scripts.
browser:
	@command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || { \
		echo "Installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || \
		{ echo "Could not install chromium: run 'apt-get install -y chromium' (as root)." >&2; exit 1; }; }
	@# Fonts for Assamese (Bengali-Assamese script) and Nepali (Devanagari), so the browser tests see them drawn.
	@fc-list 2>/dev/null | grep -qi "Noto Sans Bengali" && fc-list 2>/dev/null | grep -qi "Noto Sans Devanagari" || { \
		echo "Installing Debian's fonts-noto-core (Bengali-Assamese and Devanagari) for the browser tests"; \
		(apt-get update -qq && apt-get install -y -qq fonts-noto-core >/dev/null) || \
		{ echo "Could not install fonts-noto-core: run 'apt-get install -y fonts-noto-core' (as root)." >&2; exit 1; }; }

# Two runs: the browser tests' Playwright keeps an event loop in its process, which async tests
# (the WebSocket consumers) cannot share.
test: install-dev browser catalogues
	FAST_PASSWORD_HASHER=1 $(PY) -m pytest -q -n 2 --ignore=tests/e2e
	FAST_PASSWORD_HASHER=1 $(PY) -m pytest -q tests/e2e --ds=config.settings

test-fast: install-dev catalogues
	FAST_PASSWORD_HASHER=1 $(PY) -m pytest -q -n 2 --ignore=tests/e2e -m "not slow"

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: install-dev migrate
	$(PY) bench/bench_reversi.py
	@for g in dos tacocat backalley; do [ -f bench/bench_$$g.py ] && $(PY) bench/bench_$$g.py || true; done
	$(PY) manage.py bench_moves
	$(MAKE) bench-bots BENCH_BOTS_ARGS=--quick
	$(MAKE) bench-live

# Bot strength: every script in bench/bots/ (its helpers excepted), niced: the machine may be shared.
# BENCH_BOTS_ARGS=--quick for a short run. The games are played on seeds never used for tuning
# (bench/bots/stats.py FRESH_SEEDS), and every run's rows, ordered or not, are appended to the run log
# that docs/bots.md links (BENCH_BOTS_LOG= to keep a run out of it).
BENCH_BOTS_SEED ?= 10000000
BENCH_BOTS_LOG ?= docs/bots-runs.md
bench-bots: install-dev
	@for f in bench/bots/*.py; do \
		case "$$(basename $$f)" in stats.py|baselines.py|_*) continue;; esac; \
		echo "== $$f"; \
		nice -n 5 $(PY) $$f --seed $(BENCH_BOTS_SEED) $(if $(BENCH_BOTS_LOG),--log $(BENCH_BOTS_LOG)) $(BENCH_BOTS_ARGS) || exit 1; \
	done

# The live path under load: starts its own daphne, scripts real clients (SQLite, then PostgreSQL + Redis
# with one and two processes). About 6-8 minutes; BENCH_LIVE_ARGS="--quick" for a one-minute smoke run,
# "--json FILE" to keep the figures, "--no-postgres" without PostgreSQL and Redis. See docs/performance.md.
.PHONY: bench-live
bench-live: install-dev
	$(PY) -m bench.live $(BENCH_LIVE_ARGS)
	$(PY) -m bench.live.floor

clean:
	rm -rf $(VENV) .test-db*.sqlite3 staticfiles
	find locale locale_django games tests -name '*.mo' -delete 2>/dev/null || true

# Debian's nginx for the production recipe and its test (deploy/; never /etc/nginx's configuration).
.PHONY: nginx prod-up prod-down prod-status
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
		echo "Installing Debian's nginx for the production recipe"; \
		(apt-get update -qq && apt-get install -y -qq nginx >/dev/null) || \
		{ echo "Could not install nginx: run 'apt-get install -y nginx' (as root)." >&2; exit 1; }; }

# The production stack on this machine (docs/deployment.md): nginx with TLS in front of two daphne
# processes and a worker, on PostgreSQL and Redis, supervised by deploy/stack.py. Settings in
# PROD_ENV (made from deploy/env.example the first time).
PROD_ENV ?= deploy/local.env
prod-up: install nginx
	@[ -f $(PROD_ENV) ] || $(PY) deploy/stack.py local-env $(PROD_ENV)
	TURNWISE_ENV_FILE=$(PROD_ENV) $(PY) deploy/stack.py up

prod-down:
	TURNWISE_ENV_FILE=$(PROD_ENV) $(PY) deploy/stack.py down

prod-status:
	TURNWISE_ENV_FILE=$(PROD_ENV) $(PY) deploy/stack.py status
