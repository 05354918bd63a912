#!/usr/bin/env bash
# Shared, idempotent set-up for scripts/run and scripts/test: Debian packages, a venv, the project.
# Safe to run again: each step checks before it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  chromium                 # browser tests (Playwright drives /usr/bin/chromium)
  poppler-utils            # pdftotext / pdfinfo / pdftoppm to read PDFs back
  postgresql               # the suite also runs on a private PostgreSQL cluster
  libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 libfontconfig1 libglib2.0-0
  fonts-dejavu-core        # WeasyPrint renders with the same font everywhere
  fonts-dejavu-extra       # DejaVu Sans Condensed for the ship cards (rules_core/cards)
  redis-server             # the cache and the simulator's task queue (scripts/serve, scripts/run, tests)
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
# Reinstall only when pyproject.toml changed since the last install.
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "setup: installing Python packages"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev,build]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi

# Compile the simulator's hot modules with mypyc into build/mypyc/, only when their
# sources changed since the last build (a stale build is deleted first; rules_core loads a build
# only when its manifest matches the sources). A failed build warns and leaves pure Python.
# With SIM_BUILD_BACKGROUND=1 (scripts/run) the build runs behind the app, which starts at once on
# the pure-Python simulator; scripts/lib/sim_worker.sh restarts the worker on the build when it
# is ready (var/build_sim.pid, log in var/build_sim.log).
if [ "${SIM_BUILD_BACKGROUND:-0}" = "1" ]; then
  mkdir -p var
  if .venv/bin/python scripts/build_sim.py current; then
    rm -f var/build_sim.pid
  else
    echo "setup: compiling the simulator in the background (var/build_sim.log); until it is" \
         "ready the simulator runs as pure Python: the same results, about 6x slower"
    nohup .venv/bin/python scripts/build_sim.py > var/build_sim.log 2>&1 &
    echo $! > var/build_sim.pid
  fi
else
  .venv/bin/python scripts/build_sim.py \
    || echo "setup: WARNING: the simulator runs as pure Python (scripts/build_sim.py failed)" >&2
fi

# A random SECRET_KEY for this machine, read by the settings when SECRET_KEY is unset, so that
# scripts/run, scripts/serve and every manage.py command work as written (kept private, 0600).
if [ ! -s var/secret_key ]; then
  mkdir -p var
  (umask 077; .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key)
fi
