-- Documents' bytes are stored sealed under a data key of their own (docs/security.md, "Document bytes at rest"):
-- this table maps the digest documents name (their receipt) to the stored blob's random-looking name, and holds
-- the data key wrapped under BLOB_KEY, which is never here. A digest without a row is a plaintext blob of an
-- installation from before (`npm run blobs:encrypt` seals them).
create table sealed_blobs (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  name text not null unique check (name ~ '^[0-9a-f]{64}$'),
  size bigint not null,
  stored_size bigint not null,
  key_id text not null,
  wrapped_key bytea not null,
  created_at timestamptz not null default now()
);
