-- Every read of a document's bytes is accounted for, whatever the Range: a viewer fetches a
-- file in many ranges, so the audit is one event per session, document and kind (view or print) within the
-- document_read_audit_window_minutes setting. This row is that window's claim: `insert ... on conflict ... where`
-- lets exactly one of several concurrent range requests write the event.
create table document_read_audits (
  session_id uuid not null references sessions (id) on delete cascade,
  document_id uuid not null references documents (id) on delete cascade,
  kind text not null check (kind in ('view', 'print')),
  last_audited_at timestamptz not null default now(),
  primary key (session_id, document_id, kind)
);
-- The retention purge deletes documents: their claims go with them through this index.
create index document_read_audits_document_idx on document_read_audits (document_id);

-- Why a session ended when it was not signed out: 'idle' or 'absolute' when the guard first
-- finds it lapsed (the session_expired event is written once, by whoever sets this), 'entity_inactive' when its
-- entity is deactivated. Null for a sign-out or a revocation that says its reason in its own audit event.
alter table sessions add column end_reason text
  check (end_reason is null or end_reason in ('idle', 'absolute', 'entity_inactive'));

-- The API's role (0007) gets the new table like every other; skipped where that role does not exist.
do $$
begin
  if exists (select from pg_roles where rolname = 'legal_mail_api') then
    grant select, insert, update, delete on document_read_audits to legal_mail_api;
  end if;
end
$$;
