package storage

import (
	"mime"
	"path"
	"slices"
	"strings"

	"github.com/gabriel-vasile/mimetype"
)

// Purposes of uploads.
const (
	PurposeDeliverable = "deliverable"
	PurposeCover       = "cover"
	PurposeAvatar      = "avatar"
)

// mib is the spec's megabyte: 1 MB = 1,048,576 bytes.
const mib = 1 << 20

// MaxUploadBytes is the largest MaxBytes of all rules, a bound for the request
// body of an upload.
const MaxUploadBytes = 25 << 20

// Rule is the size limit and the accepted content types of one upload purpose.
// Obtain rules with RuleFor; a zero Rule accepts nothing.
type Rule struct {
	Purpose  string
	MaxBytes int64
	types    []string // accepted MIME types, matched against the detected type and its ancestors
	summary  string   // the accepted types in words, for error messages
}

var (
	webImages        = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}
	webImagesSummary = "JPEG, PNG, WebP and GIF images"

	// deliverableTypes implements the spec's "PDF, EPUB, ZIP, images, audio,
	// video, office documents". text/plain and text/xml are deliberately absent:
	// they are the ancestors of HTML, SVG, XML and scripts, which are refused.
	deliverableTypes = slices.Concat(
		[]string{"application/pdf", "application/epub+zip", "application/zip"},
		webImages,
		[]string{"image/bmp", "image/tiff", "image/avif", "image/heic", "image/heif"},
		[]string{ // audio
			"audio/mpeg", "audio/wav", "audio/ogg", "application/ogg", "audio/flac",
			"audio/aac", "audio/mp4", "audio/x-m4a", "audio/aiff",
		},
		[]string{ // video
			"video/mp4", "video/webm", "video/quicktime", "video/x-m4v", "video/matroska",
			"video/mpeg", "video/x-msvideo", "video/ogg", "video/3gpp",
		},
		[]string{ // office documents
			"application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
			"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
			"application/vnd.openxmlformats-officedocument.presentationml.presentation",
			"application/vnd.oasis.opendocument.text",
			"application/vnd.oasis.opendocument.spreadsheet",
			"application/vnd.oasis.opendocument.presentation",
			"text/rtf",
		},
	)

	rules = map[string]Rule{
		PurposeDeliverable: {Purpose: PurposeDeliverable, MaxBytes: 25 * mib, types: deliverableTypes,
			summary: "PDF, EPUB, ZIP, images, audio, video and office documents"},
		PurposeCover:  {Purpose: PurposeCover, MaxBytes: 5 * mib, types: webImages, summary: webImagesSummary},
		PurposeAvatar: {Purpose: PurposeAvatar, MaxBytes: 2 * mib, types: webImages, summary: webImagesSummary},
	}
)

// RuleFor returns the rule of an upload purpose; false for an unknown purpose.
func RuleFor(purpose string) (Rule, bool) {
	r, ok := rules[purpose]
	return r, ok
}

// allows reports whether the detected type, or one of its ancestors in
// mimetype's hierarchy, is one of the rule's types. Ancestors matter for
// containers: a JAR is a ZIP, an M4A is an MP4, an APNG is a PNG.
func (r Rule) allows(m *mimetype.MIME) bool {
	for ; m != nil; m = m.Parent() {
		for _, t := range r.types {
			if m.Is(t) {
				return true
			}
		}
	}
	return false
}

// extTypes maps the extensions of the accepted types to a MIME type, so that
// the declared type of a part without a useful Content-Type does not depend
// on the host's /etc/mime.types. Other extensions fall back to
// mime.TypeByExtension.
var extTypes = map[string]string{
	".pdf": "application/pdf", ".epub": "application/epub+zip", ".zip": "application/zip",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".jpe": "image/jpeg", ".png": "image/png",
	".gif": "image/gif", ".webp": "image/webp", ".bmp": "image/bmp", ".tif": "image/tiff",
	".tiff": "image/tiff", ".avif": "image/avif", ".heic": "image/heic", ".heif": "image/heif",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "application/ogg", ".oga": "audio/ogg",
	".opus": "audio/ogg", ".flac": "audio/flac", ".aac": "audio/aac", ".m4a": "audio/mp4",
	".aif": "audio/aiff", ".aiff": "audio/aiff",
	".mp4": "video/mp4", ".m4v": "video/x-m4v", ".webm": "video/webm", ".mov": "video/quicktime",
	".mkv": "video/matroska", ".mpg": "video/mpeg", ".mpeg": "video/mpeg", ".avi": "video/x-msvideo",
	".ogv": "video/ogg", ".3gp": "video/3gpp",
	".doc": "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt":  "application/vnd.oasis.opendocument.text",
	".ods":  "application/vnd.oasis.opendocument.spreadsheet",
	".odp":  "application/vnd.oasis.opendocument.presentation",
	".rtf":  "text/rtf",
}

// synonyms are non-standard names clients commonly send, beyond the aliases
// mimetype knows, mapped to the name they mean.
var synonyms = map[string]string{
	"image/jpg":    "image/jpeg",
	"image/pjpeg":  "image/jpeg",
	"audio/x-m4a":  "audio/mp4",
	"audio/m4a":    "audio/mp4",
	"audio/x-wav":  "audio/wav",
	"audio/x-flac": "audio/flac",
	"audio/x-aac":  "audio/aac",
	"image/x-png":  "image/png",
}

// claimedType returns the type a client claims for a part: its Content-Type,
// or when that is empty or application/octet-stream the type of the filename's
// extension. The result has no parameters, is lower case and may be "" when
// nothing is claimed.
func claimedType(contentType, filename string) string {
	t := normalize(contentType)
	if t != "" && t != "application/octet-stream" {
		return t
	}
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(filename, `\`, "/")))
	if ext == "" {
		return ""
	}
	if t, ok := extTypes[ext]; ok {
		return t
	}
	return normalize(mime.TypeByExtension(ext))
}

// normalize strips parameters and case from a media type and resolves synonyms.
func normalize(t string) string {
	t, _, _ = strings.Cut(t, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	if s, ok := synonyms[t]; ok {
		return s
	}
	return t
}

// agrees reports whether the declared type names the detected type or one of
// its ancestors (an office document declared as application/zip, CSV declared
// as text/plain), allowing for aliases and synonyms.
func agrees(declared string, m *mimetype.MIME) bool {
	for ; m != nil; m = m.Parent() {
		if m.Is(declared) || normalize(m.String()) == declared {
			return true
		}
	}
	return false
}
