package model

// Node is an account resource with a prefixed id of its own (GraphQL
// interface Node): Query.node and Query.nodes return them.
type Node interface {
	GetID() string
}

// GetID is the file's id in GraphQL: its token (file_…).
func (f *File) GetID() string { return f.Token }

// GetID returns the account id.
func (a *Account) GetID() string { return a.ID }

// GetID returns the listing id.
func (l *Listing) GetID() string { return l.ID }

// GetID returns the deliverable id.
func (d *Deliverable) GetID() string { return d.ID }

// GetID returns the review id.
func (r *Review) GetID() string { return r.ID }

// GetID returns the order id.
func (o *Order) GetID() string { return o.ID }

// GetID returns the customer id.
func (c *Customer) GetID() string { return c.ID }

// GetID returns the endpoint id.
func (w *WebhookEndpoint) GetID() string { return w.ID }

// GetID returns the event id.
func (e *Event) GetID() string { return e.ID }

// GetID returns the key id.
func (k *APIKey) GetID() string { return k.ID }
