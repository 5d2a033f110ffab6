//go:build gcs

package storage

// The Google Cloud Storage driver (gs://bucket), compiled in with -tags gcs.
// It brings the Google Cloud SDK, gRPC and OpenTelemetry into the binary,
// which the default build leaves out.
import _ "gocloud.dev/blob/gcsblob"
