-- Offenders' and staff's failed sign-ins are two budgets of an address, so mistyped PINs never shut staff out of
-- it (and a facility's larger allowance, meant for offenders behind one NAT address, is never staff's); offender
-- accounts are slowed by growing delays counted from their last failure instead of being locked after five.
alter table login_failures add column staff boolean not null default false;
update login_failures set staff = true where username like '%@%';
create index login_failures_ip_staff_time_idx on login_failures (ip_address, staff, created_at) where not facility;
alter table login_lockouts add column last_failure_at timestamptz;
update settings set description = 'Consecutive failed sign-ins before a staff account is locked (offender accounts wait between tries instead)'
  where key = 'failed_login_limit';
update settings set description = 'How long a locked staff account stays locked' where key = 'lockout_minutes';
