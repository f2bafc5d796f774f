-- A PIN chosen after an admin's reset is known to whoever chose it: the account keeps the admin whose reset the
-- PIN in force descends from, so every later session signed in with it (and every read in it) names that admin.
alter table users add column pin_descends_from_reset_by uuid references users (id);
-- Accounts whose one-time PIN is still outstanding, or was used to choose the PIN in force, descend already.
update users set pin_descends_from_reset_by = pin_reset_by where pin_reset_by is not null;
