package resolvers

// PENDING (acp-core): AgentPrincipal is acp-conn's (resolvers/agent_connections.go,
// /work/briefs/acp-design.md), declared here only so that acp-core compiles
// before acp-conn is merged. Delete this file when merging acp-conn.

// AgentPrincipal is the seller an ACP request acts for: an active agent
// connection of a live account.
type AgentPrincipal struct {
	ConnectionID string // acn_…
	AccountID    string // acc_…
}
