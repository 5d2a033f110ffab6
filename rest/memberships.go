package rest

import (
	"bytes"
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
	"commerce/problem"
)

// The seller's memberships (CONTRACT §26): group memberships.

func (a *API) listMemberships(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	f := model.MembershipFilter{Status: (*model.MembershipStatus)(strParam(r, "status")), BuyerEmail: strParam(r, "buyer_email")}
	if f.ListingID, err = idParam(r, "listing", "lst"); err != nil {
		return err
	}
	if f.CustomerID, err = idParam(r, "customer", "cus"); err != nil {
		return err
	}
	out, err := a.Resolver.Memberships(r.Context(), lp.Limit, lp.Cursor, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) getMembership(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Membership(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// cancelMembershipInput is the body of POST /v1/memberships/{id}/cancel,
// which may be left out altogether (at_period_end defaults to true).
type cancelMembershipInput struct {
	AtPeriodEnd *bool `json:"at_period_end"`
}

func (a *API) cancelMembership(w http.ResponseWriter, r *http.Request) error {
	var in cancelMembershipInput
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
	out, err := a.Resolver.CancelMembership(r.Context(), chi.URLParam(r, "id"), in.AtPeriodEnd == nil || *in.AtPeriodEnd)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) resumeMembership(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.ResumeMembership(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
