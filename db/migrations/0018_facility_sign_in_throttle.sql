-- A facility's tablets share one address, so one person's or one burst's failures there must not shut everyone
-- out: at an address its entity's whitelist admits, sign-ins are slowed per address and username (growing
-- delays), not refused address-wide. Each failure now names the username it was for, and whether it was at
-- such a facility address (those do not count toward the ordinary address budget).
alter table login_failures add column username text;
alter table login_failures add column facility boolean not null default false;
create index login_failures_ip_username_time_idx on login_failures (ip_address, username, created_at)
  where facility;
-- The larger address-wide budget of a whitelisted address is gone with it.
delete from settings where key = 'login_address_failure_limit_whitelisted';
