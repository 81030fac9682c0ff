package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/zs"
)

// rawUploadTypes are the content types /api/parse takes as the file itself. An empty type
// counts too: a browser's fetch with a Blob of unknown type sends none.
var rawUploadTypes = []string{"application/octet-stream", "application/zstd", "application/x-zstd"}

// zstdDictHeader answers a zstd upload with the dictionary id of its first frame (0 for
// none); /api/build?zstd=ID compresses with it again.
const zstdDictHeader = "Ainb-Zstd-Dictionary"

// multipartSlack is what multipart framing (boundaries, part headers) may add to a file.
const multipartSlack = 64 << 10

// handleParse turns an uploaded AINB file, plain or zstd-compressed, into an editor document.
func (s *Server) handleParse(w http.ResponseWriter, r *http.Request) error {
	data, name, zsdic, err := s.readUpload(w, r)
	if err != nil {
		return err
	}
	if len(data) == 0 {
		return errorf(http.StatusBadRequest, "empty upload: send the .ainb file as the request body or as the multipart field \"file\"")
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	wrapped := 0 // the upload's size when it came zstd-compressed
	if zs.IsZstd(data) {
		codec, err := s.zsdics.codec(zsdic)
		if err != nil {
			return err
		}
		inner, wr, err := wrap.Unwrap(data, codec, s.decompressLimit())
		if err != nil {
			if len(zsdic) > 0 {
				return unwrapError(err, missingZsDic)
			}
			return unwrapError(err, missingServerDict)
		}
		wrapped, data = len(data), inner
		// The editor saves the file back compressed the same way (see handleBuild).
		w.Header().Set(zstdDictHeader, strconv.FormatUint(uint64(wr.Dictionary), 10))
	}
	if err := gone(r); err != nil {
		return err
	}
	doc, err := graph.Parse(name, data)
	if err != nil {
		return openError(data, wrapped > 0, err)
	}
	if err := gone(r); err != nil {
		return err
	}
	bp := replyBuffers.Get().(*[]byte)
	defer putReplyBuffer(bp)
	limit := s.replyLimit(len(data), wrapped)
	// One byte more than the hint leaves room for writeRawJSON's newline; a hint past the
	// budget is not allocated ahead.
	reply, err := doc.AppendJSONLimit(slices.Grow((*bp)[:0], min(doc.EncodedSizeHint(), limit)+1), limit)
	if err != nil {
		return s.replyError(err, "the file's document", len(data), wrapped, codecError)
	}
	*bp = reply
	release()
	writeRawJSON(w, http.StatusOK, reply)
	return nil
}

// replyBuffers keeps document buffers from one parse to the next: a document is hundreds of
// kilobytes to megabytes, written once and dropped, and allocating it anew made a tenth of
// the memory a parse of a 210 KB file allocates, and of the collector's work.
var replyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledReply is the largest buffer kept: a rare huge document should not stay in memory.
const maxPooledReply = 8 << 20

func putReplyBuffer(bp *[]byte) {
	if cap(*bp) <= maxPooledReply {
		replyBuffers.Put(bp)
	}
}

// MaxReplyRatio and MaxReplyBase bound the document /api/parse answers: MaxReplyBase plus
// MaxReplyRatio times the size of the file parsed (decompressed, for a zstd upload). The
// reader's own budgets (ainb.MaxTextRatio, the expression text's) already bound each part of
// the document; this bounds the whole, whatever part a future change lets grow. The corpus's
// documents are at most 2.05 times their file (a 1 KB file, inside the base) and under 1.5
// times for files over 100 KB, so the budget leaves a margin of ten.
const (
	MaxReplyRatio = 16
	MaxReplyBase  = 4 << 20
)

// replyBudget is the most bytes of document a file of n bytes may answer.
func (s *Server) replyBudget(n int) int64 { return s.replyBase + s.replyRatio*int64(n) }

// checkReply refuses a document of size bytes parsed from a file of n bytes past the budget.
func (s *Server) checkReply(size, n int) error {
	limit := s.replyBudget(n)
	if int64(size) <= limit {
		return nil
	}
	return &apiError{http.StatusUnprocessableEntity,
		fmt.Sprintf("the file's document would be %d bytes of JSON, more than the %d bytes allowed for a %d-byte file (%d MiB and %d times its size): the file would expand without bound",
			size, limit, n, s.replyBase>>20, s.replyRatio),
		map[string]any{"limit": limit, "size": size}}
}

// readUpload returns the uploaded file and its name: the body itself, or the multipart field
// "file"; and the multipart field "zsdic", the game's ZsDic.pack.zs, if sent before "file".
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (data []byte, name string, zsdic []byte, err error) {
	ct := r.Header.Get("Content-Type")
	mediaType := ""
	if ct != "" {
		var err error
		if mediaType, _, err = mime.ParseMediaType(ct); err != nil {
			return nil, "", nil, unsupportedType(ct)
		}
	}
	limit := s.cfg.MaxUpload
	if mediaType == "multipart/form-data" {
		limit = s.parseBodyCap()
	} else if mediaType != "" && !slices.Contains(rawUploadTypes, mediaType) {
		return nil, "", nil, unsupportedType(mediaType)
	}
	if r.ContentLength > limit {
		return nil, "", nil, tooLarge(s.cfg.MaxUpload)
	}
	if mediaType == "multipart/form-data" {
		return s.readMultipart(w, r, limit)
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	data, err = readAll(r.Body, s.cfg.MaxUpload)
	return data, uploadName(r.URL.Query().Get("name")), nil, err
}

// readMultipart reads the multipart field "file" of an upload, and "zsdic", the game's
// ZsDic.pack.zs the page keeps, when the file needs a dictionary the server lacks.
func (s *Server) readMultipart(w http.ResponseWriter, r *http.Request, limit int64) (data []byte, name string, zsdic []byte, err error) {
	found := false
	fields := map[string]formField{"file": {limit: s.cfg.MaxUpload}, "zsdic": {limit: maxZsDic}}
	err = s.readForm(w, r, limit, `send the .ainb file as the multipart field "file"`, fields, func(field string, part *multipart.Part, b []byte) error {
		if field == "zsdic" {
			zsdic = b
			return nil
		}
		data, name, found = b, part.FileName(), true
		return nil
	})
	if err != nil {
		return nil, "", nil, err
	}
	if !found {
		return nil, "", nil, errorf(http.StatusBadRequest, "no multipart field \"file\": send the .ainb file in it")
	}
	if name == "" {
		name = r.URL.Query().Get("name")
	}
	return data, uploadName(name), zsdic, nil
}

// readAll reads r to the end, failing with 413 past max bytes.
func readAll(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe), int64(len(data)) > max:
		return nil, tooLarge(max)
	case err != nil:
		// A body cut short: the connection broke or the multipart framing is wrong.
		return nil, errorf(http.StatusBadRequest, "could not read the upload")
	}
	return data, nil
}

func unsupportedType(ct string) *apiError {
	accepted := append([]string{"multipart/form-data"}, rawUploadTypes...)
	return &apiError{http.StatusUnsupportedMediaType,
		"unsupported content type " + quoteCut(ct) + ": send the .ainb file as application/octet-stream or as the multipart field \"file\"",
		map[string]any{"accepted": accepted}}
}

// uploadName cleans an uploaded file's name for the document: the last path element (browsers
// on Windows may send a whole path), without control characters or quotes, and without the
// .zs of a compressed file, since the document builds the decompressed one.
func uploadName(name string) string {
	name = cleanName(name)
	if n := len(name) - len(".zs"); n >= 0 && strings.EqualFold(name[n:], ".zs") {
		name = name[:n]
	}
	if name == "" || strings.Trim(name, ".") == "" {
		return "file.ainb"
	}
	return name
}

// maxNameBytes keeps names within what every filesystem accepts.
const maxNameBytes = 200

// cleanName makes a name safe to show and to offer as a download: the part after the last
// slash or backslash, with invalid UTF-8, control characters and quotes dropped, trimmed, and
// cut to maxNameBytes on a character boundary. It is never used as a path by the server.
func cleanName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	if name == "/" || name == "." {
		return ""
	}
	var b strings.Builder
	for _, c := range name {
		if c == utf8.RuneError || unicode.IsControl(c) || c == '"' || !unicode.IsPrint(c) && c != ' ' {
			continue
		}
		if b.Len()+utf8.RuneLen(c) > maxNameBytes {
			break
		}
		b.WriteRune(c)
	}
	return strings.TrimSpace(b.String())
}

// quoteCut quotes a client-supplied string for a message, cut short.
func quoteCut(s string) string {
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return strconv.Quote(s)
}
