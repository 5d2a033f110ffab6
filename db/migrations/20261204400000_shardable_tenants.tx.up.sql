-- Ready to shard (issue 28 item 6): every tenant table carries a NOT NULL
-- account_id, the distribution column on Citus (docs/scaling.md), with an
-- index leading with it. The five child tables below took their account from
-- the parent row; they get the column, backfilled from that parent, and a
-- unique index on (account_id, their key): the primary key they would have
-- when distributed (Citus wants the distribution column in every unique
-- constraint). The existing indexes stay: today's queries find these rows by
-- the parent's id. db/shard_test.go checks the whole schema.

ALTER TABLE deliverables ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE deliverables d SET account_id = l.account_id FROM listings l WHERE l.id = d.listing_id;
ALTER TABLE deliverables ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX deliverables_account_key ON deliverables (account_id, id);

ALTER TABLE access_grants ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE access_grants g SET account_id = o.account_id FROM orders o WHERE o.id = g.order_id;
ALTER TABLE access_grants ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX access_grants_account_key ON access_grants (account_id, order_id);

ALTER TABLE download_counts ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE download_counts c SET account_id = o.account_id FROM orders o WHERE o.id = c.order_id;
ALTER TABLE download_counts ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX download_counts_account_key ON download_counts (account_id, order_id, deliverable_id);

ALTER TABLE reviews ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE reviews r SET account_id = o.account_id FROM orders o WHERE o.id = r.order_id;
ALTER TABLE reviews ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX reviews_account_key ON reviews (account_id, id);

ALTER TABLE license_activations ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE license_activations a SET account_id = k.account_id FROM license_keys k WHERE k.id = a.license_key_id;
ALTER TABLE license_activations ALTER COLUMN account_id SET NOT NULL;
CREATE UNIQUE INDEX license_activations_account_key ON license_activations (account_id, id);

-- These three had a NOT NULL account_id but no index leading with it.
CREATE UNIQUE INDEX files_account_key ON files (account_id, token);
CREATE UNIQUE INDEX discount_redemptions_account_key ON discount_redemptions (account_id, order_id);
CREATE UNIQUE INDEX webhook_deliveries_account_key ON webhook_deliveries (account_id, endpoint_id, event_id);
