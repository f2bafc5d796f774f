-- Account lifecycle: an admin's PIN reset, staff passwords set again through an e-mailed link.
--
-- A PIN an admin resets is a one-time PIN (users.temp_password_*): it opens one session that may only set a new
-- PIN the offender chooses. Who reset it and when stays on the account, so the offender is told at their next
-- sign-in, and the session opened with it carries the admin, so every read in it is audited with their name.
alter table users
  add column pin_reset_at timestamptz,
  add column pin_reset_by uuid references users (id),
  add column pin_reset_notice_pending boolean not null default false;
alter table sessions add column pin_reset_by uuid references users (id);

-- Links that set a staff password: the forgotten-password e-mail and an admin's reset. Only a hash of the token
-- is kept, so a copy of the database opens no account; a link is used once and lives minutes (forgotten) or a
-- day (admin reset).
create table password_reset_tokens (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('forgotten', 'admin_reset')),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_reset_tokens_user_idx on password_reset_tokens (user_id);

-- The forgotten-password form is throttled like the registration form: per client address and per e-mail.
alter table registration_throttle drop constraint registration_throttle_kind_check;
alter table registration_throttle add constraint registration_throttle_kind_check
  check (kind in ('address', 'duplicate_notice', 'password_reset_address', 'password_reset_email'));
