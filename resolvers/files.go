package resolvers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"commerce/db"
	"commerce/graph/model"
	"commerce/jobs"
	"commerce/problem"
	"commerce/storage"
)

// fileTokenLife is how long an upload's token can be attached.
const fileTokenLife = 24 * time.Hour

// Storage key spaces: public/ is served at {base_url}/media/…; private/ only
// to buyers through their access grant; uploads/ holds unattached uploads.
const (
	publicPrefix  = "public/"
	privatePrefix = "private/"
	uploadsPrefix = "uploads/"
)

// UploadFile stores an upload of a purpose, streaming it (never buffering the
// whole body), and returns its token. Errors: authentication_error,
// permission_denied, validation_error (purpose; file: empty, a type the
// purpose does not take, or bytes that disagree with the declared type),
// file_too_large (max_bytes).
func (r *Resolver) UploadFile(ctx context.Context, purpose, filename, declaredType string, body io.Reader) (*model.File, error) {
	p, err := writer(ctx)
	if err != nil {
		return nil, err
	}
	rule, ok := storage.RuleFor(purpose)
	if !ok {
		return nil, problem.Validation("purpose", "purpose must be deliverable, cover or avatar")
	}
	filename = cleanFilename(filename)
	token := db.NewID("file")
	key := uploadsPrefix + token
	info, err := r.Storage.PutUpload(ctx, key, body, declaredType, filename, rule)
	var tooLarge *storage.TooLargeError
	var typeErr *storage.TypeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, problem.Newf(problem.FileTooLarge, "A %s file may be at most %d bytes (%d MB).", purpose, tooLarge.MaxBytes, tooLarge.MaxBytes>>20).
			With("max_bytes", tooLarge.MaxBytes)
	case errors.As(err, &typeErr):
		return nil, problem.Validation("file", typeErr.Error())
	case errors.Is(err, storage.ErrEmpty):
		return nil, problem.Validation("file", "The file is empty.")
	case err != nil:
		return nil, fmt.Errorf("store upload: %w", err)
	}
	f := &db.File{Token: token, AccountID: p.AccountID, Purpose: purpose, Filename: filename, Size: info.Size,
		ContentType: info.ContentType, StorageKey: key, ExpiresAt: r.Now().Add(fileTokenLife).UTC().Truncate(time.Second)}
	if _, err := r.DB.NewInsert().Model(f).Returning("created_at").Exec(ctx); err != nil {
		_ = r.Storage.Delete(context.WithoutCancel(ctx), key)
		return nil, fmt.Errorf("record upload: %w", err)
	}
	return toFileModel(f), nil
}

func toFileModel(f *db.File) *model.File {
	return &model.File{Object: "file", Token: f.Token, Purpose: model.FilePurpose(f.Purpose), Filename: f.Filename, Size: f.Size,
		ContentType: f.ContentType, ExpiresAt: f.ExpiresAt.UTC()}
}

// cleanFilename keeps the base name, printable and at most 200 characters.
func cleanFilename(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f || c == '"' {
			return -1
		}
		return c
	}, name)
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "")
	}
	if len([]rune(name)) > 200 {
		name = string([]rune(name)[:200])
	}
	if name == "" || name == "." || name == "/" {
		name = "file"
	}
	return name
}

// claimFile uses a token of the caller's account for a purpose, inside tx:
// it must exist, be unused and unexpired. It copies the content to the key
// dest names for it and schedules the upload's deletion for after the
// commit. Errors: validation_error (param).
func (r *Resolver) claimFile(ctx context.Context, tx db.Tx, accountID, token, purpose, param string, dest func(*db.File) string) (*db.File, string, error) {
	bad := problem.Validation(param, fmt.Sprintf("%q is not a usable %s file token: tokens come from POST /v1/files with purpose %s, live 24 hours and are used once.", token, purpose, purpose))
	if !db.ValidID("file", token) {
		return nil, "", bad
	}
	f := new(db.File)
	err := tx.NewSelect().Model(f).Where("token = ?", token).Where("account_id = ?", accountID).For("UPDATE").Scan(ctx)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return nil, "", bad
	}
	if err != nil {
		return nil, "", err
	}
	if f.UsedAt != nil || f.Purpose != purpose || !r.stillValid(f.ExpiresAt) {
		return nil, "", bad
	}
	if _, err := tx.NewUpdate().Model(f).Set("used_at = now()").WherePK().Exec(ctx); err != nil {
		return nil, "", err
	}
	// Copy inside the transaction: if it rolls back, the upload is intact
	// (the copy is an orphan at worst); after the commit the upload goes.
	key := dest(f)
	if err := r.Storage.Copy(ctx, f.StorageKey, key); err != nil {
		if errors.Is(err, storage.ErrNotExist) {
			return nil, "", bad
		}
		return nil, "", fmt.Errorf("attach upload: %w", err)
	}
	if err := r.deleteBlobsAfterCommit(ctx, tx, f.StorageKey); err != nil {
		return nil, "", err
	}
	return f, key, nil
}

// deleteBlobsAfterCommit enqueues the deletion of stored content in tx. A
// key that is not a valid storage key (storage.ValidateKey: the empty key
// would name the file store's own directory) is an error: callers pass only
// keys that name objects.
func (r *Resolver) deleteBlobsAfterCommit(ctx context.Context, tx db.Tx, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	for _, k := range keys {
		if err := storage.ValidateKey(k); err != nil {
			return fmt.Errorf("schedule blob deletion: %w", err)
		}
	}
	if _, err := r.Jobs.InsertTx(ctx, tx.River, jobs.DeleteBlobsArgs{Keys: keys}, nil); err != nil {
		return fmt.Errorf("schedule blob deletion: %w", err)
	}
	return nil
}

// randomName is 16 lowercase base32 characters for public keys.
func randomName() string { return strings.ToLower(rand.Text()[:16]) }

// extFor is a file extension for a content type, for public URLs.
func extFor(contentType string) string {
	switch contentType {
	case "image/jpeg":
		return ".jpg"
	case "image/png":
		return ".png"
	case "image/webp":
		return ".webp"
	case "image/gif":
		return ".gif"
	}
	return ""
}

// MediaURL is the public URL of a public key.
func (r *Resolver) MediaURL(key string) string {
	return r.BaseURL + "/media/" + strings.TrimPrefix(key, publicPrefix)
}

// Media opens public content by the path after /media/. Errors: not_found.
func (r *Resolver) Media(ctx context.Context, name string) (io.ReadCloser, storage.Attributes, error) {
	if name == "" || strings.Contains(name, "..") {
		return nil, storage.Attributes{}, problem.NotFoundf("No such media.")
	}
	rc, attrs, err := r.Storage.Reader(ctx, publicPrefix+name)
	if errors.Is(err, storage.ErrNotExist) {
		// A cover's size not made yet: made now, once (covers.go).
		rc, attrs, ok, serr := r.coverSizeOnRequest(ctx, publicPrefix+name)
		if ok && serr == nil {
			return rc, attrs, nil
		}
		if ok && !errors.Is(serr, storage.ErrNotExist) {
			return nil, attrs, serr
		}
		return nil, attrs, problem.NotFoundf("No such media.")
	}
	return rc, attrs, err
}

// ConfirmUploadPurpose applies a purpose that arrived after its file (the
// file was held to the largest limit while it streamed): the file must suit
// the purpose, else it is discarded. Errors: validation_error (purpose,
// file), file_too_large.
func (r *Resolver) ConfirmUploadPurpose(ctx context.Context, f *model.File, purpose string) (*model.File, error) {
	rule, ok := storage.RuleFor(purpose)
	var err error
	switch {
	case !ok:
		err = problem.Validation("purpose", "purpose must be deliverable, cover or avatar")
	case f.Size > rule.MaxBytes:
		err = problem.Newf(problem.FileTooLarge, "A %s file may be at most %d bytes (%d MB).", purpose, rule.MaxBytes, rule.MaxBytes>>20).
			With("max_bytes", rule.MaxBytes)
	case !rule.Allows(f.ContentType):
		err = problem.Validation("file", fmt.Sprintf("A %s file cannot be %s.", purpose, f.ContentType))
	}
	if err != nil {
		r.DiscardUpload(ctx, f.Token)
		return nil, err
	}
	if _, err := r.DB.NewUpdate().Model((*db.File)(nil)).Set("purpose = ?", purpose).Where("token = ?", f.Token).Exec(ctx); err != nil {
		return nil, fmt.Errorf("record upload purpose: %w", err)
	}
	cp := *f
	cp.Purpose = model.FilePurpose(purpose)
	return &cp, nil
}

// DiscardUpload deletes an unused upload (row and content), best effort.
func (r *Resolver) DiscardUpload(ctx context.Context, token string) {
	ctx = context.WithoutCancel(ctx)
	var key string
	err := r.DB.NewDelete().Model((*db.File)(nil)).Where("token = ?", token).Where("used_at IS NULL").
		Returning("storage_key").Scan(ctx, &key)
	if err == nil {
		err = r.Storage.Delete(ctx, key)
	}
	if err != nil {
		r.Log.WarnContext(ctx, "discard upload", "token", token, "error", err)
	}
}
