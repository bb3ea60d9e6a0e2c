#!/usr/bin/env bash
# A streaming replica of $PRIMARY_HOST. On its first start (an empty data directory): a base
# backup of the primary as the replicator role (PGPASSWORD), with -R writing standby.signal and
# primary_conninfo. Then the image's own entrypoint, which finds the data directory initialised
# and starts postgres (the compose command) as a hot standby.
set -euo pipefail
: "${PRIMARY_HOST:?set PRIMARY_HOST}"
: "${PGPASSWORD:?set PGPASSWORD (the replication password)}"
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  until gosu postgres pg_basebackup --host="$PRIMARY_HOST" --username=replicator --pgdata="$PGDATA" \
    --write-recovery-conf --wal-method=stream --checkpoint=fast; do
    echo "replica: base backup of $PRIMARY_HOST failed; retrying in 5 s" >&2
    find "$PGDATA" -mindepth 1 -delete
    sleep 5
  done
fi
exec docker-entrypoint.sh "$@"
