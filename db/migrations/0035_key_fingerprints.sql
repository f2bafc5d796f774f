-- Which PIN pepper and MFA key the data was made under, as a keyed digest of a fixed label (never the key): an
-- instance started with another key (a restore on a new host without them) refuses to start, naming the key,
-- instead of refusing every PIN and authenticator code.
create table key_fingerprints (
  name text primary key,
  fingerprint text not null,
  recorded_at timestamptz not null default now()
);
