DROP TABLE download_counts;
ALTER TABLE orders DROP COLUMN access_expires_at;
ALTER TABLE listings
    DROP COLUMN access_download_limit,
    DROP COLUMN access_days;
