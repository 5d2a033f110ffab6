ALTER TABLE access_grants DROP COLUMN token_sealed;
DROP INDEX orders_buyer_email_idx;
DROP TABLE buyer_sessions;
DROP TABLE buyer_sign_ins;
