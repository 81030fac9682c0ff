package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"ainbeditor/internal/jsontext"
)

// parseShareRequest reads the body of POST /api/shares strictly: an object with the members
// "kind" (optional), "document" and "view", each at most once and spelled exactly so. encoding/json would match
// "Document" too and keep the last of two, so a share could carry a member the server never
// checked beside one the browser never reads. The body has passed checkJSON.
func parseShareRequest(body []byte) (shareRequest, error) {
	var req shareRequest
	m, err := strictMembers("share", body, `{"kind": "ainb" or "tree" (optional), "document": ..., "view": {...}}`, "kind", "document", "view")
	if err != nil {
		return req, err
	}
	if k, ok := m["kind"]; ok && json.Unmarshal(k, &req.Kind) != nil {
		return req, errorf(http.StatusBadRequest, "invalid share: kind: want a string")
	}
	req.Document, req.View = m["document"], m["view"]
	return req, nil
}

// strictMembers reads a JSON object whose members may only be the names given, each at most
// once and spelled exactly so, and returns them as they are written. what names the object in
// errors, and want shows its shape.
func strictMembers(what string, body []byte, want string, names ...string) (map[string]json.RawMessage, error) {
	if !utf8.Valid(body) {
		return nil, errorf(http.StatusBadRequest, "invalid %s: the text is not UTF-8 at byte %d", what, firstInvalidUTF8(body))
	}
	// The scanner marks where each member's value begins and ends without building it: the
	// documents inside are read once, by their own readers (encoding/json read them twice,
	// and on Compare with… that was 40 % of the route).
	sc := jsontext.NewScanner(body)
	if sc.Peek() != '{' {
		return nil, errorf(http.StatusBadRequest, "invalid %s: not a JSON object; want %s", what, want)
	}
	sc.Open('{')
	out := make(map[string]json.RawMessage, len(names))
	for n := 0; sc.More('}', n); n++ {
		name, _ := sc.Key(nil)
		if sc.Err != nil {
			break
		}
		key := string(name)
		sc.Peek() // past the white space, so the value starts at Pos
		from := sc.Pos
		sc.Skip()
		if sc.Err != nil {
			return nil, errorf(http.StatusBadRequest, "invalid %s: %s: %v", what, key, sc.Err)
		}
		if !slices.Contains(names, key) {
			return nil, errorf(http.StatusBadRequest, "invalid %s: unknown member %q (members are spelled %s)", what, key, quotedList(names))
		}
		if _, seen := out[key]; seen {
			return nil, errorf(http.StatusBadRequest, "invalid %s: %s: a second member of this name", what, key)
		}
		out[key] = body[from:sc.Pos:sc.Pos]
	}
	// Peek answers 0 at the end and for a NUL byte alike: the end is where Pos is.
	if sc.Peek(); sc.Err == nil && sc.Pos < len(body) {
		sc.Fail("text after the object")
	}
	if sc.Err != nil {
		return nil, errorf(http.StatusBadRequest, "invalid %s: %v", what, sc.Err)
	}
	return out, nil
}

// quotedList is "a", "b" and "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
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
