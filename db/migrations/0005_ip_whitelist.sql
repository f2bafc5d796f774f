-- The IP whitelist that restricts where offenders may sign in and call the API from (facility tablets).
-- ip_range holds the canonical form written by api/domain/ip_ranges.ts, so one range has one spelling.

create table ip_ranges (
  id uuid primary key default gen_random_uuid(),
  ip_range text not null unique check (length(ip_range) between 1 and 100),
  description text check (description is null or length(description) <= 500),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  created_by uuid references users (id)
);
