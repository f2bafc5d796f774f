-- The API's own role (CJIS / ASVS: least privilege). It reads and writes the data but owns nothing, so it
-- cannot drop the audit log's append-only triggers, alter a table or rewrite history: on audit_logs it may
-- only insert and select. Migrations run as the owner; the API connects as a login role that is a member of
-- legal_mail_api (README, "Database roles"). Roles are per cluster: the role is created here only when the
-- owner may create roles; an operator whose owner may not creates it before the first migration
-- (`create role legal_mail_api nologin`). Without the role, the grants are skipped and one role does all.
do $$
begin
  if not exists (select from pg_roles where rolname = 'legal_mail_api') then
    if exists (select from pg_roles where rolname = current_user and (rolcreaterole or rolsuper)) then
      create role legal_mail_api nologin;
    else
      raise notice 'legal_mail_api does not exist and % may not create roles: grants skipped', current_user;
      return;
    end if;
  end if;
  grant usage on schema public to legal_mail_api;
  grant select, insert, update, delete on all tables in schema public to legal_mail_api;
  grant usage, select on all sequences in schema public to legal_mail_api;
  revoke update, delete, truncate on audit_logs from legal_mail_api;
  revoke insert, update, delete, truncate on schema_migrations from legal_mail_api;
  -- Tables and sequences that later migrations create (as the same owner) get the same grants.
  alter default privileges in schema public grant select, insert, update, delete on tables to legal_mail_api;
  alter default privileges in schema public grant usage, select on sequences to legal_mail_api;
end
$$;
