-- E-mail to registrants goes through an outbox written in the same transaction as the change, so a message is
-- never lost nor sent for a change that rolled back; a worker delivers it over SMTP (settings below) with retries.

create table email_outbox (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  kind text not null check (kind ~ '^[a-z][a-z0-9_]*$'),
  to_address text not null check (length(to_address) between 3 and 254),
  subject text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz
);
-- The worker's query: due pending messages, oldest first.
create index email_outbox_due_idx on email_outbox (next_attempt_at, id) where status = 'pending';
create index email_outbox_created_idx on email_outbox (created_at desc, id desc);

insert into settings (key, category, description, value) values
  ('smtp_enabled', 'email', 'Send e-mail to registrants (messages wait in the outbox while disabled)',
    '{"type":"boolean","value":false}'),
  ('smtp_host', 'email', 'SMTP server host name (empty: not configured)', '{"type":"text","value":""}'),
  ('smtp_port', 'email', 'SMTP server port', '{"type":"number","value":25}'),
  ('smtp_from', 'email', 'Sender address of the portal''s e-mail', '{"type":"text","value":"no-reply@localhost"}')
on conflict (key) do nothing;
