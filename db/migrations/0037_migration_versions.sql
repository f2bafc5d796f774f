-- Which release applied each migration: a release started on a database that a newer one migrated names that
-- release in its refusal, and an operator sees in one query which release brought the schema where it is.
alter table schema_migrations add column if not exists app_version text;
