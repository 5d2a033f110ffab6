//go:build gcs

package storage

// The Google Cloud Storage driver (gs://bucket), compiled in with -tags gcs.
// It brings the Google Cloud SDK, gRPC and OpenTelemetry into the binary,
// which the default build leaves out.
import (
	"net/url"

	"cloud.google.com/go/storage"
	_ "gocloud.dev/blob/gcsblob"
)

// A signed link downloads the file under its name (links.go).
func init() {
	signHooks = append(signHooks, func(as func(any) bool, disposition string) {
		var opts *storage.SignedURLOptions
		if as(&opts) {
			if opts.QueryParameters == nil {
				opts.QueryParameters = url.Values{}
			}
			opts.QueryParameters.Set("response-content-disposition", disposition)
		}
	})
}
