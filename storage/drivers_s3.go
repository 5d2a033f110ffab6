//go:build s3

package storage

// The S3 driver (s3://bucket), compiled in with -tags s3. It brings the AWS
// SDK into the binary, which the default build leaves out.
import (
	"github.com/aws/aws-sdk-go-v2/service/s3"
	_ "gocloud.dev/blob/s3blob"
)

// A signed link downloads the file under its name (links.go).
func init() {
	signHooks = append(signHooks, func(as func(any) bool, disposition string) {
		var in *s3.GetObjectInput
		if as(&in) {
			in.ResponseContentDisposition = &disposition
		}
	})
}
