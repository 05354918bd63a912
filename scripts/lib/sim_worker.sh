#!/usr/bin/env bash
# scripts/run's simulator worker: starts at once (on the pure-Python simulator while the mypyc
# build runs behind it, var/build_sim.pid) and, when that build ends, restarts on it. A chunk a
# worker held when told to stop is re-sent (tasks are acknowledged late): nothing is lost.
# Stops its worker and exits on TERM or INT.
set -uo pipefail
cd "$(dirname "$0")/../.."
worker_pid=""
start() {
  .venv/bin/celery -A fleetbuilder worker --concurrency "${SIM_WORKERS:-1}" --pool prefork \
    --hostname "sim-run-$$-$1@%h" --loglevel WARNING --without-gossip --without-mingle &
  worker_pid=$!
}
stop() { [ -n "$worker_pid" ] && kill -TERM "$worker_pid" 2>/dev/null; wait "$worker_pid" 2>/dev/null; }
trap 'stop; exit 0' TERM INT
start 1
build_pid=$(cat var/build_sim.pid 2>/dev/null || true)
if [ -n "$build_pid" ]; then
  while kill -0 "$build_pid" 2>/dev/null; do
    kill -0 "$worker_pid" 2>/dev/null || exit 1  # the worker died: let scripts/run stop
    sleep 2
  done
  rm -f var/build_sim.pid
  if .venv/bin/python scripts/build_sim.py current; then
    echo "run: the compiled simulator is ready; restarting the worker on it"
    stop
    start 2
  else
    echo "run: the simulator stays pure Python (see var/build_sim.log)" >&2
  fi
fi
wait "$worker_pid"
