-- Orders keep their discount columns (they have no foreign key to discounts).
DROP TABLE discount_redemptions;
DROP TABLE discounts;
