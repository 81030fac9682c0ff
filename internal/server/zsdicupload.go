package server

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
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

// unzstdUpload decompresses a zstd upload with the request's ZsDic.pack.zs, or with the
// server's dictionaries when the request sends none.
func (s *Server) unzstdUpload(data, zsdic []byte) ([]byte, error) {
	if len(zsdic) == 0 {
		return s.unzstd.decode(data)
	}
	codec, err := s.zsdics.codec(zsdic)
	if err != nil {
		return nil, err
	}
	// A damaged file is named damaged, with the place, as the server's own decoder says it.
	if _, err := scanFrames(data); err != nil {
		return nil, err
	}
	out, err := codec.DecodeLimit(data, uint64(s.unzstd.max))
	if err != nil {
		return nil, packError(err)
	}
	return out, nil
}

// isMultipart says whether a request's body is multipart/form-data.
func isMultipart(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}

// handleBuildZsDic is /api/build?zstd=ID with the document and the game's ZsDic.pack.zs as
// the multipart fields "document" and "zsdic": the file is built and compressed with the
// dictionary ID of those the request sends.
func (s *Server) handleBuildZsDic(w http.ResponseWriter, r *http.Request) error {
	dict, compress, err := zstdParam(r)
	if err != nil {
		return err
	}
	if r.ContentLength > s.buildBodyCap() {
		return tooLarge(s.cfg.MaxDocument)
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.buildBodyCap())
	mr, err := r.MultipartReader()
	if err != nil {
		return errorf(http.StatusBadRequest, "malformed multipart body: %v", err)
	}
	var body, zsdic []byte
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return tooLarge(s.cfg.MaxDocument)
			}
			return errorf(http.StatusBadRequest, "malformed multipart body")
		}
		switch part.FormName() {
		case "document":
			body, err = readAll(part, s.cfg.MaxDocument)
		case "zsdic":
			zsdic, err = readAll(part, maxZsDic)
		}
		if err != nil {
			return err
		}
	}
	if len(body) == 0 {
		return errorf(http.StatusBadRequest, "no multipart field \"document\": send the document as JSON in it")
	}
	codec, err := s.zsdics.codec(zsdic)
	if err != nil {
		return err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	doc, err := decodeDocument(body)
	if err != nil {
		return err
	}
	out, err := doc.Build()
	if err != nil {
		return codecError(err)
	}
	name, ctype := doc.Name, "application/octet-stream"
	h := w.Header()
	if compress {
		if codec == nil {
			// Neither the request nor the server has dictionaries: only dictionary 0 works.
			if out, err = s.unzstd.encode(out, dict); err != nil {
				return err
			}
		} else if out, err = codec.EncodeDict(dict, out); err != nil {
			return packError(err)
		}
		name, ctype = name+".zs", "application/zstd"
		h.Set(zstdDictHeader, strconv.FormatUint(uint64(dict), 10))
	}
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", attachment(name))
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
	return nil
}
