package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
	"ainbeditor/internal/graph"
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

// problemJSON is one validation problem as the editor shows it: the node (null for a problem
// outside any node), the path of the plug or value, and what is wrong.
type problemJSON struct {
	Node    *int   `json:"node"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// codecError turns an error of the codec (packages ainb, exb, graph), whose messages are
// written for users, into a 422 carrying what the editor needs to point at the problem.
func codecError(err error) *apiError {
	var (
		fe  *ainb.FormatError
		ve  *ainb.ValidationError
		fne *graph.FunctionError
	)
	switch {
	case errors.As(err, &ve):
		problems := make([]problemJSON, len(ve.Problems))
		for i, p := range ve.Problems {
			problems[i] = problemJSON{Path: p.Path, Message: p.Msg}
			if p.Element >= 0 {
				problems[i].Node = &p.Element
			}
		}
		msg := fmt.Sprintf("the file is not valid: %d problems", len(problems))
		if len(problems) == 1 {
			msg = "the file is not valid: " + ve.Problems[0].String()
		}
		return &apiError{http.StatusUnprocessableEntity, msg, map[string]any{"problems": problems}}
	case errors.As(err, &fne):
		detail := map[string]any{"function": fne.Function}
		var se *exb.SyntaxError
		if errors.As(fne.Err, &se) {
			detail["line"] = se.Line
			if se.Col > 0 {
				detail["column"] = se.Col
			}
			detail["message"] = se.Msg
		}
		return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("expression function %d: %v", fne.Function, fne.Err), detail}
	case errors.As(err, &fe):
		return &apiError{http.StatusUnprocessableEntity, err.Error(), map[string]any{"section": fe.Section, "offset": fe.Offset}}
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
}

// writeError answers a request with err. Client errors are sent as they are; anything else is
// logged and becomes a 500 that reveals nothing.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
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

func tooLarge(limit int64) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large: the limit is %d bytes", limit), map[string]any{"limit": limit}}
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
