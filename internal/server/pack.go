package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"sync"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/zs"
)

// Packs (SARC archives, bare, Yaz0 or TotK zstd) travel whole both ways: the browser keeps
// the file as the user gave it, opens it with /api/pack and saves it with /api/pack/build,
// sending the original again with the members it changed. The server keeps nothing between
// the two. TotK's dictionaries come with the request (the multipart field "zsdic", the game's
// ZsDic.pack.zs, which the browser keeps) or from the server's -zstd-dicts.

// PackFormat names the JSON /api/pack answers.
const PackFormat = "ainb-editor-pack/1"

// maxZsDic bounds the zsdic field: the game's ZsDic.pack.zs is 108 KB.
const maxZsDic = 1 << 20

// packBodyCap is the most a pack request's body may hold: the pack, as many bytes of
// replaced members, the dictionaries and the multipart framing.
func (s *Server) packBodyCap() int64 { return 2*s.cfg.MaxUpload + maxZsDic + multipartSlack }

// packRequest is what a pack request's multipart body carries.
type packRequest struct {
	name    string
	file    []byte
	zsdic   []byte
	members []pack.Replacement // in the order sent
}

// readPackRequest reads the fields "file" (required), "zsdic" and any number of "member"
// (each named by its path in the pack), each within its own cap.
func (s *Server) readPackRequest(w http.ResponseWriter, r *http.Request) (*packRequest, error) {
	req := &packRequest{}
	fields := map[string]formField{
		"file":   {limit: s.cfg.MaxUpload},
		"zsdic":  {limit: maxZsDic},
		"member": {limit: s.cfg.MaxUpload, many: true},
	}
	err := s.readForm(w, r, s.packBodyCap(), `send the pack as the multipart field "file"`, fields, func(field string, part *multipart.Part, data []byte) error {
		switch field {
		case "file":
			req.file, req.name = data, cleanName(part.FileName())
		case "zsdic":
			req.zsdic = data
		case "member":
			// The member's whole path: FileName would keep only its last element.
			_, params, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
			name := params["filename"]
			if name == "" {
				return errorf(http.StatusBadRequest, "a multipart field \"member\" has no file name: name it as the member's path in the pack")
			}
			req.members = append(req.members, pack.Replacement{Name: name, Data: data})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(req.file) == 0 {
		return nil, errorf(http.StatusBadRequest, "no pack: send it in the multipart field \"file\"")
	}
	return req, nil
}

// openPack unwraps and reads the request's pack, within the decompression budget.
func (s *Server) openPack(req *packRequest) (*pack.Pack, *zs.Codec, error) {
	codec, err := s.zsdics.codec(req.zsdic)
	if err != nil {
		return nil, nil, err
	}
	p, err := pack.Open(req.file, codec, uint64(DecompressFactor*s.cfg.MaxUpload))
	if err != nil {
		return nil, nil, codecError(err)
	}
	return p, codec, nil
}

// handleOpenPack lists a pack's members with their bytes (base64) and how the pack is
// wrapped, within the reply budget: a listing is a third more than the archive, but a
// member's name of control characters is written six times its size.
func (s *Server) handleOpenPack(w http.ResponseWriter, r *http.Request) error {
	return s.withPack(w, r, func(req *packRequest, p *pack.Pack, _ *zs.Codec, release func()) error {
		n, wrapped := archiveSize(p), 0
		if p.Wrapping.Kind != "" {
			wrapped = len(req.file)
		}
		b, err := appendPackJSON(nil, req.name, p, s.replyLimit(n, wrapped))
		if err != nil {
			return s.replyError(err, "the pack's listing", n, wrapped, codecError)
		}
		release()
		writeRawJSON(w, http.StatusOK, b)
		return nil
	})
}

// archiveSize is about the size of p's archive unwrapped: its members' bytes and names and
// their entries.
func archiveSize(p *pack.Pack) int {
	n := 0x28 // the headers
	for _, f := range p.Archive.Files {
		n += 16 + len(f.Name) + 1 + len(f.Data)
	}
	return n
}

// appendPackJSON is the answer of /api/pack, stopping with a *jsontext.TooLargeError once b
// would hold more than limit bytes. A member is refused before its bytes are written.
func appendPackJSON(b []byte, name string, p *pack.Pack, limit int) ([]byte, error) {
	b = append(b, `{"format":`...)
	b = jsontext.AppendString(b, PackFormat)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, name)
	b = appendWrapping(append(b, `,"wrapping":`...), p.Wrapping)
	b = append(b, `,"warnings":`...)
	b = appendStrings(b, p.Warnings())
	b = append(b, `,"files":[`...)
	for i, m := range p.Members() {
		data := p.Archive.Files[i].Data
		if len(b)+len(m.Name)+base64.StdEncoding.EncodedLen(len(data)) > limit {
			return nil, &jsontext.TooLargeError{Limit: limit, Where: fmt.Sprintf("member %d (%s)", i, m.Name)}
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = jsontext.AppendString(b, m.Name)
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, int64(m.Size), 10)
		b = append(b, `,"format":`...)
		b = jsontext.AppendString(b, m.Format)
		b = append(b, `,"data":"`...)
		b = base64.StdEncoding.AppendEncode(b, data)
		b = append(b, `"}`...)
		if len(b) > limit {
			return nil, &jsontext.TooLargeError{Limit: limit, Where: fmt.Sprintf("member %d (%s)", i, m.Name)}
		}
		b = jsontext.Grow(b, limit)
	}
	if b = append(b, "]}"...); len(b) > limit {
		return nil, &jsontext.TooLargeError{Limit: limit}
	}
	return b, nil
}

// appendStrings appends a JSON array of strings ([] for none).
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, s)
	}
	return append(b, ']')
}

// appendWrapping writes the JSON object of a wrapping, as /api/pack and /api/tree answer it.
func appendWrapping(b []byte, w wrap.Wrapping) []byte {
	b = append(b, `{"kind":`...)
	b = jsontext.AppendString(b, w.Kind)
	b = append(b, `,"dictionary":`...)
	b = strconv.AppendUint(b, uint64(w.Dictionary), 10)
	b = append(b, `,"yaz0Alignment":`...)
	b = strconv.AppendUint(b, uint64(w.Yaz0Alignment), 10)
	return append(b, '}')
}

// packWarningsHeader carries, on a saved pack, the JSON array of what the pack breaks of its
// format's rules and what saving did about it (kept while unedited, corrected once edited);
// absent when there is nothing to say.
const packWarningsHeader = "Ainb-Pack-Warnings"

// handleBuildPack writes the pack again with the members sent replaced, in its wrapping.
func (s *Server) handleBuildPack(w http.ResponseWriter, r *http.Request) error {
	return s.withPack(w, r, func(req *packRequest, p *pack.Pack, codec *zs.Codec, release func()) error {
		if err := p.ReplaceAll(req.members); err != nil {
			return codecError(err)
		}
		// An unwrapped pack is written into a kept buffer, as a built file is.
		bp := replyBuffers.Get().(*[]byte)
		defer putReplyBuffer(bp)
		out, err := p.SaveInto(r.Context(), *bp, codec, zs.Fast)
		if err != nil {
			return codecError(err)
		}
		*bp = out
		name := req.name
		if name == "" {
			name = "file.pack"
		}
		h := w.Header()
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		h.Set("Content-Length", strconv.Itoa(len(out)))
		if ws := p.Warnings(); ws != nil {
			// The texts are ASCII (offsets and sizes; no member names), as a header needs.
			h.Set(packWarningsHeader, string(appendStrings(nil, ws)))
		}
		release()
		_, err = w.Write(out)
		return err
	})
}

// withPack reads a pack request, takes a conversion slot and opens the pack for fn, which
// gives the slot back (release) once its reply is built, before writing it.
func (s *Server) withPack(w http.ResponseWriter, r *http.Request, fn func(req *packRequest, p *pack.Pack, codec *zs.Codec, release func()) error) error {
	req, err := s.readPackRequest(w, r)
	if err != nil {
		return err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return err
	}
	defer release()
	p, codec, err := s.openPack(req)
	if err != nil {
		return err
	}
	if err := gone(r); err != nil {
		return err
	}
	return fn(req, p, codec, release)
}

// zsdicCache keeps the codecs of the few ZsDic.pack.zs files clients send (one per game
// version), so a request does not rebuild the dictionaries' encoders. It holds no request's
// state: any instance answers any request the same.
type zsdicCache struct {
	base *zs.Codec // the server's -zstd-dicts (possibly none: frames without one still decode)

	mu    sync.Mutex
	byKey map[[32]byte]*zs.Codec
	order [][32]byte // oldest first
}

const zsdicCacheSize = 4

func newZsdicCache(dicts [][]byte) (*zsdicCache, error) {
	c := &zsdicCache{byKey: map[[32]byte]*zs.Codec{}}
	var ds []zs.Dict
	for i, b := range dicts {
		d, err := zs.ParseDict(fmt.Sprintf("number %d", i+1), b)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	var err error
	if c.base, err = zs.New(ds...); err != nil {
		return nil, err
	}
	return c, nil
}

// close releases the server's codec and the cached ones. No request may be using them.
func (c *zsdicCache) close() {
	c.base.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, codec := range c.byKey {
		codec.Close()
	}
}

// codec returns the codec for a request's ZsDic.pack.zs, or the server's own without one.
func (c *zsdicCache) codec(zsdic []byte) (*zs.Codec, error) {
	if len(zsdic) == 0 {
		return c.base, nil
	}
	key := sha256.Sum256(zsdic)
	c.mu.Lock()
	defer c.mu.Unlock()
	if codec, ok := c.byKey[key]; ok {
		return codec, nil
	}
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, "the zsdic field is not the game's %s: %v", zs.ZsDicName, err)
	}
	if len(c.order) == zsdicCacheSize {
		// An evicted codec may still be in use by a request; it holds no goroutines, so it is
		// left to the collector rather than closed under that request.
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = codec
	c.order = append(c.order, key)
	return codec, nil
}
