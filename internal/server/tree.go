package server

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/treecodec"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/yamltext"
	"ainbeditor/internal/zs"
)

// BYML and AAMP files ("trees") travel as the tagged JSON forms of packages byml and aamp
// (byml.ToJSON, aamp.ToJSON): every value carries its type, so an edit in the browser keeps
// an int an int and an f32 an f32. The server keeps nothing between requests:
//
//   - POST /api/tree[?form=compact] (multipart: "file", optional "zsdic") unwraps the file
//     (zstd with the game's dictionaries, or Yaz0), recognizes BYML or AAMP by magic and
//     answers {"format": TreeFormat, "name", "kind": "byml"|"aamp", "wrapping": {...}, "size",
//     "warnings": [{"path", "offset", "message"}], "document": JSON form}. Warnings name what
//     the file holds that the game may not take as meant (byml.Warnings: hash keys unsorted
//     or repeated), for the editor to show. The JSON form sends a shared node once and
//     refers to it elsewhere (byml's "id" and "ref"), so the document is proportional to
//     the file however much it shares. With form=compact a BYML file's document comes as
//     "compact" in byml's compact form instead (byml/compact.go), what the tree view opens
//     with: a sixth of the JSON form's size, written straight from the file's bytes
//     without a model (byml.AppendCompactFile) unless the file is unusual.
//   - POST /api/tree/build?kind=byml|aamp (multipart: "document", optional "file" and
//     "zsdic") writes the document. With "file", the file the document was opened from, the
//     new file keeps that file's layout and wrapping: the original is read again and the
//     edited tree grafted onto it (byml and aamp Document.Graft), so the writers' preserve modes
//     give back the original bytes for an unedited document and change only the bytes of a
//     value edit that fits the layout; the file comes back compressed as the original was
//     (same zstd dictionary, same Yaz0 alignment). Without "file" the layout is canonical and
//     nothing is compressed. The header Ainb-Tree-Layout says "preserved" or "canonical" for
//     BYML.
//   - POST /api/tree/yaml?kind= (a JSON form) answers its YAML (oead's conventions), and
//     POST /api/tree/from-yaml?kind=[&version=&bigEndian=] (YAML text) answers the JSON form;
//     a YAML problem is a 422 whose detail names the line (and column when known).
//
// The limits are /api/parse's: same-origin, the conversion rate, budgeted bodies, the
// conversion slots and the reply budget.

// TreeFormat names the JSON /api/tree answers.
const TreeFormat = "ainb-editor-tree/1"

// layoutHeader tells whether a built BYML file kept its original layout.
const layoutHeader = "Ainb-Tree-Layout"

// treeBodyCap is the most a tree request's body may hold: a file, a document, the
// dictionaries and the multipart framing.
func (s *Server) treeBodyCap() int64 {
	return s.cfg.MaxUpload + s.cfg.MaxDocument + maxZsDic + multipartSlack
}

// treeRequest is what a multipart tree request carries.
type treeRequest struct {
	name     string
	file     []byte // the file as the user has it, wrapped or not
	zsdic    []byte
	document []byte // a JSON form
}

// readTreeRequest reads the multipart fields "file", "zsdic" and "document", each at most
// once and within its own cap.
func (s *Server) readTreeRequest(w http.ResponseWriter, r *http.Request) (*treeRequest, error) {
	req := &treeRequest{}
	fields := map[string]formField{
		"file":     {limit: s.cfg.MaxUpload},
		"zsdic":    {limit: maxZsDic},
		"document": {limit: s.cfg.MaxDocument},
	}
	err := s.readForm(w, r, s.treeBodyCap(), `send the file as the multipart field "file" (and a document as "document")`, fields, func(field string, part *multipart.Part, data []byte) error {
		switch field {
		case "file":
			req.file, req.name = data, cleanName(part.FileName())
		case "zsdic":
			req.zsdic = data
		case "document":
			req.document = data
		}
		return nil
	})
	return req, err
}

// treeKind reads ?kind=byml|aamp.
func treeKind(r *http.Request) (*treecodec.Codec, error) {
	k := r.URL.Query().Get("kind")
	if c := treecodec.Lookup(k); c != nil {
		return c, nil
	}
	if k == "" {
		return nil, errorf(http.StatusBadRequest, "no kind: say kind=byml or kind=aamp")
	}
	return nil, errorf(http.StatusBadRequest, "kind=%s: say kind=byml or kind=aamp", quoteCut(k))
}

// unwrapped is a tree file with its wrapping removed.
type unwrapped struct {
	data     []byte
	wrapping wrap.Wrapping
	codec    *zs.Codec // for a zstd file: compresses the built file again
}

// unwrap removes a zstd (with the request's or the server's dictionaries) or Yaz0 wrapping,
// within the decompression budget of uploads.
func (s *Server) unwrap(data, zsdic []byte) (*unwrapped, error) {
	codec, err := s.zsdics.codec(zsdic)
	if err != nil {
		return nil, err
	}
	inner, w, err := wrap.Unwrap(data, codec, s.decompressLimit())
	if err != nil {
		return nil, codecError(err)
	}
	return &unwrapped{data: inner, wrapping: w, codec: codec}, nil
}

// wrap compresses a built file as u's file was, stopping once ctx is done.
func (u *unwrapped) wrap(ctx context.Context, out []byte) ([]byte, error) {
	b, err := u.wrapping.Wrap(ctx, out, u.codec, zs.Fast)
	if err != nil {
		return nil, codecError(err)
	}
	return b, nil
}

// notTree says what a file is instead of BYML or AAMP.
func notTree(name, format string) *apiError {
	what := map[string]string{
		"ainb":  "an AINB file: open it in the graph editor",
		"sarc":  "a SARC archive: open it as a pack",
		"zsdic": "a zstd dictionary",
		"zstd":  "zstd inside zstd",
		"yaz0":  "Yaz0 inside Yaz0",
		"":      "data of no known format",
	}[format]
	if name == "" {
		name = "the file"
	}
	return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("%s is not a BYML or AAMP file: it is %s", name, what),
		map[string]any{"format": format}}
}

// handleOpenTree answers a BYML or AAMP file's JSON form.
func (s *Server) handleOpenTree(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readTreeRequest(w, r)
	if err != nil {
		return err
	}
	if len(req.file) == 0 {
		return errorf(http.StatusBadRequest, "no file: send it in the multipart field \"file\"")
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	u, err := s.unwrap(req.file, req.zsdic)
	if err != nil {
		return err
	}
	kind := pack.Format(u.data)
	codec := treecodec.Lookup(kind)
	if codec == nil {
		return notTree(req.name, kind)
	}
	compact := r.URL.Query().Get("form") == "compact"
	wrapped := 0
	if u.wrapping.Kind != "" {
		wrapped = len(req.file)
	}
	limit := s.replyLimit(len(u.data), wrapped)
	// The reply is written into one buffer, the document last and within what the budget
	// leaves of it (one byte kept for the closing brace). The buffer is sized for the whole
	// reply up front, as each request in flight holds it: the compact form of 39 of the 43
	// corpus and game files over 10 KB is at most the file's size (ActorInfo's 0.74 of it;
	// the others' at most 1.07, or 1.33 for a 32 KB file, and up to 3.6 for files of a few
	// dozen bytes: they grow the buffer once), the tagged form up to 4.8 times.
	size := len(u.data) + 4096
	if !compact {
		size = 5*len(u.data) + 4096
	}
	b := make([]byte, 0, min(size, limit)+256+len(req.name))
	b = appendTreeHead(b, req.name, kind, u, len(u.data))
	if compact && kind == "byml" {
		// Straight from the file when it reads as plainly as most do: no model, no warnings
		// (only hashes out of order warn, and those go through the model).
		head := len(b)
		if out, ok := byml.AppendCompactFile(append(b, `"warnings":[],"compact":`...), u.data, limit-1); ok {
			release()
			writeRawJSON(w, http.StatusOK, append(out, '}'))
			return nil
		}
		b = b[:head]
	}
	tree, err := codec.Read(u.data)
	if err != nil {
		return codecError(err)
	}
	b = appendTreeWarnings(b, tree.Warnings())
	if compact && kind == "byml" {
		b = append(b, `,"compact":`...)
	} else {
		b = append(b, `,"document":`...)
	}
	if len(b) > limit {
		return s.replyError(&jsontext.TooLargeError{Limit: limit, Where: "warnings"}, "the file's JSON form", len(u.data), wrapped, codecError)
	}
	if compact && kind == "byml" {
		b, err = tree.(treecodec.BYML).AppendCompact(b, limit-1)
	} else {
		b, err = tree.AppendJSON(b, limit-1)
	}
	if err != nil {
		if tl, ok := err.(*jsontext.TooLargeError); ok {
			tl.Limit = limit // the reply's, of which the document had all but the brace
		}
		return s.replyError(err, "the file's JSON form", len(u.data), wrapped, codecError)
	}
	b = append(b, '}')
	release()
	writeRawJSON(w, http.StatusOK, b)
	return nil
}

// appendTreeHead writes /api/tree's reply up to its warnings.
func appendTreeHead(b []byte, name, kind string, u *unwrapped, size int) []byte {
	b = append(b, `{"format":`...)
	b = jsontext.AppendString(b, TreeFormat)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, name)
	b = append(b, `,"kind":`...)
	b = jsontext.AppendString(b, kind)
	b = appendWrapping(append(b, `,"wrapping":`...), u.wrapping)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, int64(size), 10)
	return append(b, ',')
}

// appendTreeWarnings writes the "warnings" member of /api/tree's reply.
func appendTreeWarnings(b []byte, warnings []byml.Warning) []byte {
	b = append(b, `"warnings":[`...)
	for i, w := range warnings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = jsontext.AppendString(b, w.Path)
		b = append(b, `,"offset":`...)
		b = strconv.AppendInt(b, w.Offset, 10)
		b = append(b, `,"message":`...)
		b = jsontext.AppendString(b, w.Message)
		b = append(b, '}')
	}
	return append(b, ']')
}

// handleBuildTree writes a JSON form as a file, in the layout and wrapping of the file it was
// opened from when that comes along (see the top of this file).
func (s *Server) handleBuildTree(w http.ResponseWriter, r *http.Request) error {
	codec, err := treeKind(r)
	if err != nil {
		return err
	}
	req, err := s.readTreeRequest(w, r)
	if err != nil {
		return err
	}
	if len(req.document) == 0 {
		return errorf(http.StatusBadRequest, "no document: send the JSON form in the multipart field \"document\"")
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	u := &unwrapped{}
	if len(req.file) > 0 {
		if u, err = s.unwrap(req.file, req.zsdic); err != nil {
			return err
		}
		if f := pack.Format(u.data); f != codec.Name {
			return notTree(req.name, f)
		}
	}
	tree, err := codec.FromJSON(req.document)
	if err != nil {
		return documentError(err)
	}
	if u.data != nil {
		orig, err := codec.Read(u.data)
		if err != nil {
			return errorf(http.StatusUnprocessableEntity, "the original file: %v", err)
		}
		orig.Graft(tree)
		tree = orig
	}
	layout := tree.Layout()
	out, err := tree.Bytes()
	if err != nil {
		return documentError(err)
	}
	if out, err = u.wrap(r.Context(), out); err != nil {
		return err
	}
	name := req.name
	if name == "" {
		name = "file." + codec.Name
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", attachment(name))
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Set("Cache-Control", "no-store")
	if layout != "" {
		h.Set(layoutHeader, layout)
	}
	release()
	w.WriteHeader(http.StatusOK)
	w.Write(out)
	return nil
}

// documentError is a JSON form the codecs refuse: its message says where and why.
func documentError(err error) *apiError {
	return errorf(http.StatusUnprocessableEntity, "the document is not valid: %v", err)
}

// handleTreeToYAML answers a JSON form's YAML.
func (s *Server) handleTreeToYAML(w http.ResponseWriter, r *http.Request) error {
	codec, err := treeKind(r)
	if err != nil {
		return err
	}
	body, err := s.readJSON(w, r)
	if err != nil {
		return err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	limit := s.replyLimit(len(body), 0)
	tree, err := codec.FromJSON(body)
	if err != nil {
		return documentError(err)
	}
	out, err := tree.YAML(limit)
	if err != nil {
		return s.replyError(err, "the YAML", len(body), 0, documentError)
	}
	h := w.Header()
	h.Set("Content-Type", "application/yaml; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Set("Cache-Control", "no-store")
	release()
	w.WriteHeader(http.StatusOK)
	w.Write(out)
	return nil
}

// yamlTypes are the content types /api/tree/from-yaml takes (and none at all).
var yamlTypes = []string{"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain"}

// handleTreeFromYAML answers the JSON form of a YAML text. YAML does not say a BYML file's
// version and byte order: ?version= (default 2) and ?bigEndian=1 do.
func (s *Server) handleTreeFromYAML(w http.ResponseWriter, r *http.Request) error {
	codec, err := treeKind(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	version := uint64(2)
	if v := q.Get("version"); v != "" {
		if version, err = strconv.ParseUint(v, 10, 16); err != nil || version < 1 || version > 7 {
			return errorf(http.StatusBadRequest, "version=%s: a BYML version is 1 to 7", quoteCut(v))
		}
	}
	bigEndian := q.Get("bigEndian") == "1" || q.Get("bigEndian") == "true"
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !slices.Contains(yamlTypes, mt) {
			return &apiError{http.StatusUnsupportedMediaType, "unsupported content type " + quoteCut(ct) + ": send the YAML text as application/yaml",
				map[string]any{"accepted": yamlTypes}}
		}
	}
	if r.ContentLength > s.cfg.MaxDocument {
		return tooLarge(s.cfg.MaxDocument)
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxDocument)
	text, err := readAll(r.Body, s.cfg.MaxDocument)
	if err != nil {
		return err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	limit := s.replyLimit(len(text), 0)
	tree, err := codec.FromYAML(text)
	if err != nil {
		return yamlError(err)
	}
	if t, ok := tree.(treecodec.BYML); ok {
		t.Version, t.BigEndian = uint16(version), bigEndian
	}
	out, err := tree.AppendJSON(nil, limit)
	if err != nil {
		return s.replyError(err, "the YAML's JSON form", len(text), 0, yamlError)
	}
	release()
	writeRawJSON(w, http.StatusOK, out)
	return nil
}

// yamlError is a YAML text the codecs refuse: a 422 naming the line, column and path when the
// codec knows them (a *yamltext.Error), so the editor can put the caret there.
func yamlError(err error) *apiError {
	detail := map[string]any{}
	var ye *yamltext.Error
	if !errors.As(err, &ye) {
		// Not about a place in the text (a document the format cannot hold, say): the
		// message without the codec's prefix.
		msg := err.Error()
		for _, p := range []string{"byml: ", "aamp: ", "yaml: "} {
			msg = strings.TrimPrefix(msg, p)
		}
		return &apiError{http.StatusUnprocessableEntity, "the YAML is not valid: " + msg, detail}
	}
	if ye.Line > 0 {
		detail["line"] = ye.Line
	}
	if ye.Column > 0 {
		detail["column"] = ye.Column
	}
	if ye.Path != "" {
		detail["path"] = ye.Path
	}
	return &apiError{http.StatusUnprocessableEntity, "the YAML is not valid: " + ye.Error(), detail}
}
