DROP TABLE IF EXISTS sandbox_vault_tokens;
DROP TABLE IF EXISTS acp_checkout_sessions;
DROP INDEX IF EXISTS orders_agent_connection_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS agent_connection_id;
ALTER TABLE orders DROP COLUMN IF EXISTS source;
