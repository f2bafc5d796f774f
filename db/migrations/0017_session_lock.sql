-- The offender tablet's lock screen is kept by the server, not only by the browser: a locked session's token is
-- refused everything but unlock and logout, so a token read from a locked tablet's disk opens no mail and no
-- offline key (api/http/guard.ts). Set by POST /api/auth/lock, cleared by the right PIN at POST /api/auth/unlock.
alter table sessions add column locked_at timestamptz;
