package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"ainbeditor/internal/exb"
)

// maxExpressionText bounds the text /api/expression converts, far below exb.MaxTextSize:
// the endpoint costs a client nothing, and converting costs up to 1,600 times the text in
// allocation (a chain of 8,000 additions compiles to 8,000 instructions, each allocated
// several times over, and its listing is 18 times the text). The games' longest function
// text is 1,308 bytes; 16 KiB costs at most about 30 MB.
const maxExpressionText = 16 << 10

// maxExpressionBody is the most a request's JSON may hold: the text with every byte escaped
// as \u00XX, and the other members.
const maxExpressionBody = 6*maxExpressionText + 1<<10

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
	body, err := s.readJSONLimit(w, r, maxExpressionBody)
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
	if len(req.Text) > maxExpressionText {
		return &apiError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("the text is %d bytes, more than the %d a function's text may hold here", len(req.Text), maxExpressionText),
			map[string]any{"limit": maxExpressionText}}
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
