//go:build s3

package storage

// The S3 driver (s3://bucket), compiled in with -tags s3. It brings the AWS
// SDK into the binary, which the default build leaves out.
import _ "gocloud.dev/blob/s3blob"
