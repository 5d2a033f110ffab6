package resolvers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"commerce/db"
	"commerce/graph"
	"commerce/graph/model"
	"commerce/problem"
	"commerce/webhooks"
)

// Agent connections (CONTRACT §25): a seller's link to one agent platform.
// The platform calls {base_url}/acp with the connection's bearer token
// (acp_…; only its SHA-256 is stored) and hears of the orders it made at
// the connection's webhook URL. That URL and its signing secret (sealed as
// endpoint secrets are) live in a webhook_endpoints row owned by the
// connection (agent_connection_id), written in the same transaction as the
// connection, so the dispatcher delivers, retries and logs its events as
// any endpoint's; the seller's own endpoint list, counts, limits, readiness
// and alerts leave that row out.

// maxAgentConnections bounds an account's live (not deleted) agent
// connections: one per agent platform is the expected use, and each costs
// a webhook endpoint (docs/decisions.md).
const maxAgentConnections = 20

// agentTokenPrefix starts every agent connection token.
const agentTokenPrefix = "acp_"

// AgentConnectionEventTypes are the events a connection's webhook endpoint
// receives (for the orders of that connection): completion, fulfilment,
// refund, and the dispute's close (a lost dispute is an order_update).
var AgentConnectionEventTypes = []string{EventOrderPaid, EventOrderFulfilled, EventOrderRefunded, EventOrderDisputeClosed}

// AgentPrincipal is the seller an ACP request acts for: an active agent
// connection of a live account.
type AgentPrincipal struct {
	ConnectionID string // acn_…
	AccountID    string // acc_…
}

// agentAuthQuery finds a connection by its token's hash, with its live
// account, and whether last_used_at is due a write (at most one a minute).
const agentAuthQuery = `
SELECT c.id, c.account_id, c.status, c.deleted_at IS NOT NULL,
       c.last_used_at IS NULL OR c.last_used_at < now() - interval '1 minute'
FROM agent_connections c
JOIN accounts a ON a.id = c.account_id AND a.deleted_at IS NULL
WHERE c.token_hash = $1`

// AuthenticateAgentConnection resolves an ACP bearer token. It is checked in
// PostgreSQL on every call (an indexed lookup by the token's SHA-256), so
// disabling or deleting a connection refuses its token at once on every
// process. last_used_at is written at most once a minute. Errors:
// authentication_error (malformed, unknown, disabled, deleted, account gone).
func (r *Resolver) AuthenticateAgentConnection(ctx context.Context, token string) (AgentPrincipal, error) {
	if !wellFormedToken(token, agentTokenPrefix) {
		return AgentPrincipal{}, problem.New(problem.AuthenticationError,
			"The agent connection token is malformed: tokens look like acp_ followed by 40 letters and digits.")
	}
	var (
		p                AgentPrincipal
		status           string
		deleted, touchIt bool
	)
	err := r.DB.Pool.QueryRow(ctx, agentAuthQuery, hashKey(token)).Scan(&p.ConnectionID, &p.AccountID, &status, &deleted, &touchIt)
	if errors.Is(err, pgx.ErrNoRows) {
		return AgentPrincipal{}, problem.New(problem.AuthenticationError, "The agent connection token is not valid.")
	}
	if err != nil {
		return AgentPrincipal{}, fmt.Errorf("authenticate agent connection: %w", err)
	}
	if deleted {
		return AgentPrincipal{}, problem.New(problem.AuthenticationError, "The agent connection was deleted by the seller.")
	}
	if status != db.AgentConnectionActive {
		return AgentPrincipal{}, problem.New(problem.AuthenticationError, "The agent connection is disabled by the seller.")
	}
	if touchIt {
		// Conditional, so concurrent calls write once a minute at most.
		if _, err := r.DB.Pool.Exec(ctx, `UPDATE agent_connections SET last_used_at = now()
			WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, p.ConnectionID); err != nil {
			r.Log.WarnContext(ctx, "record agent connection use", "agent_connection_id", p.ConnectionID, "error", err)
		}
	}
	return p, nil
}

// agentConnectionColumns are what a connection's model is read from: the
// connection (c) and its webhook endpoint (e).
const agentConnectionColumns = `c.id, c.name, c.status, c.created_at, c.last_used_at, e.id, e.url
FROM agent_connections c JOIN webhook_endpoints e ON e.agent_connection_id = c.id`

func scanAgentConnection(row pgx.Row) (*model.AgentConnection, error) {
	c := &model.AgentConnection{Object: "agent_connection"}
	var status string
	if err := row.Scan(&c.ID, &c.Name, &status, &c.CreatedAt, &c.LastUsedAt, &c.WebhookID, &c.WebhookURL); err != nil {
		return nil, err
	}
	c.Status = model.AgentConnectionStatus(status)
	c.CreatedAt = c.CreatedAt.UTC()
	c.LastUsedAt = utc(c.LastUsedAt)
	return c, nil
}

// AgentConnections lists the caller's live connections, newest first.
// Errors: authentication_error, validation_error (limit, cursor).
func (r *Resolver) AgentConnections(ctx context.Context, limit *int, cursor *string) (*model.AgentConnectionList, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	pg, err := parsePage(limit, cursor, "acn")
	if err != nil {
		return nil, err
	}
	rows, err := r.DB.Pool.Query(ctx, `SELECT `+agentConnectionColumns+`
		WHERE c.account_id = $1 AND c.deleted_at IS NULL AND ($2 = '' OR c.id < $2)
		ORDER BY c.id DESC LIMIT $3`, p.AccountID, pg.after, pg.limit+1)
	if err != nil {
		return nil, fmt.Errorf("list agent connections: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*model.AgentConnection, error) { return scanAgentConnection(row) })
	if err != nil {
		return nil, fmt.Errorf("list agent connections: %w", err)
	}
	list, more, next := trim(list, pg.limit, func(c *model.AgentConnection) string { return c.ID })
	return &model.AgentConnectionList{Object: "list", Data: list, HasMore: more, NextCursor: next}, nil
}

// AgentConnection returns one of the caller's connections (no token, no
// secret). Errors: authentication_error, not_found.
func (r *Resolver) AgentConnection(ctx context.Context, id string) (*model.AgentConnection, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return r.loadAgentConnection(ctx, r.DB.Pool, p.AccountID, id, false)
}

// loadAgentConnection reads a live connection of an account, locking its
// row when lock is set. Errors: not_found (the one place a miss becomes it).
func (r *Resolver) loadAgentConnection(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, accountID, id string, lock bool) (*model.AgentConnection, error) {
	sql := `SELECT ` + agentConnectionColumns + ` WHERE c.id = $1 AND c.account_id = $2 AND c.deleted_at IS NULL`
	if lock {
		sql += ` FOR UPDATE OF c`
	}
	c, err := scanAgentConnection(q.QueryRow(ctx, sql, id, accountID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, problem.NotFoundf("No agent connection %q on this account.", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read agent connection: %w", err)
	}
	return c, nil
}

// validAgentConnectionName trims a name and checks its length (1..100).
func validAgentConnectionName(f *problem.Fields, raw string) string {
	name := strings.TrimSpace(raw)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		f.Add("name", "name is required and at most 100 characters")
	}
	return name
}

// validAgentWebhookURL applies the webhook endpoints' URL rules (CONTRACT
// §12: https, and no private, loopback or link-local address unless the
// operator allows them) to webhook_url.
func (r *Resolver) validAgentWebhookURL(ctx context.Context, f *problem.Fields, raw string) {
	if err := r.validateWebhookURL(ctx, raw); err != nil {
		detail := problem.From(err).Detail
		if rest, ok := strings.CutPrefix(detail, "url"); ok {
			detail = "webhook_url" + rest
		}
		f.Add("webhook_url", detail)
	}
}

// CreateAgentConnection creates a connection on the caller's account with
// its webhook endpoint, and returns it with its token and webhook secret,
// shown this once. Errors: authentication_error, permission_denied,
// validation_error (name, webhook_url), conflict (20 live connections).
func (r *Resolver) CreateAgentConnection(ctx context.Context, in model.CreateAgentConnectionInput) (*model.CreatedAgentConnection, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	name := validAgentConnectionName(&f, in.Name)
	r.validAgentWebhookURL(ctx, &f, in.WebhookURL)
	if err := f.Err(); err != nil {
		return nil, err
	}
	token, secret := newToken(agentTokenPrefix), webhooks.NewSecret()
	sealed, err := r.Secrets.Seal(secret)
	if err != nil {
		return nil, err
	}
	c := &db.AgentConnection{ID: db.NewID("acn"), AccountID: p.AccountID, Name: name, TokenHash: hashKey(token),
		Status: db.AgentConnectionActive}
	e := &db.WebhookEndpoint{ID: db.NewID("wh"), AccountID: p.AccountID, URL: in.WebhookURL, Name: &name,
		Events: AgentConnectionEventTypes, Status: "enabled", SecretCiphertext: sealed, AgentConnectionID: &c.ID}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		// Serialise creation per account so the cap holds under concurrency.
		if _, err := tx.ExecContext(ctx, "SELECT 1 FROM accounts WHERE id = ? FOR UPDATE", p.AccountID); err != nil {
			return err
		}
		n, err := tx.NewSelect().Model((*db.AgentConnection)(nil)).Where("account_id = ?", p.AccountID).Where("deleted_at IS NULL").Count(ctx)
		if err != nil {
			return err
		}
		if n >= maxAgentConnections {
			return problem.Newf(problem.Conflict, "An account has at most %d agent connections; delete one first.", maxAgentConnections).
				With("current_count", n).With("max_count", maxAgentConnections)
		}
		if _, err := tx.NewInsert().Model(c).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return fmt.Errorf("insert agent connection: %w", err)
		}
		if _, err := tx.NewInsert().Model(e).Returning("created_at, updated_at").Exec(ctx); err != nil {
			return fmt.Errorf("insert agent connection endpoint: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &model.CreatedAgentConnection{
		AgentConnection: model.AgentConnection{Object: "agent_connection", ID: c.ID, Name: c.Name, WebhookURL: e.URL,
			Status: model.AgentConnectionStatusActive, CreatedAt: c.CreatedAt.UTC(), WebhookID: e.ID},
		Token: token, WebhookSecret: secret,
	}, nil
}

// UpdateAgentConnection changes the given fields of a connection and its
// webhook endpoint together. Status disabled refuses the token at once and
// stops the events (pending deliveries wait); active accepts the token
// again and turns the endpoint back on, also after the dispatcher turned
// it off for consecutive failures (its failure count starts afresh and
// waiting deliveries go out). Errors: authentication_error,
// permission_denied, not_found, validation_error (name, webhook_url, status).
func (r *Resolver) UpdateAgentConnection(ctx context.Context, id string, in model.UpdateAgentConnectionInput) (*model.AgentConnection, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	var f problem.Fields
	var name string
	if in.Name != nil {
		name = validAgentConnectionName(&f, *in.Name)
	}
	if in.WebhookURL != nil {
		r.validAgentWebhookURL(ctx, &f, *in.WebhookURL)
	}
	if in.Status != nil && !in.Status.Valid() {
		f.Add("status", `status must be "active" or "disabled"`)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		c, err := r.loadAgentConnection(ctx, tx.River, p.AccountID, id, true)
		if err != nil {
			return err
		}
		cq := tx.NewUpdate().Table("agent_connections").Where("id = ?", c.ID).Set("updated_at = now()")
		eq := tx.NewUpdate().Table("webhook_endpoints").Where("id = ?", c.WebhookID).Set("updated_at = now()")
		if in.Name != nil {
			cq = cq.Set("name = ?", name)
			eq = eq.Set("name = ?", name)
		}
		if in.WebhookURL != nil {
			eq = eq.Set("url = ?", *in.WebhookURL)
		}
		enable := in.Status != nil && *in.Status == model.AgentConnectionStatusActive
		if in.Status != nil {
			cq = cq.Set("status = ?", string(*in.Status))
			if enable {
				// Whatever turned it off: its failures start afresh (CONTRACT §22).
				eq = eq.Set("status = 'enabled', disabled_reason = NULL, consecutive_failures = 0").
					Set("failing_since = CASE WHEN status = 'enabled' THEN failing_since END").
					Set("failed_attempts = CASE WHEN status = 'enabled' THEN failed_attempts ELSE 0 END").
					Set("last_failure = CASE WHEN status = 'enabled' THEN last_failure END").
					Set("warned_at = CASE WHEN status = 'enabled' THEN warned_at END")
			} else {
				eq = eq.Set("status = 'disabled', disabled_reason = 'manual'")
			}
		}
		if _, err := cq.Exec(ctx); err != nil {
			return fmt.Errorf("update agent connection: %w", err)
		}
		if _, err := eq.Exec(ctx); err != nil {
			return fmt.Errorf("update agent connection endpoint: %w", err)
		}
		if !enable {
			return nil
		}
		// On again: deliveries that waited for it go out now.
		_, err = tx.ExecContext(ctx, `WITH due AS (
				UPDATE webhook_deliveries SET next_attempt_at = now()
				WHERE endpoint_id = ? AND status = 'pending' RETURNING 1)
			SELECT pg_notify('`+notifyChannel+`', '') FROM due`, c.WebhookID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.loadAgentConnection(ctx, r.DB.Pool, p.AccountID, id, false)
}

// DeleteAgentConnection deletes a connection: its token is refused at once,
// its webhook endpoint is deleted and the endpoint's pending deliveries are
// canceled. Errors: authentication_error, permission_denied, not_found.
func (r *Resolver) DeleteAgentConnection(ctx context.Context, id string) (bool, error) {
	p, err := writer(ctx)
	if err != nil {
		return false, err
	}
	err = r.DB.InTx(ctx, func(ctx context.Context, tx db.Tx) error {
		c, err := r.loadAgentConnection(ctx, tx.River, p.AccountID, id, true)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE agent_connections SET deleted_at = now(), status = 'disabled', updated_at = now()
			WHERE id = ?`, c.ID); err != nil {
			return fmt.Errorf("delete agent connection: %w", err)
		}
		// The deliveries first, then the endpoint: the order in which the
		// dispatcher's outcome statement locks them (as DeleteWebhook).
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL
			WHERE endpoint_id = ? AND status = 'pending'`, c.WebhookID); err != nil {
			return fmt.Errorf("cancel agent connection deliveries: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET deleted_at = now(), status = 'disabled', updated_at = now()
			WHERE id = ? AND deleted_at IS NULL`, c.WebhookID); err != nil {
			return fmt.Errorf("delete agent connection endpoint: %w", err)
		}
		return nil
	})
	return err == nil, err
}

// AgentConnectionDeliveries lists the delivery records of a connection's
// webhook endpoint, newest first, as WebhookEvents lists an endpoint's.
// Errors: authentication_error, not_found, validation_error (limit, cursor).
func (r *Resolver) AgentConnectionDeliveries(ctx context.Context, id string, delivered *bool, limit *int, cursor *string) (*model.WebhookEventList, error) {
	c, err := r.AgentConnection(ctx, id)
	if err != nil {
		return nil, err
	}
	return r.endpointDeliveries(ctx, c.WebhookID, delivered, limit, cursor)
}

// GraphQL glue: each field calls the use case REST calls.

var _ graph.AgentConnectionResolver = agentConnectionResolver{}

// AgentConnection resolves the fields of AgentConnection.
func (x root) AgentConnection() graph.AgentConnectionResolver { return agentConnectionResolver{x.r} }

type agentConnectionResolver struct{ *Resolver }

// Deliveries is agentConnection.deliveries: its webhook endpoint's delivery
// records, as webhook(id).deliveries pages an endpoint's.
func (x agentConnectionResolver) Deliveries(ctx context.Context, obj *model.AgentConnection, first *int, after *string, delivered *bool) (*model.WebhookEventConnection, error) {
	list, err := x.endpointDeliveries(ctx, obj.WebhookID, delivered, first, after)
	if err != nil {
		return nil, renameParam(err, map[string]string{"limit": "first", "cursor": "after"})
	}
	edges, pi := connection(list.Data, func(d *model.WebhookEvent) string { return idCursor(d.ID) },
		func(cur string, d *model.WebhookEvent) *model.WebhookEventEdge {
			return &model.WebhookEventEdge{Cursor: cur, Node: d}
		}, after, list.HasMore)
	return &model.WebhookEventConnection{Edges: edges, PageInfo: pi}, nil
}

// AgentConnections is viewer.agentConnections: the same page as GET
// /v1/agent-connections, as a connection.
func (x accountResolver) AgentConnections(ctx context.Context, obj *model.Account, first *int, after *string) (*model.AgentConnectionConnection, error) {
	list, err := x.Resolver.AgentConnections(ctx, first, after)
	if err != nil {
		return nil, renameParam(err, map[string]string{"limit": "first", "cursor": "after"})
	}
	edges, pi := connection(list.Data, func(c *model.AgentConnection) string { return idCursor(c.ID) },
		func(cur string, c *model.AgentConnection) *model.AgentConnectionEdge {
			return &model.AgentConnectionEdge{Cursor: cur, Node: c}
		}, after, list.HasMore)
	return &model.AgentConnectionConnection{Edges: edges, PageInfo: pi}, nil
}

// DeleteAgentConnection is the GraphQL form of DELETE /v1/agent-connections/{id}.
func (x mutationResolver) DeleteAgentConnection(ctx context.Context, id string) (*bool, error) {
	return done(x.Resolver.DeleteAgentConnection(ctx, id))
}
