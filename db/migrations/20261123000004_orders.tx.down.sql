DROP TABLE access_grants;
DROP TABLE events;
DROP TABLE orders;
DROP TABLE customers;
