package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
)

// The seller's license keys (CONTRACT §20): group license_keys.

func (a *API) listLicenseKeys(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	f := model.LicenseKeyFilter{Status: (*model.LicenseKeyStatus)(strParam(r, "status")), Key: strParam(r, "key"), Email: strParam(r, "email")}
	if f.ListingID, err = idParam(r, "listing", "lst"); err != nil {
		return err
	}
	if f.OrderID, err = idParam(r, "order", "ord"); err != nil {
		return err
	}
	out, err := a.Resolver.LicenseKeys(r.Context(), lp.Limit, lp.Cursor, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) getLicenseKey(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.LicenseKey(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateLicenseKey(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateLicenseKeyInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateLicenseKey(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteLicenseActivation(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteLicenseActivation(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "activation_id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
