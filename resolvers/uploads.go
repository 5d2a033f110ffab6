package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"commerce/graph/model"
	"commerce/problem"
)

// GraphQL glue for uploads: uploadFile is POST /v1/files. The file arrives
// as a stream (server/graphql_upload.go hands the request's file part over
// as the Upload's File, which reads but cannot seek); UploadFile only reads.

// UploadFile is the GraphQL form of POST /v1/files: the same use case, so
// the same limits and checks.
func (x mutationResolver) UploadFile(ctx context.Context, file graphql.Upload, purpose model.FilePurpose) (*model.File, error) {
	if file.File == nil {
		return nil, problem.Validation("file", "The file is missing.")
	}
	return x.Resolver.UploadFile(ctx, string(purpose), file.Filename, file.ContentType, file.File)
}
