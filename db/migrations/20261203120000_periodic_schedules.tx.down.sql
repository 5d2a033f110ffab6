DROP TABLE IF EXISTS periodic_schedules;
