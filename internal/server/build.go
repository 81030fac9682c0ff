package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unsafe"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/zs"
)

// handleBuild turns an editor document into an AINB file, offered as a download. With
// ?zstd=ID the file comes zstd-compressed with dictionary ID (0: none) and named .zs, as the
// upload it was opened from was (see zstdDictHeader).
func (s *Server) handleBuild(w http.ResponseWriter, r *http.Request) error {
	dict, compress, err := zstdParam(r)
	if err != nil {
		return err
	}
	var doc *graph.Document
	var codec *zs.Codec
	var release func()
	if isMultipart(r) {
		// With the game's dictionaries (zsdicupload.go).
		doc, codec, release, err = s.readDocumentForm(w, r)
	} else {
		if compress {
			// Refused before the document is read: without the dictionary the work is wasted.
			if !s.zsdics.base.Has(dict) {
				return noServerDict(dict)
			}
		}
		doc, release, err = s.readDocument(w, r)
	}
	if err != nil {
		return err
	}
	defer release()
	// The file is written into a kept buffer, as a parse's document is (replyBuffers).
	bp := replyBuffers.Get().(*[]byte)
	defer putReplyBuffer(bp)
	out, err := doc.BuildInto(*bp)
	if err != nil {
		return codecError(err)
	}
	*bp = out
	h := w.Header()
	name, ctype := doc.Name, "application/octet-stream"
	if compress {
		if out, err = s.zstdEncode(r.Context(), codec, out, dict); err != nil {
			return err
		}
		name, ctype = name+".zs", "application/zstd"
		h.Set(zstdDictHeader, strconv.FormatUint(uint64(dict), 10))
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", attachment(name))
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Set("Cache-Control", "no-store")
	release()
	w.WriteHeader(http.StatusOK)
	w.Write(out)
	return nil
}

// zstdParam reads ?zstd=ID, a dictionary id in decimal; compress is false without it.
func zstdParam(r *http.Request) (dict uint32, compress bool, err error) {
	q := r.URL.Query()
	if !q.Has("zstd") {
		return 0, false, nil
	}
	v := q.Get("zstd")
	id, perr := strconv.ParseUint(v, 10, 32)
	if perr != nil {
		return 0, false, errorf(http.StatusBadRequest, "zstd=%s: give the dictionary id as a decimal number, 0 for none", quoteCut(v))
	}
	return uint32(id), true, nil
}

// readDocument reads and decodes a document body, holding a conversion slot: release it when
// done with the document.
func (s *Server) readDocument(w http.ResponseWriter, r *http.Request) (*graph.Document, func(), error) {
	body, err := s.readJSON(w, r)
	if err != nil {
		return nil, nil, err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return nil, nil, err
	}
	doc, err := decodeDocument(body)
	if err != nil {
		release()
		return nil, nil, err
	}
	return doc, release, nil
}

// readJSON reads a JSON request body of at most MaxDocument bytes.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return s.readJSONLimit(w, r, s.cfg.MaxDocument)
}

// readJSONLimit reads a JSON request body of at most limit bytes.
func (s *Server) readJSONLimit(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return nil, &apiError{http.StatusUnsupportedMediaType,
			"unsupported content type " + quoteCut(ct) + ": send the document as application/json",
			map[string]any{"accepted": []string{"application/json"}}}
	}
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	body, err := readAll(r.Body, limit)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, errorf(http.StatusBadRequest, "empty body: send the document as JSON")
	}
	return body, nil
}

// decodeDocument decodes a document in one pass: text that is not JSON is a 400 saying where;
// JSON that is not a document (unknown members, wrong kinds of values, out-of-range numbers)
// is a 422 listing every problem with its path.
func decodeDocument(data []byte) (*graph.Document, error) {
	// The body is this request's own buffer and nothing writes it again: the document's
	// strings may share it instead of a copy of the whole text.
	doc, err := graph.DecodeText(unsafe.String(unsafe.SliceData(data), len(data)))
	var se *graph.SyntaxError
	var pe *graph.ProblemsError
	switch {
	case errors.As(err, &se):
		detail := map[string]any{"offset": se.Offset, "line": se.Line, "column": se.Column}
		if se.Path != "" {
			detail["path"] = se.Path
		}
		return nil, &apiError{http.StatusBadRequest, fmt.Sprintf("invalid JSON at line %d, column %d: %s", se.Line, se.Column, se.Reason), detail}
	case errors.As(err, &pe):
		return nil, problemsError(pe)
	case err != nil:
		return nil, &apiError{Status: http.StatusBadRequest, Message: "invalid document: " + err.Error()}
	}
	return doc, nil
}

// checkJSON rejects text that is not JSON, saying where, before anything tries to decode it.
func checkJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &apiError{http.StatusBadRequest, fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, se.Error()), map[string]any{"offset": se.Offset}}
	}
	return errorf(http.StatusBadRequest, "invalid JSON")
}

// jsonMessage describes a decoding error in JSON terms: encoding/json's type errors name Go
// types, which mean nothing to the editor's users.
func jsonMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s: a JSON %s is not allowed here", te.Field, te.Value)
		}
		return fmt.Sprintf("a JSON %s is not allowed here", te.Value)
	}
	return err.Error()
}

// attachment is the Content-Disposition of a download named name, cleaned so no header
// injection, path or odd character reaches the browser. A name beyond ASCII travels in
// filename* (RFC 6266), with an ASCII stand-in for old clients.
func attachment(name string) string {
	name = cleanName(name)
	if name == "" {
		name = "file.ainb"
	}
	ascii := strings.Map(func(c rune) rune {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return '_'
		}
		return c
	}, name)
	v := `attachment; filename="` + ascii + `"`
	if ascii != name {
		v += "; filename*=UTF-8''" + rfc5987(name)
	}
	return v
}

// rfc5987 percent-encodes s as an ext-value: everything but attr-char.
func rfc5987(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
