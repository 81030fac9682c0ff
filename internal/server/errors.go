package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/zs"
)

// apiError is an error meant for the client: a status, a message and optional structured
// detail. Anything else a handler returns is logged and answered with a bare 500.
type apiError struct {
	Status  int
	Message string
	Detail  any
}

func (e *apiError) Error() string { return strconv.Itoa(e.Status) + " " + e.Message }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{Status: status, Message: fmt.Sprintf(format, args...)}
}

// errorBody is the JSON of every error response. Detail is always present (null when there is
// nothing to add) so clients can rely on the shape.
type errorBody struct {
	Error  string `json:"error"`
	Detail any    `json:"detail"`
}

// problemJSON is one problem as the editor shows it: the node (its index in the document's
// nodes; null for a problem outside any node), the path of the value in the document, what is
// wrong, and for problems in a text (an expression function) or in the JSON itself the line
// and column.
type problemJSON struct {
	Node    *int   `json:"node"`
	Path    string `json:"path"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

// problemsError answers 422 with every problem of a document.
func problemsError(pe *graph.ProblemsError) *apiError {
	problems := make([]problemJSON, len(pe.Problems))
	for i, p := range pe.Problems {
		problems[i] = problemJSON{Node: nodeRef(p.Node), Path: p.Path, Message: p.Msg, Line: p.Line, Column: p.Column}
	}
	return notValid("document", problems, pe.Problems)
}

// nodeRef is the node of a problem as the answer gives it: none (null) for a negative index.
func nodeRef(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

// notValid answers 422 with the problems of what ("document" or "file"), listed in problems;
// the message counts them, or spells out the one there is.
func notValid[P fmt.Stringer](what string, problems []problemJSON, orig []P) *apiError {
	msg := fmt.Sprintf("the %s is not valid: %d problems", what, len(problems))
	if len(orig) == 1 {
		msg = "the " + what + " is not valid: " + orig[0].String()
	}
	return &apiError{http.StatusUnprocessableEntity, msg, map[string]any{"problems": problems}}
}

// codecError is the one place a codec's error (packages ainb, exb, graph, byml, aamp, sarc,
// yaz0, zs, pack), whose message is written for users, gets its status: 422, carrying what
// the editor needs to point at the problem; an error that already has its status (an
// *apiError) keeps it. Limits met while reading a request (413) and the request's own
// deadlines (408, 503) are chosen in writeError, which sees the request.
func codecError(err error) *apiError {
	var (
		ae *apiError
		fe *ainb.FormatError
		ve *ainb.ValidationError
		pe *graph.ProblemsError
		jf *jsontext.FormError
		js *jsontext.SyntaxError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, new(*zs.DictionaryError)), errors.As(err, new(*zs.LimitError)), errors.As(err, new(*wrap.LimitError)):
		return unwrapError(err, missingZsDic)
	case errors.As(err, &pe):
		return problemsError(pe)
	case errors.As(err, &ve):
		// The document checks everything the writer relies on, so this is a defect of the
		// document checks; still, the problems say what is wrong, in the model's terms.
		problems := make([]problemJSON, len(ve.Problems))
		for i, p := range ve.Problems {
			problems[i] = problemJSON{Node: nodeRef(p.Element), Path: p.Path, Message: p.Msg}
		}
		return notValid("file", problems, ve.Problems)
	case errors.As(err, &fe):
		return &apiError{http.StatusUnprocessableEntity, err.Error(), map[string]any{"section": fe.Section, "offset": fe.Offset}}
	case errors.As(err, &jf):
		return &apiError{http.StatusUnprocessableEntity, err.Error(), map[string]any{"offset": jf.Offset, "line": jf.Line, "column": jf.Column, "path": jf.Path}}
	case errors.As(err, &js):
		return &apiError{http.StatusUnprocessableEntity, err.Error(), map[string]any{"offset": js.Offset, "line": js.Line, "column": js.Column, "path": js.Path}}
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
}

// writeError answers a request with err. Client errors are sent as they are; anything else is
// logged and becomes a 500 that reveals nothing.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case bodyFault(r) != nil:
		// Checked first: the client is told why the server cut its body, whatever the handler
		// made of the failed read, and even though net/http cancelled the request's context
		// when the connection's deadline passed.
		ae = bodyFault(r)
		// The rest of the body is not read: the connection cannot carry another request.
		w.Header().Set("Connection", "close")
		if ae.Status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		}
	case errors.As(err, &ae):
	case errors.As(err, &mbe):
		ae = tooLarge(mbe.Limit)
	case r.Context().Err() != nil:
		// The client left or the server is shutting down; nobody reads an answer.
		s.log.DebugContext(r.Context(), "request abandoned", "method", r.Method, "path", r.URL.Path, "err", err)
		return
	default:
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		ae = &apiError{Status: http.StatusInternalServerError, Message: "internal server error"}
	}
	writeJSON(w, ae.Status, errorBody{ae.Message, ae.Detail})
}

// unwrapError says what went wrong removing a file's wrapping (internal/wrap, internal/zs,
// internal/yaz0), with the status for it: a file too big to decompress is a 413, anything
// else a 422. missing is what the user can do about a dictionary the codec lacks.
func unwrapError(err error, missing string) *apiError {
	var (
		de *zs.DictionaryError
		le *zs.LimitError
		we *wrap.LimitError
	)
	switch {
	case errors.As(err, &de):
		return &apiError{http.StatusUnprocessableEntity, de.Error() + missing, map[string]any{"dictionary": de.ID, "missing": zs.ZsDicName}}
	case errors.As(err, &le):
		d := map[string]any{"limit": le.Limit}
		if le.Window > 0 {
			d["window"] = le.Window
		}
		return &apiError{http.StatusRequestEntityTooLarge, le.Error(), d}
	case errors.As(err, &we):
		return &apiError{http.StatusRequestEntityTooLarge, we.Error(), map[string]any{"limit": we.Limit}}
	}
	return errorf(http.StatusUnprocessableEntity, "%v", err)
}

// What to do about a missing dictionary: on an upload the server decompresses with its own
// -zstd-dicts, on files the browser sends with the game's ZsDic.pack.zs.
const (
	missingServerDict = "; upload the decompressed .ainb"
	missingZsDic      = " (choose the game's " + zs.ZsDicName + ", from its Pack folder)"
)

func tooLarge(limit int64) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large: the limit is %d bytes", limit), map[string]any{"limit": limit}}
}

// writeRawJSON sends a JSON body that is already encoded.
func writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	b = append(b, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	if status >= 400 {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	w.Write(b)
}

// writeJSON sends v as JSON. Responses are built in memory first so that an encoding failure
// still becomes a proper 500 rather than half a body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		slog.Error("encoding a response", "err", err)
		status = http.StatusInternalServerError
		b = []byte(`{"error":"internal server error","detail":null}`)
	}
	writeRawJSON(w, status, b)
}
