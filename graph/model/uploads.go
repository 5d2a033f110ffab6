package model

// FilePurpose is what an upload is for (GraphQL enum FilePurpose); its
// values are the lowercase strings of the REST API and of storage.RuleFor.
type FilePurpose string

// The purposes of uploads.
const (
	FilePurposeDeliverable FilePurpose = "deliverable"
	FilePurposeCover       FilePurpose = "cover"
	FilePurposeAvatar      FilePurpose = "avatar"
)
