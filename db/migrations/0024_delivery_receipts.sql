-- The sender knows a document reached the right person and when it was read, and can take back a mistake: the
-- receipt's events on each document, time-sensitive mail, a deleted document's tombstone in the sender's list,
-- the opt-in "opened" e-mail, and offenders released or transferred (who receive no more mail).

-- The receipt's events, each the first of its kind, the recipient's own (nobody else's reading is shown).
-- viewed_at (0006) is the first reading; printed_at the first print; prefetched_at the first fetch ahead to a
-- tablet (after which a withdrawal could not take back the copy on the tablet, so it is refused).
alter table documents add column printed_at timestamptz;
alter table documents add column prefetched_at timestamptz;
-- Withdrawn by the sender or the supervising attorney recorded on the row, before the recipient had it.
alter table documents add column withdrawn_at timestamptz;
alter table documents add column withdrawn_by uuid references users (id);
alter table documents add constraint documents_withdrawn_check
  check ((withdrawn_at is null) = (withdrawn_by is null));
-- Time-sensitive mail sorts first on the recipient's list and is fetched ahead first; respond_by is optional.
alter table documents add column time_sensitive boolean not null default false;
alter table documents add column respond_by date;
alter table documents add constraint documents_respond_by_check check (respond_by is null or time_sensitive);
-- The opt-in "opened" e-mail went out (at most one per document).
alter table documents add column opened_notice_at timestamptz;
-- A deleted document's tombstone: its bytes, description and metadata are gone, the row stays in the sender's
-- list as Deleted for one more retention period so the sender learns it was never read in time.
alter table documents add column deleted_at timestamptz;
alter table documents add column deleted_reason text
  check (deleted_reason is null or deleted_reason in ('retention', 'recipient_released'));
alter table documents add constraint documents_deleted_check check ((deleted_at is null) = (deleted_reason is null));

-- Offenders leave a facility: released or transferred, they cannot sign in or be sent to, and their mail is
-- deleted release_purge_days after released_at.
alter table users drop constraint users_status_check;
alter table users add constraint users_status_check
  check (status in ('active', 'deactivated', 'pending', 'released', 'transferred'));
alter table users add constraint users_released_offender_check
  check (status not in ('released', 'transferred') or role = 'offender');
alter table users add column released_at timestamptz;
alter table users add constraint users_released_at_check
  check ((released_at is not null) = (status in ('released', 'transferred')));
create index users_released_idx on users (released_at) where released_at is not null;
-- The sender's own choice of the "opened" e-mail; off until they turn it on.
alter table users add column notify_on_open boolean not null default false;

-- The retention purge and the tombstones' own end walk the deleted rows by time.
create index documents_deleted_idx on documents (deleted_at) where deleted_at is not null;
