package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"

	"ainbeditor/internal/exb"
)

// expressionRequest asks for one expression function's text in the other form: "listing"
// (the instruction listing) or "code" (the readable code).
type expressionRequest struct {
	Version uint32 `json:"version"`
	Text    string `json:"text"`
	To      string `json:"to"`
}

// handleExpression converts one expression function between readable code and its
// instruction listing, for the editor's toggle between the two forms. A text that does not
// compile is a 422 whose detail gives the line and column (1-based, 0 when unknown) and the
// message without them, as the problems of a build do.
func (s *Server) handleExpression(w http.ResponseWriter, r *http.Request) error {
	body, err := s.readJSON(w, r)
	if err != nil {
		return err
	}
	var req expressionRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		return errorf(http.StatusBadRequest, "the request is not {\"version\": N, \"text\": \"...\", \"to\": \"listing\" or \"code\"}")
	}
	if req.To != "listing" && req.To != "code" {
		return errorf(http.StatusBadRequest, "to is %q, want \"listing\" or \"code\"", req.To)
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	out, err := exb.ConvertFunction(req.Version, req.Text, req.To == "listing")
	if err != nil {
		var se *exb.SyntaxError
		if errors.As(err, &se) {
			return &apiError{http.StatusUnprocessableEntity, err.Error(),
				map[string]any{"line": se.Line, "column": se.Col, "message": se.Msg}}
		}
		return &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
	}
	if err := s.checkReply(len(out), len(body)); err != nil {
		return err
	}
	release()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"text": out})
	return nil
}
