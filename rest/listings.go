package rest

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"commerce/graph/model"
	"commerce/input"
	"commerce/problem"
	"commerce/storage"
)

func (a *API) createListing(w http.ResponseWriter, r *http.Request) error {
	var in model.CreateListingInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.CreateListing(r.Context(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) listListings(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	var status *model.ListingStatus
	if q := r.URL.Query(); q.Has("status") {
		s := model.ListingStatus(q.Get("status"))
		status = &s
	}
	out, err := a.Resolver.Listings(r.Context(), lp.Limit, lp.Cursor, status, strParam(r, "query"))
	if err != nil {
		return err
	}
	writeJSONAppended(w, http.StatusOK, out, appendListingList)
	return nil
}

func (a *API) getListing(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.Listing(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) listReviews(w http.ResponseWriter, r *http.Request) error {
	lp, err := listParams(r)
	if err != nil {
		return err
	}
	out, err := a.Resolver.ListingReviews(r.Context(), chi.URLParam(r, "id"), lp.Limit, lp.Cursor)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) updateListing(w http.ResponseWriter, r *http.Request) error {
	var in model.UpdateListingInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.UpdateListing(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) deleteListing(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.DeleteListing(r.Context(), chi.URLParam(r, "id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *API) publishListing(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.PublishListing(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) setDeliverables(w http.ResponseWriter, r *http.Request) error {
	var in model.SetDeliverablesInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.SetDeliverables(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) addDeliverable(w http.ResponseWriter, r *http.Request) error {
	var in model.DeliverableInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	out, err := a.Resolver.AddDeliverable(r.Context(), chi.URLParam(r, "id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (a *API) removeDeliverables(w http.ResponseWriter, r *http.Request) error {
	out, err := a.Resolver.RemoveAllDeliverables(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) removeDeliverable(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.Resolver.RemoveDeliverable(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "deliverable_id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// multipartSlack is what a multipart body may carry beyond the file: the
// purpose part, boundaries and headers.
const multipartSlack = 64 << 10

// uploadFile reads multipart/form-data as a stream: purpose and file parts in
// either order, the file passed on to storage as it arrives (never buffered
// whole). When purpose comes after the file, the file is held to the largest
// limit while streaming and to its purpose's limit when that is known.
func (a *API) uploadFile(w http.ResponseWriter, r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return problem.New(problem.InvalidRequest, "Send the upload as multipart/form-data with the parts file and purpose.")
	}
	r.Body = http.MaxBytesReader(w, r.Body, storage.MaxUploadBytes+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return problem.New(problem.InvalidRequest, "The multipart body could not be read.")
	}
	var (
		purpose string
		out     *model.File
	)
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return uploadReadProblem(err)
		}
		switch part.FormName() {
		case "purpose":
			b, err := io.ReadAll(io.LimitReader(part, 64))
			if err != nil {
				return uploadReadProblem(err)
			}
			purpose = strings.TrimSpace(string(b))
			if err := input.Text(purpose); err != nil {
				return problem.Validation("purpose", "purpose "+err.Error())
			}
			if out != nil { // the file came first: check it against its purpose now
				if out, err = a.Resolver.ConfirmUploadPurpose(r.Context(), out, purpose); err != nil {
					return err
				}
			}
		case "file":
			if out != nil {
				return problem.Validation("file", "Send one file per upload.")
			}
			if err := input.Text(part.FileName()); err != nil {
				return problem.Validation("file", "the file's name "+err.Error())
			}
			p := purpose
			if p == "" {
				p = storage.PurposeDeliverable // the largest limit, until the purpose is known
			}
			out, err = a.Resolver.UploadFile(r.Context(), p, part.FileName(), part.Header.Get("Content-Type"), part)
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					return uploadReadProblem(err)
				}
				return err
			}
			if purpose == "" {
				out.Purpose = ""
			}
		}
		_ = part.Close()
	}
	var f problem.Fields
	if out == nil {
		f.Add("file", "The file part is missing.")
	}
	if purpose == "" {
		f.Add("purpose", "The purpose part is missing: deliverable, cover or avatar.")
	}
	if err := f.Err(); err != nil {
		if out != nil {
			a.Resolver.DiscardUpload(r.Context(), out.Token)
		}
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func uploadReadProblem(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return problem.Newf(problem.FileTooLarge, "An upload may be at most %d bytes.", storage.MaxUploadBytes).
			With("max_bytes", storage.MaxUploadBytes)
	}
	return problem.New(problem.InvalidRequest, "The multipart body could not be read.")
}
