DROP TABLE IF EXISTS worker_heartbeats;
