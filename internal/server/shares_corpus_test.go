package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// A shared view must be the very file: every unedited corpus file, parsed, shared, fetched
// back from the share and built, gives the bytes it was parsed from. The share store keeps
// the document's text (layout facts included) as sent, so nothing may be lost on the way.
func TestShareRoundTripCorpus(t *testing.T) {
	// One client shares the whole corpus in a row, as no person would: no rate limits.
	s := newTestServer(t, noRateLimits)
	for _, path := range testcorpus.AINB(t) {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc := parseOK(t, s, base, orig)
			body := append(append([]byte(`{"document":`), doc...), `,"view":{"command":0}}`...)
			id := createShare(t, s, body)
			rec := do(s, "GET", "/api/shares/"+id, "", nil)
			if rec.Code != http.StatusOK {
				t.Fatalf("get share %s: %d: %s", id, rec.Code, cut(rec.Body.Bytes()))
			}
			var got struct {
				Document json.RawMessage `json:"document"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("share body: %v", err)
			}
			rec = do(s, "POST", "/api/build", "application/json", got.Document)
			if rec.Code != http.StatusOK {
				t.Fatalf("build the shared document: %d: %s", rec.Code, cut(rec.Body.Bytes()))
			}
			if !bytes.Equal(rec.Body.Bytes(), orig) {
				t.Fatalf("the shared document builds %d bytes that differ from the original %d", rec.Body.Len(), len(orig))
			}
		})
	}
}
