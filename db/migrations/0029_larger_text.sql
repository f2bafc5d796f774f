-- The offender's "Larger text" choice from the tablet's header, kept with the user rather than on a tablet that
-- the next person uses: it follows them to any tablet at their next sign-in.
alter table users add column larger_text boolean not null default false;
