package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"commerce/problem"
	"commerce/rest"
	"commerce/storage"
)

// GraphQL uploads: the GraphQL multipart request specification
// (https://github.com/jaydenseric/graphql-multipart-request-spec) with the
// file streamed.
//
// Decisions:
//
//   - gqlgen's transport.MultipartForm reads every file into memory or a
//     temporary file before executing. multipartUpload instead reads the
//     parts operations and map (each at most 64 KiB), then only the headers
//     of the file part, and executes the operation with the part itself as
//     the graphql.Upload's File: the resolver reads the file from the request
//     body while the client is still sending it, and storage streams it on
//     (resolvers.UploadFile, the use case of POST /v1/files, never buffers
//     it whole).
//   - One file per request. A stream can be read once, in order, so the map
//     must name at most one file, in one place, and the operation may use
//     that variable once; otherwise the request is invalid_request. The map
//     is judged before the file part is reached. A batch (operations as an
//     array) is refused the same way. Parts after the file are ignored.
//   - The body is bounded like POST /v1/files: storage.MaxUploadBytes plus
//     room for operations, map and part headers. Going over it while the
//     file streams is file_too_large (max_bytes); the purposes' own, smaller
//     limits are enforced by storage as they are for REST.
//   - The file part must be the one the map names and come right after map;
//     a missing file part is invalid_request as soon as the body ends.
//   - A file left unread (a refused request, an error before or during the
//     upload) is left to net/http, as for REST: it reads at most 256 KiB more
//     of the body before answering, and closes the connection when more
//     remains. Full duplex would answer sooner but trips golang/go#68560.
//   - The operation runs through the executor like the JSON transport's, so
//     the error presenter, the read_only check, the depth and complexity
//     limits and the extensions all apply. Errors of the request itself
//     (malformed multipart, operations or map) are answered with the
//     problem's HTTP status and the error in the same JSON shape.
//   - /graphql authenticates by Bearer key only (rest.Authenticate in front
//     of it), which a browser form cannot send, so the simple
//     (preflight-free) multipart requests a form can make across sites carry
//     no credentials. A cookie session on /graphql would need a CSRF check
//     for them.
type multipartUpload struct{}

const (
	// maxOperationsBytes and maxMapBytes bound the JSON parts.
	maxOperationsBytes = 64 << 10
	maxMapBytes        = 64 << 10
	// uploadBodySlack is what the body may carry beyond the file: operations,
	// map, boundaries and part headers.
	uploadBodySlack = maxOperationsBytes + maxMapBytes + 64<<10
)

var _ graphql.Transport = multipartUpload{}

// Supports takes POST multipart/form-data requests.
func (multipartUpload) Supports(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Header.Get("Upgrade") != "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// Do reads operations and map, reaches the file part and executes the
// operation with it.
func (multipartUpload) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	w.Header().Set("Content-Type", "application/json")
	start := graphql.Now()
	fail := func(p *problem.Problem) {
		w.WriteHeader(p.Status())
		writeGraphQLResponse(w, exec.DispatchError(ctx, gqlerror.List{problemError(p)}))
	}

	r.Body = http.MaxBytesReader(w, r.Body, storage.MaxUploadBytes+uploadBodySlack)
	mr, err := r.MultipartReader()
	if err != nil {
		fail(invalidUpload("The multipart body could not be read: %v.", err))
		return
	}
	raw, p := readJSONPart(mr, "operations", maxOperationsBytes)
	if p != nil {
		fail(p)
		return
	}
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) > 0 && b[0] == '[' {
		fail(invalidUpload("Batched operations are not supported with uploads: send one operation per request."))
		return
	}
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		fail(invalidUpload("The operations part is not a GraphQL request in JSON: %v.", err))
		return
	}
	raw, p = readJSONPart(mr, "map", maxMapBytes)
	if p != nil {
		fail(p)
		return
	}
	var fileMap map[string][]string
	if err := json.Unmarshal(raw, &fileMap); err != nil {
		fail(invalidUpload(`The map part must be a JSON object of file part names to lists of paths, like {"0": ["variables.file"]}: %v.`, err))
		return
	}

	// The one file: judged from the map alone, before its part is read.
	var (
		fileKey, varName string
		place            func(any)
	)
	switch len(fileMap) {
	case 0: // an operation without a file
	case 1:
		for k, paths := range fileMap {
			if len(paths) != 1 {
				fail(invalidUpload("The map names the file %q in %d places: a file streams once, so it fills exactly one variable.", k, len(paths)))
				return
			}
			fileKey = k
			if varName, place, p = uploadSlot(params.Variables, paths[0]); p != nil {
				fail(p)
				return
			}
		}
	default:
		fail(invalidUpload("The map names %d files: send one file per request.", len(fileMap)))
		return
	}
	if fileKey != "" {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			fail(invalidUpload("The file part %q that map names is missing: send operations, map, then the file.", fileKey))
			return
		}
		if err != nil {
			fail(readProblem(err))
			return
		}
		if part.FormName() != fileKey {
			fail(invalidUpload("The part after map is %q, but map names the file part %q: send operations, map, then the file.", part.FormName(), fileKey))
			return
		}
		place(graphql.Upload{
			File:        &streamedFile{r: part},
			Filename:    part.FileName(),
			ContentType: part.Header.Get("Content-Type"),
			Size:        -1, // unknown until the file has been read
		})
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}

	oc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			status = http.StatusUnprocessableEntity
		}
		w.WriteHeader(status)
		writeGraphQLResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs))
		return
	}
	if fileKey != "" {
		if n := variableUses(oc.Operation.SelectionSet, oc.Doc.Fragments, varName, 0); n > 1 {
			fail(invalidUpload("The operation uses $%s %d times: a file streams once, so one field may use it.", varName, n))
			return
		}
	}
	responses, ctx := exec.DispatchOperation(ctx, oc)
	writeGraphQLResponse(w, responses(ctx))
}

// readJSONPart reads the next part, which must be named name and hold at
// most limit bytes.
func readJSONPart(mr *multipart.Reader, name string, limit int64) ([]byte, *problem.Problem) {
	part, err := mr.NextPart()
	if errors.Is(err, io.EOF) {
		return nil, invalidUpload("The %s part is missing: send operations, map, then the file.", name)
	}
	if err != nil {
		return nil, readProblem(err)
	}
	if part.FormName() != name {
		return nil, invalidUpload("Expected the part %s, got %q: send operations, map, then the file.", name, part.FormName())
	}
	b, err := io.ReadAll(io.LimitReader(part, limit+1))
	if err != nil {
		return nil, readProblem(err)
	}
	if int64(len(b)) > limit {
		return nil, invalidUpload("The %s part is larger than %d KiB.", name, limit>>10)
	}
	if err := rest.CheckJSONDepth(b, "The "+name+" part"); err != nil {
		return nil, problem.From(err)
	}
	return b, nil
}

// uploadSlot resolves a map path such as variables.file or
// variables.input.files.0 in vars. It returns the top-level variable's name
// and a function that puts the upload there.
func uploadSlot(vars map[string]any, path string) (string, func(any), *problem.Problem) {
	bad := func(why string) (string, func(any), *problem.Problem) {
		return "", nil, invalidUpload("The map path %q %s.", path, why)
	}
	segs := strings.Split(path, ".")
	if len(segs) < 2 || segs[0] != "variables" {
		return bad("does not start with variables. and name a variable")
	}
	var cur any = vars
	for i, s := range segs[1:] {
		last := i == len(segs)-2
		switch c := cur.(type) {
		case map[string]any:
			if c == nil { // no variables at all
				return bad("leads nowhere in the operation's variables")
			}
			if last {
				return segs[1], func(v any) { c[s] = v }, nil
			}
			next, ok := c[s]
			if !ok {
				return bad("leads nowhere in the operation's variables")
			}
			cur = next
		case []any:
			idx, err := strconv.Atoi(s)
			if err != nil || idx < 0 || idx >= len(c) {
				return bad("leads nowhere in the operation's variables")
			}
			if last {
				return segs[1], func(v any) { c[idx] = v }, nil
			}
			cur = c[idx]
		default:
			return bad("leads nowhere in the operation's variables")
		}
	}
	return bad("leads nowhere in the operation's variables")
}

// variableUses counts the references to $name in the arguments of a
// selection set, fragments included (once per spread). The document has
// passed validation, so fragments do not cycle; depth is a backstop.
func variableUses(set ast.SelectionSet, frags ast.FragmentDefinitionList, name string, depth int) int {
	if depth > 64 {
		return 0
	}
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			for _, a := range s.Arguments {
				n += valueUses(a.Value, name)
			}
			n += directiveUses(s.Directives, name)
			n += variableUses(s.SelectionSet, frags, name, depth+1)
		case *ast.InlineFragment:
			n += directiveUses(s.Directives, name)
			n += variableUses(s.SelectionSet, frags, name, depth+1)
		case *ast.FragmentSpread:
			n += directiveUses(s.Directives, name)
			if f := frags.ForName(s.Name); f != nil {
				n += variableUses(f.SelectionSet, frags, name, depth+1)
			}
		}
	}
	return n
}

func directiveUses(ds ast.DirectiveList, name string) int {
	n := 0
	for _, d := range ds {
		for _, a := range d.Arguments {
			n += valueUses(a.Value, name)
		}
	}
	return n
}

func valueUses(v *ast.Value, name string) int {
	if v == nil {
		return 0
	}
	if v.Kind == ast.Variable {
		if v.Raw == name {
			return 1
		}
		return 0
	}
	n := 0
	for _, c := range v.Children {
		n += valueUses(c.Value, name)
	}
	return n
}

// streamedFile is the file part as a graphql.Upload's File: it reads the
// request body as it arrives and cannot seek (UploadFile and storage only
// read). Read errors become problems the error presenter renders: a body
// over the limit is file_too_large, anything else (a body cut short, a broken
// part) invalid_request.
type streamedFile struct{ r io.Reader }

var errStreamedSeek = fmt.Errorf("graphql upload: the file is read as it arrives and cannot seek: %w", errors.ErrUnsupported)

func (f *streamedFile) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, readProblem(err)
	}
	return n, err
}

func (*streamedFile) Seek(int64, int) (int64, error) { return 0, errStreamedSeek }

// readProblem is the problem of a failed read of the request body (as
// POST /v1/files reports it).
func readProblem(err error) *problem.Problem {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return problem.Newf(problem.FileTooLarge, "An upload may be at most %d bytes.", storage.MaxUploadBytes).
			With("max_bytes", storage.MaxUploadBytes)
	}
	return invalidUpload("The multipart body could not be read: %v.", err)
}

func invalidUpload(format string, args ...any) *problem.Problem {
	return problem.Newf(problem.InvalidRequest, format, args...)
}

// problemError carries a problem to the error presenter.
func problemError(p *problem.Problem) *gqlerror.Error {
	return &gqlerror.Error{Message: p.Detail, Err: p}
}

func writeGraphQLResponse(w io.Writer, resp *graphql.Response) {
	b, err := json.Marshal(resp)
	if err != nil {
		panic(fmt.Errorf("marshal GraphQL response: %w", err))
	}
	_, _ = w.Write(b)
}
