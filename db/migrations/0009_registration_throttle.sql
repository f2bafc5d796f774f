-- Registration throttling: how many registrations a client address sent, and how many "you already
-- have an account" notices went to one e-mail address, each within a window that starts at its first count.
-- One row per subject, bumped by `insert ... on conflict ... returning`, so a burst sent at once is counted
-- exactly and is refused before any password is hashed.
create table registration_throttle (
  kind text not null check (kind in ('address', 'duplicate_notice')),
  subject text not null,
  window_started_at timestamptz not null default now(),
  attempts integer not null default 1,
  primary key (kind, subject)
);
-- Expired windows are swept on the way in.
create index registration_throttle_window_idx on registration_throttle (window_started_at);
