-- No usable secret rests in the database or its backups: a queued e-mail keeps its set-password code sealed under
-- a key outside the database until it is sent, and adding a second factor needs a recent proof of identity.

-- The code a queued message carries, sealed (api/email/sealed_secret.ts); dropped once the message is sent.
alter table email_outbox add column sealed_secret bytea;

-- Set-password e-mails written before this kept their code in clear in the body: the codes are removed, a message
-- still waiting is not sent without its code, and every live link is ended (a backup taken earlier holds its
-- code): the owner asks for a new link.
update email_outbox set body = regexp_replace(body, '[A-Za-z0-9_-]{43}', '[code removed]', 'g')
  where kind in ('password_reset_requested', 'password_reset_by_admin');
update email_outbox
  set status = 'failed', last_error = 'Not sent: its set-password code was kept in clear; a new link must be asked for.'
  where kind in ('password_reset_requested', 'password_reset_by_admin') and status = 'pending';
update password_reset_tokens set used_at = now() where used_at is null;

-- When the session's owner last proved it is them (the password, or a second factor where they have one):
-- adding a second factor needs such a proof within the last few minutes (api/domain/mfa.ts).
alter table sessions add column identity_proved_at timestamptz;
