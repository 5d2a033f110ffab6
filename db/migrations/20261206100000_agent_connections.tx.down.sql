ALTER TABLE webhook_endpoints DROP COLUMN agent_connection_id;
DROP TABLE agent_connections;
