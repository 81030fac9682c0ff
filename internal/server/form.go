package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
)

// Every multipart body (/api/parse, /api/pack, /api/pack/build, /api/tree, /api/tree/build)
// is read by readForm, so they share one set of bounds: the whole body within its route's
// cap before any part is parsed, each part within its field's cap as it is read, a field's
// parts together within the field's total, and a bounded number of parts. mime/multipart
// itself bounds each part's header (10 MiB, 10,000 lines); the body's cap is below that.

// formField is a multipart field a route takes.
type formField struct {
	limit int64 // bytes one part may hold
	total int64 // bytes all the field's parts may hold together; 0 means limit
	many  bool  // the field may come more than once
}

// maxParts bounds the parts of a body, known fields or not: each costs a header map and a
// call, and a body of empty parts would otherwise be tens of thousands of them per megabyte.
// The editor sends at most one part per changed member of a pack.
const maxParts = 1 << 16

// readForm reads a multipart/form-data body of at most bodyCap bytes and calls got, in
// order, with each part of a field in fields and its bytes; parts of other fields are
// skipped. A body of another type is a 415 whose message ends with what (what to send).
func (s *Server) readForm(w http.ResponseWriter, r *http.Request, bodyCap int64, what string,
	fields map[string]formField, got func(field string, part *multipart.Part, data []byte) error) error {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "multipart/form-data" {
		return &apiError{http.StatusUnsupportedMediaType, "unsupported content type " + quoteCut(ct) + ": " + what,
			map[string]any{"accepted": []string{"multipart/form-data"}}}
	}
	if r.ContentLength > bodyCap {
		return tooLarge(bodyCap)
	}
	r.Body = http.MaxBytesReader(w, r.Body, bodyCap)
	mr, err := r.MultipartReader()
	if err != nil {
		return errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
	}
	read := map[string]int64{} // bytes read per field
	seen := map[string]bool{}
	for n := 0; ; n++ {
		if err := r.Context().Err(); err != nil {
			return err
		}
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return tooLarge(mbe.Limit)
			}
			return errorf(http.StatusBadRequest, "malformed multipart body: part %d: %v", n+1, err)
		}
		if n >= maxParts {
			return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the multipart body has more than %d parts", maxParts),
				map[string]any{"limit": maxParts}}
		}
		name := part.FormName()
		f, ok := fields[name]
		if !ok {
			continue // NextPart skips what is left of this part
		}
		if seen[name] && !f.many {
			return errorf(http.StatusBadRequest, "the multipart field %q comes twice", name)
		}
		seen[name] = true
		total := f.total
		if total == 0 {
			total = f.limit
		}
		limit := min(f.limit, total-read[name])
		data, err := readAll(part, limit)
		if err != nil {
			var ae *apiError
			if limit < f.limit && errors.As(err, &ae) && ae.Status == http.StatusRequestEntityTooLarge {
				// The field's parts together went past its total: say so, not the part's rest.
				return tooLarge(total)
			}
			return err
		}
		read[name] += int64(len(data))
		if err := got(name, part, data); err != nil {
			return err
		}
	}
}
