-- Who chooses the language a shared tablet shows: each user's saved preference (null: the entity's default) and
-- each entity's default, which a signed-out tablet returns to after any way out. Codes: contract/languages.ts.
alter table users add column language text check (language in ('en', 'es'));
alter table entities add column default_language text not null default 'en' check (default_language in ('en', 'es'));
