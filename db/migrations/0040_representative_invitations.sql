-- An attorney invites a representative by e-mail: the single-use link fills in the supervising attorney, and the
-- representative's registration carries the inviting attorney to its approval. Only the link's hash is kept.
create table representative_invitations (
  token_hash text primary key,
  attorney_id uuid not null references users (id) on delete cascade,
  email text not null check (email = lower(btrim(email))),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index representative_invitations_attorney_idx on representative_invitations (attorney_id, created_at);

alter table registrations add column invited_by uuid references users (id);
