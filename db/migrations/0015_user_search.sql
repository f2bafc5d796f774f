-- The admin's user search (GET /api/admin/users?q=) is a substring match (spec section 5), which no B-tree can
-- serve: on the department-sized database every search read all 102,002 users. Trigram GIN indexes serve
-- `ilike '%…%'` on each searched text. pg_trgm is a trusted extension (the database owner may create it) and the
-- embedded PGlite loads it at start (api/db/client.ts), so both backends run this same migration.
create extension if not exists pg_trgm;

-- The full name as the screen writes it (pwa lib/format.ts fullName): the trimmed first and last names joined
-- by one space, a blank part left out. One definition for the index and the query (api/db/users.ts).
-- Only immutable operators (no concat_ws, which is stable), so the planner inlines it in the query and the index
-- alike: not inlined, a call per row made a search that reads every user about 3 times slower (102,002 users).
create function user_full_name(first_name text, last_name text) returns text
  language sql immutable parallel safe
  as $$
    select case
      when btrim(first_name) = '' then btrim(last_name)
      when btrim(last_name) = '' then btrim(first_name)
      else btrim(first_name) || ' ' || btrim(last_name)
    end
  $$;

create index users_full_name_trgm_idx on users using gin (user_full_name(first_name, last_name) gin_trgm_ops);
create index users_email_trgm_idx on users using gin (email gin_trgm_ops);
create index users_doc_number_trgm_idx on users using gin (doc_number gin_trgm_ops);

-- The screen's role filter now goes to the server too: without this index a page of one role walked
-- users_created_idx past every offender (a page of attorneys 47 ms, of the admin 29 ms on 102,002 users) and its
-- count read the whole table (43 ms); with it both read only that role's rows (under 0.5 ms each).
create index users_role_created_idx on users (role, created_at desc, id desc);
