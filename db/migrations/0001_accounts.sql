-- Accounts, sessions, registrations, settings, sign-in throttling and the append-only audit log:
-- the ground every later feature stands on.

create table entities (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 200),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 100),
  status text not null default 'active' check (status in ('active', 'inactive', 'pending')),
  email text,
  phone text,
  address text,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  entity_id uuid not null references entities (id),
  role text not null check (role in ('offender', 'attorney', 'representative', 'admin', 'approver')),
  status text not null default 'active' check (status in ('active', 'deactivated', 'pending')),
  email text check (email is null or (email = lower(btrim(email)) and length(email) between 3 and 254)),
  doc_number text check (doc_number is null or doc_number ~ '^[A-Za-z0-9-]{1,32}$'),
  first_name text not null check (length(first_name) <= 100),
  last_name text not null check (length(last_name) <= 100),
  -- Offenders sign in with their DOC number and PIN, everyone else with an e-mail address.
  check ((role = 'offender') = (doc_number is not null)),
  check (role = 'offender' or email is not null),
  password_hash text not null,
  -- The one-time password an approver hands out: it signs in once (used_at), then only
  -- proves the user's identity on the set-new-password screen, which retires it.
  temp_password_hash text,
  temp_password_expires_at timestamptz,
  temp_password_used_at timestamptz,
  bar_number text,
  bar_state text,
  phone text,
  address_line1 text,
  address_line2 text,
  city text,
  state text,
  zip_code text,
  supervising_attorney_id uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_entity_email_key on users (entity_id, email) where email is not null;
create unique index users_entity_doc_number_key on users (entity_id, doc_number) where doc_number is not null;
create index users_supervising_attorney_idx on users (supervising_attorney_id);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  -- Set when the session began with a temporary password: nothing but a password change is allowed.
  must_change_password boolean not null default false,
  ip_address text,
  user_agent text
);
create index sessions_user_idx on sessions (user_id) where revoked_at is null;

create table registrations (
  id uuid primary key default gen_random_uuid(),
  entity_id uuid not null references entities (id),
  user_type text not null check (user_type in ('attorney', 'representative')),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  first_name text not null,
  last_name text not null,
  email text not null check (email = lower(btrim(email))),
  password_hash text not null,
  bar_number text not null,
  bar_state text not null check (length(bar_state) = 2),
  phone text,
  address_line1 text not null,
  address_line2 text,
  city text not null,
  state text not null check (length(state) = 2),
  zip_code text not null check (zip_code ~ '^\d{5}(-\d{4})?$'),
  supervising_attorney_name text,
  supervising_attorney_bar text,
  supervising_attorney_email text,
  check (user_type = 'attorney' or (supervising_attorney_name is not null and supervising_attorney_bar is not null
    and supervising_attorney_email is not null)),
  rejection_reason text,
  check (status <> 'rejected' or length(btrim(rejection_reason)) > 0),
  reviewed_by uuid references users (id),
  reviewed_at timestamptz,
  user_id uuid references users (id),
  created_at timestamptz not null default now()
);
-- One open or accepted registration per e-mail; a rejected applicant may apply again.
create unique index registrations_open_email_key on registrations (entity_id, email) where status <> 'rejected';

create table settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_]*$'),
  category text not null check (category in ('security', 'system', 'email')),
  description text not null,
  value jsonb not null check (value ? 'type' and value ? 'value'),
  updated_at timestamptz not null default now(),
  updated_by uuid references users (id)
);

insert into settings (key, category, description, value) values
  ('failed_login_limit', 'security', 'Consecutive failed sign-ins before an account is locked',
    '{"type":"number","value":5,"unit":"attempts"}'),
  ('lockout_minutes', 'security', 'How long a locked account stays locked',
    '{"type":"number","value":10,"unit":"minutes"}'),
  ('session_idle_minutes', 'security', 'Sign out after this long without activity',
    '{"type":"number","value":30,"unit":"minutes"}'),
  ('session_max_hours', 'security', 'Longest a session may last, active or not',
    '{"type":"number","value":12,"unit":"hours"}'),
  ('department_abbreviation', 'system', 'Department abbreviation shown in every portal title',
    '{"type":"text","value":"DOC"}'),
  ('document_retention_days', 'system', 'Days a document is kept before it is deleted',
    '{"type":"number","value":90,"unit":"days"}'),
  ('max_upload_mb', 'system', 'Largest PDF that can be uploaded',
    '{"type":"number","value":10,"unit":"MB"}');

-- Consecutive failures per username (known or not, so an answer never tells which).
create table login_lockouts (
  entity_id uuid not null references entities (id),
  username text not null,
  consecutive_failures integer not null default 0,
  locked_until timestamptz,
  primary key (entity_id, username)
);

-- Every failed sign-in by client address, to stop PIN spraying across DOC numbers.
create table login_failures (
  id bigint generated always as identity primary key,
  ip_address text not null,
  created_at timestamptz not null default now()
);
create index login_failures_ip_time_idx on login_failures (ip_address, created_at);

create table audit_logs (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default clock_timestamp(),
  user_id uuid,
  event_type text not null,
  resource_type text not null,
  resource_id text,
  ip_address text,
  event_data jsonb not null default '{}'::jsonb
);
create index audit_logs_created_idx on audit_logs (created_at desc, id desc);
create index audit_logs_user_idx on audit_logs (user_id, created_at desc);
create index audit_logs_event_idx on audit_logs (event_type, created_at desc);

-- The audit log is evidence: the database itself refuses to change or remove a row.
create function audit_logs_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_logs is append-only';
end;
$$;
create trigger audit_logs_no_update_delete before update or delete on audit_logs
  for each row execute function audit_logs_append_only();
create trigger audit_logs_no_truncate before truncate on audit_logs
  for each statement execute function audit_logs_append_only();
