package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
	"commerce/problem"
)

func (a *API) getAccount(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Viewer(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateAccount(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateAccountInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateAccount(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteAccount(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteAccount(r.Context()); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) getStore(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Store(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateStore(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateStoreInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateStore(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) connectProcessor(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.ConnectProcessor(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) disconnectProcessor(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.DisconnectProcessor(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// maxProcessorEvent bounds an inbound processor webhook body.
const maxProcessorEvent = 1 << 20

// processorWebhook receives the processor's events (Stripe: verified by the
// Stripe-Signature header). Unknown event types are acknowledged with 200.
func (a *API) processorWebhook(w http.ResponseWriter, r *http.Request) error {
	body, tooLarge, err := ReadBody(r, maxProcessorEvent)
	if err != nil {
		return problem.New(problem.InvalidRequest, "The request body could not be read.")
	}
	if tooLarge {
		return problem.New(problem.InvalidRequest, "The event is larger than 1 MB.")
	}
	if err := CheckJSONDepth(body, "The event"); err != nil {
		return err
	}
	if err := a.Resolver.HandleProcessorWebhook(r.Context(), body, r.Header); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"received": true})
	return nil
}

// testProcessorWebhook receives the events of a seller's test account
// (test mode), verified with the secret of the endpoint the service
// registered there.
func (a *API) testProcessorWebhook(w http.ResponseWriter, r *http.Request) error {
	body, tooLarge, err := ReadBody(r, maxProcessorEvent)
	if err != nil {
		return problem.New(problem.InvalidRequest, "The request body could not be read.")
	}
	if tooLarge {
		return problem.New(problem.InvalidRequest, "The event is larger than 1 MB.")
	}
	if err := CheckJSONDepth(body, "The event"); err != nil {
		return err
	}
	if err := a.Resolver.HandleTestProcessorWebhook(r.Context(), chi.URLParam(r, "account_id"), body, r.Header); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"received": true})
	return nil
}

func (a *API) startBootstrap(w http.ResponseWriter, r *http.Request) error {
	var in model.BootstrapInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.StartBootstrap(r.Context(), in, ClientIP(r.Context()))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) verifyBootstrap(w http.ResponseWriter, r *http.Request) error {
	var in model.BootstrapVerifyInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.VerifyBootstrap(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) completeBootstrap(w http.ResponseWriter, r *http.Request) error {
	var in model.BootstrapStoreInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CompleteBootstrap(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) changePlan(w http.ResponseWriter, r *http.Request) error {
	var in model.ChangePlanInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.ChangePlan(r.Context(), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
	return nil
}
