ALTER TABLE accounts DROP COLUMN listings_count;
DROP TABLE deliverables;
DROP TABLE listings;
DROP TABLE files;
