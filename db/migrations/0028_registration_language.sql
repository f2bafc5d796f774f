-- The language a registration's form was shown in: its e-mails (received, approved, rejected) are written in it,
-- and the account an approval creates starts with it as its saved preference. Codes: contract/languages.ts.
alter table registrations add column language text not null default 'en' check (language in ('en', 'es'));
