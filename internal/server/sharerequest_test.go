package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzShareRequest: whatever the body, reading it never panics, and a body it accepts is
// UTF-8, an object of at most the two members, each spelled exactly and at most once, whose
// values are the very bytes the body holds for them.
func FuzzShareRequest(f *testing.F) {
	for _, s := range []string{`{"document":{"format":"x"},"view":{"x":1}}`, `{"Document":1}`, `{"document":1,"document":2}`,
		`{"view":{},"document":[]}`, "{\"document\":\"\xff\"}", `[]`, `{}`, `{"document":{"a":"\u00e9"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !json.Valid(body) {
			return // checkJSON refuses it before
		}
		req, err := parseShareRequest(body)
		if err != nil {
			return
		}
		if !utf8.Valid(body) {
			t.Fatal("accepted text that is not UTF-8")
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("accepted %q, which is not an object: %v", body, err)
		}
		for k, v := range m {
			var got json.RawMessage
			switch k {
			case "document":
				got = req.Document
			case "view":
				got = req.View
			default:
				t.Fatalf("accepted a member %q", k)
			}
			if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(v)) {
				t.Fatalf("member %s read as %s, the body holds %s", k, got, v)
			}
		}
	})
}
