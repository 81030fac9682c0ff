package server

import (
	"context"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/zs"
)

// A loose TotK .ainb.zs is compressed with one of the game's dictionaries. The browser keeps
// the game's ZsDic.pack.zs (for packs) and sends it along, as it does to /api/pack and
// /api/tree: /api/parse takes it as the multipart field "zsdic" beside "file", and
// /api/build?zstd=ID takes a multipart body of "zsdic" and "document". Without the field the
// server's own -zstd-dicts serve, as before.

// parseBodyCap is the most an /api/parse body may be: the file, the dictionaries and the
// multipart framing.
func (s *Server) parseBodyCap() int64 { return s.cfg.MaxUpload + maxZsDic + multipartSlack }

// buildBodyCap is the most an /api/build body may be: the document, the dictionaries and the
// multipart framing.
func (s *Server) buildBodyCap() int64 { return s.cfg.MaxDocument + maxZsDic + multipartSlack }

// isMultipart says whether a request's body is multipart/form-data.
func isMultipart(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// readDocumentForm reads /api/build's multipart body, the document with the game's
// ZsDic.pack.zs as the fields "document" and "zsdic", and decodes the document holding a
// conversion slot, as readDocument does: release it when done. The codec holds the
// request's dictionaries, else the server's (nil when neither has any).
func (s *Server) readDocumentForm(w http.ResponseWriter, r *http.Request) (*graph.Document, *zs.Codec, func(), error) {
	var body, zsdic []byte
	fields := map[string]formField{"document": {limit: s.cfg.MaxDocument}, "zsdic": {limit: maxZsDic}}
	err := s.readForm(w, r, s.buildBodyCap(), `send the document as the multipart field "document"`, fields, func(field string, _ *multipart.Part, b []byte) error {
		if field == "zsdic" {
			zsdic = b
		} else {
			body = b
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if len(body) == 0 {
		return nil, nil, nil, errorf(http.StatusBadRequest, "no multipart field \"document\": send the document as JSON in it")
	}
	codec, err := s.zsdics.codec(zsdic)
	if err != nil {
		return nil, nil, nil, err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return nil, nil, nil, err
	}
	doc, err := decodeDocument(body)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	return doc, codec, release, nil
}

// zstdEncode compresses a built file with dictionary dict: the request's dictionaries when
// it sent them (codec), else the server's own.
func (s *Server) zstdEncode(ctx context.Context, codec *zs.Codec, out []byte, dict uint32) ([]byte, error) {
	if codec == nil || codec == s.zsdics.base {
		if !s.zsdics.base.Has(dict) {
			return nil, noServerDict(dict)
		}
		codec = s.zsdics.base
	}
	// The upload's wrapping, as /api/parse told it (Ainb-Zstd-Dictionary), put back on.
	out, err := wrap.Wrapping{Kind: wrap.Zstd, Dictionary: dict}.Wrap(ctx, out, codec, zs.Fast)
	if err != nil {
		return nil, codecError(err)
	}
	return out, nil
}

// noServerDict is a build asked to compress with a dictionary the server was not given.
func noServerDict(id uint32) *apiError {
	return &apiError{http.StatusUnprocessableEntity,
		fmt.Sprintf("the server has no zstd dictionary %d%s to compress the file with; save it as .ainb", id, zs.DictLabel(id)),
		map[string]any{"dictionary": id}}
}
