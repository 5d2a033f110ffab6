package rest

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
	"commerce/problem"
	"commerce/resolvers"
)

func (a *API) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.Webhooks(r.Context(), lp.Limit, lp.Cursor)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) createWebhook(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateWebhookInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CreateWebhook(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) getWebhook(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Webhook(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateWebhook(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateWebhookInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateWebhook(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteWebhook(r.Context(), chi.URLParam(r, "id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) listWebhookEvents(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	var delivered *bool
	if v := strParam(r, "delivered"); v != nil {
		b, err := strconv.ParseBool(*v)
		if err != nil {
			return problem.Validation("delivered", "delivered must be true or false")
		}
		delivered = &b
	}
	out, err := a.Resolver.WebhookEvents(r.Context(), chi.URLParam(r, "id"), delivered, lp.Limit, lp.Cursor)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) retryWebhookEvent(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.RetryWebhookEvent(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "event_id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) testWebhook(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.TestWebhook(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// redeliverOrder sends the RateLimit-* headers of the binding rule of the
// resolver's own limits (per order, per key), refused or not.
func (a *API) redeliverOrder(w http.ResponseWriter, r *http.Request) error {
	ctx, limits := resolvers.WithLimitReport(r.Context())
	out, err := a.Resolver.RedeliverOrder(ctx, chi.URLParam(r, "id"))
	if res, ok := limits.Binding(); ok {
		SetLimitHeaders(w, &res)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) listEvents(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	after := strParam(r, "after")
	if after == nil {
		after = lp.Cursor
	}
	listingID, err := idParam(r, "listing_id", "lst")
	if err != nil {
		return err
	}
	orderID, err := idParam(r, "order_id", "ord")
	if err != nil {
		return err
	}
	out, err := a.Resolver.Events(r.Context(), after, lp.Limit, strParam(r, "type"), listingID, orderID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
