-- Set-password codes tried per client address within a window that starts at its first count, counted before the
-- code is looked up: one address cannot try codes (and have passwords hashed for them) without limit.
create table reset_code_attempts (
  ip_address text primary key,
  window_started_at timestamptz not null default now(),
  attempts integer not null default 1
);
-- Expired windows are swept on the way in.
create index reset_code_attempts_window_idx on reset_code_attempts (window_started_at);
