-- What the API's role (legal_mail_api) may do on the schema as the migrations leave it: read and write the data,
-- only insert into and read the append-only audit tables (audit_logs, audit_chain, audit_archives), only read
-- schema_migrations, and run archive_audit_rows. `npm run restore` makes these again after pg_restore, whose dump
-- carries no privileges (a dump must restore on another cluster); the migrations made them step by step (0007,
-- 0011, 0013, 0041, 0042), and tests/deploy/backup.test.ts holds a restored database's privileges to a migrated
-- one's. Idempotent; an object a backup from an earlier release does not have yet is skipped (the migrations
-- the portal applies at its next start make it, with its privileges); skipped as a whole, as in 0007, where the
-- cluster has no such role (one role does all).
do $$
begin
  if not exists (select from pg_roles where rolname = 'legal_mail_api') then
    raise notice 'legal_mail_api does not exist: grants skipped';
    return;
  end if;
  grant usage on schema public to legal_mail_api;
  grant select, insert, update, delete on all tables in schema public to legal_mail_api;
  grant usage, select on all sequences in schema public to legal_mail_api;
  revoke insert, update, delete, truncate on schema_migrations from legal_mail_api;
  revoke update, delete, truncate on audit_logs from legal_mail_api;
  if to_regclass('audit_chain') is not null then
    revoke update, delete, truncate on audit_chain from legal_mail_api;
  end if;
  if to_regclass('audit_archives') is not null then
    revoke update, delete, truncate on audit_archives from legal_mail_api;
  end if;
  if to_regprocedure('archive_audit_rows(bigint)') is not null then
    grant execute on function archive_audit_rows(bigint) to legal_mail_api;
  end if;
  alter default privileges in schema public grant select, insert, update, delete on tables to legal_mail_api;
  alter default privileges in schema public grant usage, select on sequences to legal_mail_api;
end
$$;
