-- The audit log as a hash chain anyone can check: the database's owner can still rewrite audit_logs, but not
-- without the chain, and the checkpoints signed outside the database, showing it (docs/security.md, "The audit
-- log's chain"). Rows are chained after they commit, by one job at a time, so writing an event costs nothing
-- more and concurrent writers never wait for each other.

-- One link per audit row, in the order the chain took them: the row's content hash and the hash of the chain
-- up to it (SHA-256 of the previous link's chain hash and this row's content hash).
create table audit_chain (
  position bigint primary key,
  audit_id bigint not null unique,
  row_hash text not null,
  chain_hash text not null,
  chained_at timestamptz not null default now()
);

-- The signed checkpoints this installation wrote, as a record for the screens and the next checkpoint; the
-- checkpoints that count are the copies outside the database (the locked bucket, the append-only file).
create table audit_checkpoints (
  id bigint generated always as identity primary key,
  size bigint not null,
  chain_hash text not null,
  signed_at timestamptz not null,
  public_key text not null,
  signature text not null,
  location text not null
);
create index audit_checkpoints_size_idx on audit_checkpoints (size desc);

-- Each `npm run audit:verify`: when, whether the log held, and what it found first.
create table audit_verifications (
  id bigint generated always as identity primary key,
  verified_at timestamptz not null default now(),
  ok boolean not null,
  rows_checked bigint not null,
  checkpoints_checked integer not null,
  message text not null
);

-- The chain is evidence like the log it covers.
create trigger audit_chain_no_update_delete before update or delete on audit_chain
  for each row execute function audit_logs_append_only();
create trigger audit_chain_no_truncate before truncate on audit_chain
  for each statement execute function audit_logs_append_only();

do $$
begin
  if exists (select from pg_roles where rolname = 'legal_mail_api') then
    revoke update, delete, truncate on audit_chain from legal_mail_api;
  end if;
end
$$;
