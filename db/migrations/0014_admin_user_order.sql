-- The admin's user list reads every user newest first (api/db/users.ts list_users_for_admin). Without an index
-- in that order PostgreSQL sorted all users on every request: on the department-sized database (102,002 users)
-- an external merge sort through 12 MB on disk, about 200 ms in the database alone (bench:latency's EXPLAIN).
-- With it the rows come in index order, and a keyset page (created_at, id) < (…) costs the same at any depth.
create index users_created_idx on users (created_at desc, id desc);
