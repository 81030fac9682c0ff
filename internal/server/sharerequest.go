package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"unicode/utf8"
)

// parseShareRequest reads the body of POST /api/shares strictly: an object with the members
// "document" and "view", each at most once and spelled exactly so. encoding/json would match
// "Document" too and keep the last of two, so a share could carry a member the server never
// checked beside one the browser never reads. The body has passed checkJSON.
func parseShareRequest(body []byte) (shareRequest, error) {
	const want = `; want {"document": ..., "view": {...}}`
	var req shareRequest
	if !utf8.Valid(body) {
		return req, errorf(http.StatusBadRequest, "invalid share: the text is not UTF-8 at byte %d", firstInvalidUTF8(body))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return req, errorf(http.StatusBadRequest, "invalid share: not a JSON object"+want)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return req, errorf(http.StatusBadRequest, "invalid share: %s", jsonMessage(err))
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return req, errorf(http.StatusBadRequest, "invalid share: %s: %s", key, jsonMessage(err))
		}
		switch {
		case key != "document" && key != "view":
			return req, errorf(http.StatusBadRequest, "invalid share: unknown member %q (members are spelled \"document\" and \"view\")", key)
		case seen[key]:
			return req, errorf(http.StatusBadRequest, "invalid share: %s: a second member of this name", key)
		}
		seen[key] = true
		if key == "document" {
			req.Document = raw
		} else {
			req.View = raw
		}
	}
	return req, nil
}

// firstInvalidUTF8 is the offset of the first byte of b that is not UTF-8.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
