# Shared by scripts/test and the bench-* commands (sourced, not run): a private PostgreSQL
# cluster in a temporary folder, on a free port of 127.0.0.1, trusting local connections, and
# removed when stopped. As root the server runs as the postgres user.
#
#   pg_private_start NAME [SETTING...]   sets PG_BIN, PG_DIR and PG_PORT; each SETTING is a
#                                        server setting (fsync=off); NAME names the folder and
#                                        the messages
#   pg_createdb DB                       an empty database DB on it
#   pg_private_stop                      stops it (fast, else immediate) and removes its folder;
#                                        safe before a start and twice

PG_DIR=""

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_private_start() {
  local name=$1 opts setting
  shift
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$PG_BIN" ]; then
    echo "$name: PostgreSQL binaries not found" >&2
    return 1
  fi
  PG_DIR=$(mktemp -d "/tmp/fleetbuilder-$name-pg.XXXXXX")
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$PG_DIR"; fi
  PG_PORT=$("${PY:-python3}" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  opts="-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR"
  for setting in "$@"; do opts="$opts -c $setting"; done
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -o "$opts" -w start >/dev/null
}

pg_createdb() {
  as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$1"
}

pg_private_stop() {
  [ -n "$PG_DIR" ] || return 0
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=""
}
