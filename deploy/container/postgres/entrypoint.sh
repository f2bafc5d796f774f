#!/bin/sh
# The compose file's PostgreSQL with the two roles of docs/operations.md, "Database roles": POSTGRES_USER owns the
# database and its schema and runs the migrations (compose's migrate service); POSTGRES_API_USER (portal_api) is
# what the API replicas log in as, a member of the group role legal_mail_api that owns nothing, so a compromised
# API cannot drop or disable the audit log's append-only triggers.
# First start: the cluster, the owner and its database (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB), and
# password logins (scram-sha-256) from the compose network only.
# Every start, as the superuser on the local socket before the server listens: the group role and the API's login
# when missing, the login's password from .env (POSTGRES_API_PASSWORD: changing it there changes it here), and on
# a database migrated before the group role existed (a volume of an earlier release, whose owner could not create
# it, so migration 0007 skipped its grants) the rights migrations 0007, 0041 and 0042 grant it.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
: "${POSTGRES_API_PASSWORD:?set POSTGRES_API_PASSWORD}"
case "$POSTGRES_API_PASSWORD" in *change-me*)
  echo "POSTGRES_API_PASSWORD is still the example's placeholder: set it to a random value (openssl rand -hex 32)" >&2
  exit 1 ;;
esac
user="${POSTGRES_USER:-portal}"
db="${POSTGRES_DB:-portal}"
api="${POSTGRES_API_USER:-portal_api}"
fresh=
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --auth-local=peer --auth-host=scram-sha-256 --username=postgres --pwfile="$pwfile" >/dev/null
  rm -f "$pwfile"
  echo "host all all samenet scram-sha-256" >>"$PGDATA/pg_hba.conf"
  fresh=1
fi
pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
if [ -n "$fresh" ]; then
  psql -v ON_ERROR_STOP=1 -q -v user="$user" -v pw="$POSTGRES_PASSWORD" -v db="$db" <<'SQL'
CREATE ROLE :"user" LOGIN PASSWORD :'pw';
CREATE DATABASE :"db" OWNER :"user";
SQL
fi
psql -v ON_ERROR_STOP=1 -q -d "$db" -v user="$user" -v api="$api" -v apipw="$POSTGRES_API_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE legal_mail_api NOLOGIN'
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'legal_mail_api') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'api') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'api') \gexec
ALTER ROLE :"api" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'apipw';
SELECT NOT pg_has_role(:'api', 'legal_mail_api', 'MEMBER') AS join_group \gset
\if :join_group
GRANT legal_mail_api TO :"api";
\endif
SELECT to_regclass('public.schema_migrations') IS NOT NULL
  AND NOT has_table_privilege('legal_mail_api', 'public.schema_migrations', 'SELECT') AS regrant \gset
\if :regrant
-- As the owner, as the migrations ran: its default privileges then cover the tables later migrations create.
SET ROLE :"user";
GRANT USAGE ON SCHEMA public TO legal_mail_api;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO legal_mail_api;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO legal_mail_api;
REVOKE UPDATE, DELETE, TRUNCATE ON audit_logs FROM legal_mail_api;
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON schema_migrations FROM legal_mail_api;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO legal_mail_api;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO legal_mail_api;
DO $$
begin
  if to_regclass('public.audit_chain') is not null then
    revoke update, delete, truncate on audit_chain from legal_mail_api;
  end if;
  if to_regclass('public.audit_archives') is not null then
    revoke update, delete, truncate on audit_archives from legal_mail_api;
    grant execute on function archive_audit_rows(bigint) to legal_mail_api;
  end if;
end
$$;
RESET ROLE;
\endif
SQL
pg_ctl -w stop >/dev/null
exec postgres -c listen_addresses='*'
