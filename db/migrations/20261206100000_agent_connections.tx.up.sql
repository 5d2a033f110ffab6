-- Agent connections (CONTRACT §25, issue 30): a seller's link to one agent
-- platform. The platform calls {base_url}/acp with the connection's bearer
-- token (acp_…, only its SHA-256 kept) and receives the seller's order
-- events for the orders it made at the connection's webhook endpoint: a
-- webhook_endpoints row that belongs to the connection (agent_connection_id)
-- and that the seller's own endpoint list, counts and limits leave out.
CREATE TABLE agent_connections (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts (id),
    name         text NOT NULL,
    token_hash   bytea NOT NULL,
    status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    deleted_at   timestamptz
);

-- Every ACP request looks its connection up by the SHA-256 of the token.
CREATE UNIQUE INDEX agent_connections_token_hash_key ON agent_connections (token_hash);
-- Listing an account's live connections, newest first, by keyset; the
-- account's readiness asks whether one exists.
CREATE INDEX agent_connections_account_idx ON agent_connections (account_id, id) WHERE deleted_at IS NULL;

ALTER TABLE webhook_endpoints ADD COLUMN agent_connection_id text REFERENCES agent_connections (id);
-- One endpoint per connection.
CREATE UNIQUE INDEX webhook_endpoints_agent_connection_key ON webhook_endpoints (agent_connection_id)
    WHERE agent_connection_id IS NOT NULL;
