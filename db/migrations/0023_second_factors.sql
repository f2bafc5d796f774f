-- Staff accounts that one stolen password cannot open: second factors (passkeys and security keys, authenticator
-- apps), recovery codes, the short-lived sign-in step between the password and the second factor, and which
-- sessions were opened with a second factor (turning the requirement on for a role ends the others).

create table mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('totp', 'webauthn')),
  name text not null check (length(name) between 1 and 100),
  -- An authenticator app's secret, AES-256-GCM under the key from MFA_SECRET_KEY (never stored here).
  totp_secret bytea,
  -- The last RFC 6238 time step accepted: a code is accepted once.
  totp_last_step bigint,
  -- A passkey or security key: its credential id (base64url), public key (COSE), signature counter, transports.
  credential_id text unique,
  public_key bytea,
  sign_count bigint,
  transports text[],
  -- Null until the enrolment's first verification: an unconfirmed factor signs nobody in.
  confirmed_at timestamptz,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  check ((kind = 'totp') = (totp_secret is not null)),
  check ((kind = 'webauthn') = (credential_id is not null and public_key is not null))
);
create index mfa_factors_user_idx on mfa_factors (user_id);

-- Ten per user, each usable once; only an HMAC of the code is kept.
create table mfa_recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  unique (user_id, code_hash)
);

-- The step between a right password and the second factor: a token (only its SHA-256 here) that lives 5 minutes,
-- is used once, and opens nothing but the second factor (purpose 'verify') or an enrolment ('enroll').
create table mfa_challenges (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('verify', 'enroll')),
  -- The sign-in lock's key (entity, username as typed, lower-cased), so wrong second factors count in it, and
  -- the password step's counted attempt, forgiven only once the second factor is right.
  attempt_entity_id uuid not null references entities (id),
  attempt_username text not null,
  password_failure_id text not null,
  -- The WebAuthn challenge last issued for this step, when one was asked for.
  webauthn_challenge text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index mfa_challenges_user_idx on mfa_challenges (user_id);

-- A signed-in user's pending WebAuthn registration or assertion challenge (Security screen).
alter table sessions add column webauthn_challenge text;
-- Opened with a second factor: turning the requirement on for the user's role leaves it open.
alter table sessions add column second_factor boolean not null default false;
