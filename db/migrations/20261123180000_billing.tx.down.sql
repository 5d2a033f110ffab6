DROP TABLE plan_changes;
DROP TABLE subscriptions;
