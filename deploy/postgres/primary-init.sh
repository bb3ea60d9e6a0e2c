#!/usr/bin/env bash
# The primary's first start only (the postgres image runs /docker-entrypoint-initdb.d once, on an
# empty data directory): the role the replicas stream as, and the pg_hba line that lets it in
# (the image's own `host all all all` line does not cover replication connections).
set -euo pipefail
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" --set password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator all scram-sha-256" >>"$PGDATA/pg_hba.conf"
