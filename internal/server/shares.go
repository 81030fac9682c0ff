package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"ainbeditor/internal/share"
	"ainbeditor/internal/treecodec"
)

// maxView caps the editor state saved beside a document: the command, the viewport and the
// selection are small; a larger view is not what the editor sends.
const maxView = 1 << 20

// shareRequest is the body of POST /api/shares and exactly what GET /api/shares/{id} returns.
type shareRequest struct {
	// Kind says what the document is: ShareAINB (the editor's document of an AINB file) or
	// ShareTree (a BYML or AAMP tree, format TreeFormat). A client may name it; the server
	// stores it always, so a share is told apart by its kind rather than by its document's
	// first member. Shares stored before kinds have none, and are still sniffed
	// (shareKind).
	Kind     string          `json:"kind,omitempty"`
	Document json.RawMessage `json:"document"`
	// View is the editor's own state, free-form; the server only checks it is an object.
	View json.RawMessage `json:"view,omitempty"`
}

// The kinds of share.
const (
	ShareAINB = "ainb"
	ShareTree = "tree"
)

// shareKind is the share's kind: the one stored, or for a share stored before kinds, the one
// its document's first member says.
func shareKind(req shareRequest) string {
	if req.Kind != "" {
		return req.Kind
	}
	if firstMemberIs(req.Document, "format", TreeFormat) {
		return ShareTree
	}
	return ShareAINB
}

type shareCreated struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Embed is an <iframe> showing the share read-only, for a wiki or forum page.
	Embed string `json:"embed"`
}

// handleCreateShare stores a document and a view, immutably, under a new id.
func (s *Server) handleCreateShare(w http.ResponseWriter, r *http.Request) error {
	// The share cap bounds the body too: the stored share is the body compacted, so a body
	// over the cap is refused before it is read whole.
	if r.ContentLength > s.cfg.MaxShare {
		return shareTooLarge(s.cfg.MaxShare)
	}
	capped := &cappedBody{ReadCloser: r.Body, left: s.cfg.MaxShare}
	r.Body = capped
	body, err := s.readJSON(w, r)
	if capped.over {
		return shareTooLarge(s.cfg.MaxShare)
	}
	if err != nil {
		return err
	}
	if err := checkJSON(body); err != nil {
		return err
	}
	req, err := parseShareRequest(body)
	if err != nil {
		return err
	}
	if len(req.Document) == 0 || string(req.Document) == "null" {
		return errorf(http.StatusBadRequest, "invalid share: no document")
	}
	if string(req.View) == "null" {
		req.View = nil
	}
	if len(req.View) > 0 && req.View[0] != '{' {
		return errorf(http.StatusBadRequest, "invalid share: the view must be a JSON object")
	}
	if len(req.View) > maxView {
		return &apiError{http.StatusRequestEntityTooLarge, "the view is too large: the limit is " + strconv.Itoa(maxView) + " bytes", map[string]any{"limit": maxView}}
	}
	// Checking the document decodes all of it: a conversion's worth of work.
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	kind := shareKind(shareRequest{Document: req.Document})
	if req.Kind != "" && req.Kind != kind {
		release()
		if req.Kind != ShareAINB && req.Kind != ShareTree {
			return errorf(http.StatusBadRequest, "invalid share: kind %s: want %q or %q", quoteCut(req.Kind), ShareAINB, ShareTree)
		}
		return errorf(http.StatusUnprocessableEntity, "invalid share: kind %q, but the document is a share of kind %q", req.Kind, kind)
	}
	req.Kind = kind
	err = checkShareDocument(kind, req.Document)
	release()
	if err != nil {
		return err
	}
	// Stored re-encoded from the checked parts, so the share holds only the document and the
	// view, compacted (json.RawMessage is), with the text otherwise as sent: no HTML escaping.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return err
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	id, err := s.store.Put(r.Context(), data)
	if errors.Is(err, share.ErrTooLarge) {
		return shareTooLarge(s.cfg.MaxShare)
	}
	if err != nil {
		return s.storeError(w, r, err)
	}
	s.log.InfoContext(r.Context(), "share created", "id", id, "bytes", len(data))
	w.Header().Set("Location", "/api/shares/"+id)
	writeJSON(w, http.StatusCreated, shareCreated{ID: id, URL: "/s/" + id, Embed: embedSnippet(s.origin(r), id)})
	return nil
}

// checkShareDocument checks a share's document: the editor's document of an AINB file, or
// the tree of a BYML or AAMP file as /api/tree answers it (format TreeFormat). A share may
// hold a document that does not build yet (work in progress), but it must be a document of
// one of these formats.
func checkShareDocument(kind string, raw []byte) error {
	if kind == ShareTree {
		return checkTreeShare(raw)
	}
	doc, err := decodeDocument(raw)
	if err != nil {
		return err
	}
	if err := doc.CheckFormat(); err != nil {
		return codecError(err)
	}
	return nil
}

// firstMemberIs reports whether the JSON object raw starts with the member name whose value
// is the string value, reading no further.
func firstMemberIs(raw []byte, name, value string) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	if tok, err := dec.Token(); err != nil || tok != name {
		return false
	}
	tok, err := dec.Token()
	return err == nil && tok == value
}

// checkTreeShare checks a tree share's document: {"format", "name", "kind", "document"},
// the document in kind's JSON form.
func checkTreeShare(raw []byte) error {
	m, err := strictMembers("tree document", raw, `{"format": "`+TreeFormat+`", "name": ..., "kind": "byml" or "aamp", "document": {...}}`,
		"format", "name", "kind", "document")
	if err != nil {
		return err
	}
	var name, kind string
	if json.Unmarshal(m["name"], &name) != nil {
		return errorf(http.StatusUnprocessableEntity, "invalid tree document: name: want a string")
	}
	if json.Unmarshal(m["kind"], &kind) != nil {
		return errorf(http.StatusUnprocessableEntity, "invalid tree document: kind: want a string")
	}
	codec := treecodec.Lookup(kind)
	if codec == nil {
		return errorf(http.StatusUnprocessableEntity, "invalid tree document: kind %s: want \"byml\" or \"aamp\"", quoteCut(kind))
	}
	if _, err := codec.FromJSON(m["document"]); err != nil {
		return errorf(http.StatusUnprocessableEntity, "invalid tree document: document: %v", err)
	}
	return nil
}

// handleGetShare returns a share exactly as stored. Shares are up to MaxShare bytes and
// anyone with a link may ask for one, many at once: 64 reads of a 60 MiB share once took the
// server to 1.86 GB. So a store that can stream a share (the directory) is copied to the
// client through a small buffer; a share a store hands out whole (PostgreSQL) is counted
// against the server-wide body budget while it is held, and past the budget the read is a
// 503 with Retry-After, as a request body would be.
func (s *Server) handleGetShare(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !share.ValidID(id) {
		return errorf(http.StatusNotFound, "no such share")
	}
	if o, ok := s.store.(share.Opener); ok {
		return s.streamShare(w, r, o, id)
	}
	// Stat first, so the reservation is the share's size rather than the largest a share
	// may be.
	info, err := s.store.Stat(r.Context(), id)
	if err != nil {
		return s.storeError(w, r, notFound(err))
	}
	release, err := s.reserveShare(w, r, info.Size)
	if err != nil {
		return err
	}
	defer release()
	data, err := s.store.Get(r.Context(), id)
	if err != nil {
		return s.storeError(w, r, notFound(err))
	}
	writeShareHeaders(w, int64(len(data)))
	if r.Method != http.MethodHead {
		w.Write(data)
	}
	return nil
}

// streamShare copies the share from the store to the client.
func (s *Server) streamShare(w http.ResponseWriter, r *http.Request, o share.Opener, id string) error {
	rc, info, err := o.Open(r.Context(), id)
	if err != nil {
		return s.storeError(w, r, notFound(err))
	}
	defer rc.Close()
	writeShareHeaders(w, info.Size)
	if r.Method == http.MethodHead {
		return nil
	}
	if _, err := io.Copy(w, rc); err != nil && r.Context().Err() == nil {
		// The status is sent: the client sees a body shorter than its Content-Length.
		s.log.WarnContext(r.Context(), "sending a share", "id", id, "err", err)
	}
	return nil
}

// heldShareFactor is how many times its size a share read whole takes in memory while it is
// sent: the database driver's buffer of the row and the copy it is scanned into.
const heldShareFactor = 2

// reserveShare counts a share of size bytes, read whole, against the body budget (at most
// the whole budget, so any share can be read when the server is otherwise idle).
func (s *Server) reserveShare(w http.ResponseWriter, r *http.Request, size int64) (release func(), err error) {
	n := min(heldShareFactor*size, s.budget.size)
	if n <= 0 {
		return func() {}, nil
	}
	release, err = s.budget.reserve(r.Context(), n)
	if err != nil {
		if r.Context().Err() != nil {
			return nil, r.Context().Err()
		}
		s.metrics.bodyRefused()
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		return nil, &apiError{Status: http.StatusServiceUnavailable,
			Message: "the server is sending too many shares at once: try again in a moment"}
	}
	return release, nil
}

func writeShareHeaders(w http.ResponseWriter, size int64) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	// Shares never change, so a browser may keep one for good.
	h.Set("Cache-Control", "private, max-age=31536000, immutable")
	w.WriteHeader(http.StatusOK)
}

// notFound turns the store's ErrNotFound into the client's 404; other errors stay faults of
// the store.
func notFound(err error) error {
	if errors.Is(err, share.ErrNotFound) {
		return errorf(http.StatusNotFound, "no such share")
	}
	return err
}

// statShare checks that the share named by the request's id exists, without reading it.
func (s *Server) statShare(r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !share.ValidID(id) {
		return errorf(http.StatusNotFound, "no such share")
	}
	_, err := s.store.Stat(r.Context(), id)
	if errors.Is(err, share.ErrNotFound) {
		return errorf(http.StatusNotFound, "no such share")
	}
	if err != nil {
		s.metrics.storeError()
	}
	return err
}
