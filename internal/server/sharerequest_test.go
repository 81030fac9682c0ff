package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzShareRequest: whatever the body, reading it never panics, and a body it accepts is
// UTF-8, an object of at most the three members, each spelled exactly and at most once, whose
// values are the very bytes the body holds for them.
func FuzzShareRequest(f *testing.F) {
	for _, s := range []string{`{"document":{"format":"x"},"view":{"x":1}}`, `{"Document":1}`, `{"document":1,"document":2}`,
		`{"view":{},"document":[]}`, "{\"document\":\"\xff\"}", `[]`, `{}`, `{"document":{"a":"\u00e9"}}`, `{"kind":"tree","document":{}} x`, `{"document":[1,]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseShareRequest(body)
		if err != nil {
			return
		}
		// The routes without checkJSON before (diff, merge) rely on the split to refuse text
		// that is not JSON.
		if !json.Valid(body) {
			t.Fatalf("accepted %q, which is not JSON", body)
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
			case "kind":
				var kind string
				if json.Unmarshal(v, &kind) != nil || kind != req.Kind {
					t.Fatalf("kind read as %q, the body holds %s", req.Kind, v)
				}
				continue
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
