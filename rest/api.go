package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/db"
	"commerce/ratelimit"
	"commerce/resolvers"
)

// API is the /v1 facade.
type API struct {
	Resolver *resolvers.Resolver
	DB       *db.DB
	Limiter  *ratelimit.Limiter
	Problems Problems
	Metrics  *Metrics
	Version  string
}

// Routes registers every /v1 route on r. Each route states its rate-limit
// group; authenticated routes go through Authenticate first so the limit is
// per key, and every POST through Idempotent.
func (a *API) Routes(r chi.Router) {
	// Public routes: limited per client IP.
	r.Group(func(r chi.Router) {
		r.Use(a.RateLimit("public"), a.Idempotent)
		r.Get("/v1/ping", a.handle(a.ping))
		r.Get("/v1/plans", a.handle(a.plans))
		r.Get("/v1/openapi.yaml", a.handle(a.openAPI))
	})
	// Bootstrap: per client IP; step 1 adds its per-email and per-IP
	// passcode limits in the resolver.
	r.Group(func(r chi.Router) {
		r.Use(a.RateLimit("default"), a.Idempotent)
		r.Post("/v1/bootstrap", a.handle(a.startBootstrap))
		r.Post("/v1/bootstrap/verify", a.handle(a.verifyBootstrap))
		r.Post("/v1/bootstrap/store", a.handle(a.completeBootstrap))
	})
	// The processor's events: verified by signature, never limited.
	r.Post("/v1/processor/webhook", a.handle(a.processorWebhook))

	r.Group(func(r chi.Router) {
		r.Use(a.Authenticate(true))
		// Self-revoke is unlimited.
		r.With(a.Idempotent).Post("/v1/api-keys/self-revoke", a.handle(a.selfRevoke))

		r.Group(func(r chi.Router) {
			r.Use(a.RateLimit("default"), a.Idempotent)
			r.Get("/v1/api-keys", a.handle(a.listAPIKeys))
			r.Post("/v1/api-keys", a.handle(a.createAPIKey))
			r.Delete("/v1/api-keys/{id}", a.handle(a.deleteAPIKey))
			r.Get("/v1/account", a.handle(a.getAccount))
			r.Delete("/v1/account", a.handle(a.deleteAccount))
			r.Delete("/v1/account/processor", a.handle(a.disconnectProcessor))
			r.Get("/v1/store", a.handle(a.getStore))
			r.Get("/v1/customers", a.handle(a.listCustomers))
			r.Get("/v1/customers/{id}", a.handle(a.getCustomer))
			r.Put("/v1/store", a.handle(a.updateStore))
		})
		r.With(a.RateLimit("account_update")).Put("/v1/account", a.handle(a.updateAccount))
		r.With(a.RateLimit("files"), a.Idempotent).Post("/v1/files", a.handle(a.uploadFile))
		r.With(a.Idempotent).Post("/v1/orders/{id}/redeliver", a.handle(a.redeliverOrder))
		r.With(a.RateLimit("events")).Get("/v1/events", a.handle(a.listEvents))
		r.Group(func(r chi.Router) {
			r.Use(a.RateLimit("webhooks"), a.Idempotent)
			r.Get("/v1/webhooks", a.handle(a.listWebhooks))
			r.Post("/v1/webhooks", a.handle(a.createWebhook))
			r.Get("/v1/webhooks/{id}", a.handle(a.getWebhook))
			r.Put("/v1/webhooks/{id}", a.handle(a.updateWebhook))
			r.Delete("/v1/webhooks/{id}", a.handle(a.deleteWebhook))
			r.Get("/v1/webhooks/{id}/events", a.handle(a.listWebhookEvents))
			r.Post("/v1/webhooks/{id}/events/{event_id}/retry", a.handle(a.retryWebhookEvent))
			r.Post("/v1/webhooks/{id}/test", a.handle(a.testWebhook))
		})
		r.Group(func(r chi.Router) {
			r.Use(a.RateLimit("orders"), a.Idempotent)
			r.Get("/v1/orders", a.handle(a.listOrders))
			r.Get("/v1/orders/{id}", a.handle(a.getOrder))
			r.Post("/v1/orders/{id}/fulfill", a.handle(a.fulfillOrder))
			r.Post("/v1/orders/{id}/refund", a.handle(a.refundOrder))
		})
		r.Group(func(r chi.Router) {
			r.Use(a.RateLimit("listings"), a.Idempotent)
			r.Get("/v1/listings", a.handle(a.listListings))
			r.Post("/v1/listings", a.handle(a.createListing))
			r.Get("/v1/listings/{id}", a.handle(a.getListing))
			r.Put("/v1/listings/{id}", a.handle(a.updateListing))
			r.Delete("/v1/listings/{id}", a.handle(a.deleteListing))
			r.Post("/v1/listings/{id}/publish", a.handle(a.publishListing))
			r.Put("/v1/listings/{id}/deliverables", a.handle(a.setDeliverables))
			r.Post("/v1/listings/{id}/deliverables", a.handle(a.addDeliverable))
			r.Delete("/v1/listings/{id}/deliverables", a.handle(a.removeDeliverables))
			r.Delete("/v1/listings/{id}/deliverables/{deliverable_id}", a.handle(a.removeDeliverable))
		})
		r.With(a.RateLimit("processor_connect"), a.Idempotent).Post("/v1/account/processor/connect", a.handle(a.connectProcessor))
	})
}

// handle adapts a handler that returns an error into an http.HandlerFunc
// that renders the error as a problem document.
func (a *API) handle(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			a.Problems.Write(w, r, err)
		}
	}
}
