package rest

import (
	"bytes"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
	"commerce/input"
	"commerce/problem"
)

// timeParam reads an RFC 3339 query parameter within input.Time's years.
// Errors: validation_error.
func timeParam(r *http.Request, name string) (*time.Time, error) {
	q := r.URL.Query()
	if !q.Has(name) {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, q.Get(name))
	if err != nil {
		return nil, problem.Validation(name, name+" must be an RFC 3339 date-time such as 2026-11-22T09:30:00Z")
	}
	if err := input.Time(t); err != nil {
		return nil, problem.Validation(name, name+" "+err.Error())
	}
	return &t, nil
}

func strParam(r *http.Request, name string) *string {
	q := r.URL.Query()
	if !q.Has(name) {
		return nil
	}
	v := q.Get(name)
	return &v
}

// orderFilter reads the filters of GET /v1/orders (and of its export).
// Errors: validation_error.
func orderFilter(r *http.Request) (model.OrderFilter, error) {
	f := model.OrderFilter{Status: (*model.OrderStatus)(strParam(r, "status")), BuyerEmail: strParam(r, "buyer_email"), Query: strParam(r, "query")}
	var err error
	if f.ListingID, err = idParam(r, "listing", "lst"); err != nil {
		return f, err
	}
	if f.MembershipID, err = idParam(r, "membership", "mem"); err != nil {
		return f, err
	}
	if f.CreatedAfter, err = timeParam(r, "created_after"); err != nil {
		return f, err
	}
	if f.CreatedBefore, err = timeParam(r, "created_before"); err != nil {
		return f, err
	}
	return f, nil
}

// customerFilter reads the filters of GET /v1/customers (and of its
// export). Errors: validation_error.
func customerFilter(r *http.Request) (model.CustomerFilter, error) {
	f := model.CustomerFilter{Email: strParam(r, "email"), Query: strParam(r, "query")}
	var err error
	if f.CreatedAfter, err = timeParam(r, "created_after"); err != nil {
		return f, err
	}
	if f.CreatedBefore, err = timeParam(r, "created_before"); err != nil {
		return f, err
	}
	return f, nil
}

func (a *API) listOrders(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	f, err := orderFilter(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.Orders(r.Context(), lp.Limit, lp.Cursor, f)
	if err != nil {
		return err
	}
	writeJSONAppended(w, http.StatusOK, out, appendOrderList)
	return nil
}

func (a *API) getOrder(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Order(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) fulfillOrder(w http.ResponseWriter, r *http.Request) error {
	var in model.FulfillInput
	if err := decodeJSON(r, &in); err != nil {
		// The order's state comes before its body (CONTRACT §9).
		out, err := a.Resolver.FulfillOrderUndecodable(r.Context(), chi.URLParam(r, "id"), err)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	}
	out, err := a.Resolver.FulfillOrder(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) refundOrder(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.RefundOrder(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) listCustomers(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	f, err := customerFilter(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.Customers(r.Context(), lp.Limit, lp.Cursor, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// createCustomerPortalLink makes a customer's single-use library sign-in
// link, scoped to the caller's store (CONTRACT §21).
func (a *API) createCustomerPortalLink(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.CreateCustomerPortalLink(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) getCustomer(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Customer(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// resetOrderAccess is POST /v1/orders/{id}/access/reset (CONTRACT §21): the
// body {extend_days?} may be left out altogether.
func (a *API) resetOrderAccess(w http.ResponseWriter, r *http.Request) error {
	var in model.ResetOrderAccessInput
	body, tooLarge, err := ReadBody(r, maxJSONBody)
	if err != nil {
		return problem.New(problem.InvalidRequest, "The request body could not be read.")
	}
	if tooLarge || len(bytes.TrimSpace(body)) > 0 {
		BufferBody(r, body)
		if err := decodeJSON(r, &in); err != nil {
			return err
		}
	}
	out, err := a.Resolver.ResetOrderAccess(r.Context(), chi.URLParam(r, "id"), in.ExtendDays)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
