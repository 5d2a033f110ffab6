package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
)

func (a *API) createDiscount(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateDiscountInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CreateDiscount(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) listDiscounts(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	f := model.DiscountFilter{Status: (*model.DiscountStatus)(strParam(r, "status"))}
	if f.ListingID, err = idParam(r, "listing", "lst"); err != nil {
		return err
	}
	out, err := a.Resolver.Discounts(r.Context(), lp.Limit, lp.Cursor, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) getDiscount(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Discount(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateDiscount(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateDiscountInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateDiscount(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteDiscount(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteDiscount(r.Context(), chi.URLParam(r, "id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
