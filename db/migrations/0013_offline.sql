-- Offline reading on shared facility tablets. The offender's cached mail is encrypted on the tablet
-- under a per-session data key that only a live session (or the offender's PIN, offline) gives back; the key is
-- kept here, with its session, and set null in the same statement that ends the session (api/db/sessions.ts),
-- so an ended session's ciphertext can never be read again. Created on the first GET /api/auth/offline-key
-- (staff sessions never have one); offline_key_issued_at makes its 'offline_key_issued' audit event once.
alter table sessions add column data_key bytea check (data_key is null or octet_length(data_key) = 32);
alter table sessions add column offline_key_issued_at timestamptz;

-- Prefetching a document for offline reading is not reading it, but it is audited once per session and document
-- within the read-audit window (document_prefetched), through the same claim row as a view or a print.
alter table document_read_audits drop constraint document_read_audits_kind_check;
alter table document_read_audits add constraint document_read_audits_kind_check
  check (kind in ('view', 'print', 'prefetch'));

-- Views and prints made offline from the tablet's cache, sent when the network returns. The id is the tablet's
-- own UUID for the event, so a batch sent twice (a retry, or two sends racing) records each event once:
-- `insert ... on conflict do nothing` decides, and the audit event is written only by the insert that happened.
create table offline_read_events (
  id uuid primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  document_id uuid not null references documents (id) on delete cascade,
  kind text not null check (kind in ('view', 'print')),
  occurred_at timestamptz not null,
  recorded_at timestamptz not null default now()
);
create index offline_read_events_session_idx on offline_read_events (session_id);
-- The retention purge deletes documents: their events go with them through this index.
create index offline_read_events_document_idx on offline_read_events (document_id);

-- The API's role (0007) gets the new table like every other; skipped where that role does not exist.
do $$
begin
  if exists (select from pg_roles where rolname = 'legal_mail_api') then
    grant select, insert, update, delete on offline_read_events to legal_mail_api;
  end if;
end
$$;
