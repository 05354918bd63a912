# Shared by scripts/serve and scripts/run (sourced, not run): a private Redis, and stopping every
# process a script started when it ends, is stopped (TERM, Ctrl-C) or one of them dies.

STACK_PIDS=()
STACK_STOPPING=0

# Ask every started process to stop, wait up to STOP_GRACE seconds, then kill what is left.
stack_stop() {
  [ "$STACK_STOPPING" -eq 1 ] && return 0
  STACK_STOPPING=1
  local pid
  for pid in "${STACK_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  local waited=0
  while [ "$waited" -lt "${STOP_GRACE:-20}" ]; do
    local alive=0
    for pid in "${STACK_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.5; waited=$((waited + 1))
  done
  for pid in "${STACK_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      echo "stack: process $pid did not stop in time; killing it" >&2
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
}

# Start "$@" in the background in its own process group, and remember it.
stack_spawn() {
  setsid "$@" &
  STACK_PIDS+=("$!")
}

# Wait until any started process ends, then stop the others; returns that process's status.
stack_wait() {
  local rc=0
  wait -n "${STACK_PIDS[@]}" || rc=$?
  if [ "$STACK_STOPPING" -eq 0 ]; then
    echo "stack: a process ended (status $rc); stopping the others" >&2
  fi
  stack_stop
  return "$rc"
}

stack_free_port() {
  "${PY:-.venv/bin/python}" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# A private redis-server on a free port of 127.0.0.1, with a random password and its data under
# var/redis/ (append-only file, so queued simulator chunks survive a restart of this script).
# Exports REDIS_URL.
stack_private_redis() {
  local dir="${REDIS_DIR:-var/redis}"
  mkdir -p "$dir"
  chmod 700 "$dir"
  local port password
  port=$(stack_free_port)
  password=$("${PY:-.venv/bin/python}" -c 'import secrets; print(secrets.token_hex(24))')
  local conf="$dir/redis.conf"
  umask 077
  cat > "$conf" <<CONF
bind 127.0.0.1
port $port
requirepass $password
dir $(cd "$dir" && pwd)
appendonly ${REDIS_APPENDONLY:-yes}
save ""
daemonize no
logfile ""
loglevel warning
CONF
  stack_spawn redis-server "$conf"
  export REDIS_URL="redis://:$password@127.0.0.1:$port/0"
  local i
  for i in $(seq 1 100); do
    if REDISCLI_AUTH="$password" redis-cli -p "$port" ping >/dev/null 2>&1; then
      echo "stack: private Redis on 127.0.0.1:$port (data in $dir)"
      return 0
    fi
    sleep 0.1
  done
  echo "stack: redis-server did not start" >&2
  return 1
}
