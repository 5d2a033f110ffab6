DROP TABLE reviews;
ALTER TABLE orders DROP COLUMN fulfillment_note;
