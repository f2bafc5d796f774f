-- A sign-in from an address where a session was opened in the last 30 days takes the password-hashing gate's
-- priority line (api/domain/known_client.ts): asked at every sign-in, so it must be one index probe, not a scan.
create index sessions_ip_address_created_idx on sessions (ip_address, created_at);
