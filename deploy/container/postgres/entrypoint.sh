#!/bin/sh
# First start: create the cluster, the portal's role and database (POSTGRES_USER, POSTGRES_PASSWORD,
# POSTGRES_DB), and allow password logins (scram-sha-256) from the compose network only.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
user="${POSTGRES_USER:-portal}"
db="${POSTGRES_DB:-portal}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --auth-local=peer --auth-host=scram-sha-256 --username=postgres --pwfile="$pwfile" >/dev/null
  rm -f "$pwfile"
  echo "host all all samenet scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
  psql -v ON_ERROR_STOP=1 -q -v user="$user" -v pw="$POSTGRES_PASSWORD" -v db="$db" <<'SQL'
CREATE ROLE :"user" LOGIN PASSWORD :'pw';
CREATE DATABASE :"db" OWNER :"user";
SQL
  pg_ctl -w stop >/dev/null
fi
exec postgres -c listen_addresses='*'
