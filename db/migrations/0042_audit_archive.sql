-- Audit rows leave the database only after their retention (the setting audit_retention_days, never under the
-- CJIS year) and only once they are written, signed and chained, to the archive outside it. The append-only
-- triggers let exactly that through: archive_audit_rows, owned by the schema's owner, deletes the chained
-- rows up to a position an archive segment recorded here ends at, and nothing else may.
create table audit_archives (
  from_position bigint not null,
  to_position bigint primary key,
  last_chain_hash text not null,
  signed_at timestamptz not null,
  location text not null
);

create or replace function audit_logs_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('legal_mail.archiving', true) = 'on' then
    return old;
  end if;
  raise exception 'audit_logs is append-only';
end;
$$;

create function archive_audit_rows(upto bigint) returns bigint
language plpgsql security definer set search_path = public as $$
declare
  removed bigint;
  expected text;
begin
  select last_chain_hash into expected from audit_archives where to_position = upto;
  if expected is null then
    raise exception 'no archive segment ends at chain position %', upto;
  end if;
  if not exists (select 1 from audit_chain where position = upto and chain_hash = expected) then
    raise exception 'the archive segment ending at % does not match the chain', upto;
  end if;
  perform set_config('legal_mail.archiving', 'on', true);
  delete from audit_logs where id in (select audit_id from audit_chain where position <= upto);
  get diagnostics removed = row_count;
  delete from audit_chain where position <= upto;
  perform set_config('legal_mail.archiving', 'off', true);
  return removed;
end;
$$;

do $$
begin
  if exists (select from pg_roles where rolname = 'legal_mail_api') then
    revoke update, delete, truncate on audit_archives from legal_mail_api;
    grant execute on function archive_audit_rows(bigint) to legal_mail_api;
  end if;
end
$$;
