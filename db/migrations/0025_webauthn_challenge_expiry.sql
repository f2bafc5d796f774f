-- A signed-in user's pending passkey challenge (Security screen) lives two minutes, like the sign-in step's lives
-- with its step: a challenge never outlasts the ceremony it was issued for.
alter table sessions add column webauthn_challenge_expires_at timestamptz;
