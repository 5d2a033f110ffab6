-- Tokens signed with these keys no longer verify once they are gone.
DROP TABLE license_signing_keys;
