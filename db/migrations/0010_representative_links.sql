-- A representative's supervising attorney is never guessed from a typed bar number (that attorney would
-- read everything the representative sent). A link is proposed only when bar number, bar state and
-- e-mail all match one active attorney, shares nothing until that attorney accepts it, and each document records
-- the supervisor it was shared with when it was sent (so a later change of supervisor opens no old mail).

-- users.supervising_attorney_id stays the named attorney; these say when it was proposed and accepted.
alter table users add column supervisor_proposed_at timestamptz;
alter table users add column supervisor_accepted_at timestamptz;
alter table users add constraint users_supervisor_accepted_check
  check (supervisor_accepted_at is null or supervising_attorney_id is not null);

-- Links the old guess made from a registration whose typed details do not name that attorney by all three
-- (bar number, the representative's bar state, e-mail) are dropped, with an audit record each.
insert into audit_logs (user_id, event_type, resource_type, resource_id, event_data)
select null, 'representative_link_removed', 'user', u.id::text,
       jsonb_build_object('attorneyId', u.supervising_attorney_id, 'reason', 'migration: details do not match')
from users u join registrations r on r.user_id = u.id join users a on a.id = u.supervising_attorney_id
where not (upper(btrim(a.bar_number)) = upper(btrim(r.supervising_attorney_bar))
       and upper(a.bar_state) = upper(u.bar_state)
       and a.email = lower(btrim(r.supervising_attorney_email)));
update users u set supervising_attorney_id = null, updated_at = now()
from registrations r, users a
where r.user_id = u.id and a.id = u.supervising_attorney_id
  and not (upper(btrim(a.bar_number)) = upper(btrim(r.supervising_attorney_bar))
       and upper(a.bar_state) = upper(u.bar_state)
       and a.email = lower(btrim(r.supervising_attorney_email)));
-- Every other existing link is pending: nobody accepted it, so it shares nothing until the attorney does.
update users set supervisor_proposed_at = updated_at where supervising_attorney_id is not null;

-- The supervising attorney a document was shared with, recorded at upload. Documents sent before this migration
-- keep none: they were shared on a guess, so only their sender and recipient read them from now on.
alter table documents add column supervising_attorney_id uuid references users (id);
create index documents_supervising_attorney_idx on documents (supervising_attorney_id, uploaded_at desc)
  where supervising_attorney_id is not null;

-- New columns of existing tables are covered by migration 0007's table grants to legal_mail_api; no new table.
