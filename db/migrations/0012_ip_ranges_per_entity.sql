-- IP ranges belong to an entity: an admin manages their own entity's facility networks, and
-- an offender is checked against their own entity's ranges only. entities.ip_ranges_configured_at records, once
-- and for good, that the entity has had a range: from then on an empty active list refuses every address
-- (unless the ip_whitelist_when_empty setting says 'allow'), and deleting every range does not reopen the gate.

alter table entities add column ip_ranges_configured_at timestamptz;

alter table ip_ranges add column entity_id uuid references entities (id);

-- An existing range goes to the entity of the admin who added it, else to the default entity (the one every
-- sign-in names), else to the oldest entity.
update ip_ranges r set entity_id = u.entity_id from users u where u.id = r.created_by;
update ip_ranges set entity_id = (select id from entities where slug = 'default') where entity_id is null;
update ip_ranges set entity_id = (select id from entities order by created_at, id limit 1) where entity_id is null;
-- Only a database without any entity is left: it has no user, so no offender these rows could admit or refuse.
delete from ip_ranges where entity_id is null;

alter table ip_ranges alter column entity_id set not null;

-- One spelling of a range per entity (two entities may name the same shared network).
alter table ip_ranges drop constraint ip_ranges_ip_range_key;
create unique index ip_ranges_entity_range_key on ip_ranges (entity_id, ip_range);

-- An entity that had ranges before this migration has had them configured since the first one was added.
update entities e set ip_ranges_configured_at = first.at
from (select entity_id, min(created_at) as at from ip_ranges group by entity_id) first
where first.entity_id = e.id;
