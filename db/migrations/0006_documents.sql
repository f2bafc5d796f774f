-- Legal mail: the documents (metadata here, bytes in the blob store) and, for BLOB_STORE=postgres,
-- the blobs themselves as fixed-size chunks.

create table documents (
  id uuid primary key default gen_random_uuid(),
  entity_id uuid not null references entities (id),
  sender_id uuid not null references users (id),
  recipient_id uuid not null references users (id),
  title text not null check (length(btrim(title)) between 1 and 200),
  description text check (description is null or length(description) <= 2000),
  file_name text not null check (length(file_name) <= 255),
  size bigint not null check (size >= 0),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  pages integer not null check (pages >= 0),
  encrypted boolean not null,
  print_allowed boolean not null,
  metadata jsonb not null default '{}'::jsonb,
  uploaded_at timestamptz not null default now(),
  -- The recipient's first view: the sender's list shows it.
  viewed_at timestamptz
);
-- The three lists (offender, sender and supervising attorney through the sender), newest first.
create index documents_recipient_idx on documents (recipient_id, uploaded_at desc);
create index documents_sender_idx on documents (sender_id, uploaded_at desc);
-- The retention purge walks the oldest first; the blob GC asks which digests are still referred to.
create index documents_uploaded_idx on documents (uploaded_at);
create index documents_sha256_idx on documents (sha256);

-- A blob is visible once its row exists; chunks staged under 'tmp:<uuid>' by an upload in progress
-- are renamed to the digest in the same transaction that inserts the row.
create table blobs (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint not null check (size >= 0),
  -- Written or last re-put: the GC spares blobs younger than its grace period.
  created_at timestamptz not null default now()
);

create table blob_chunks (
  sha256 text not null,
  seq integer not null check (seq >= 0),
  data bytea not null,
  created_at timestamptz not null default now(),
  primary key (sha256, seq)
);
