-- An offline reading is a receipt the sender relies on, so it is taken only for bytes the session really received:
-- the first time a session was served a document (view, print or prefetch) is kept on its read-audit claim, and
-- a reading the tablet reports from before that moment is refused. Claims that exist already count from now.
alter table document_read_audits add column first_served_at timestamptz not null default now();

-- How many offline readings a session has sent, refused or not: past a tablet's real need the rest are refused
-- without further work or audit rows (api/domain/offline.ts).
alter table sessions add column offline_events_received integer not null default 0;
