package server

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// Every game AINB file goes through /api/parse and back through /api/build to the same bytes,
// as a modder's unedited save does; the files a mod broke are the only exceptions, each named
// with what the server says.
func TestGameFilesParseBuild(t *testing.T) {
	refused := map[string]string{ // string references outside the string pool
		"TotK__Enemy_Bublin_Senior_3.actionseq.root.ainb__4659c7fc34.ainb":                   "outside the string pool",
		"TotK__Enemy_Bublin_Senior_4.brain.setordertoblackbord.module.ainb__251abb8bd2.ainb": "outside the string pool",
	}
	inexact := map[string]bool{}
	s := newTestServer(t, noRateLimits)
	exact := 0
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rec := do(s, "POST", "/api/parse?name="+url.QueryEscape(name), "application/octet-stream", data)
		if why, ok := refused[name]; ok {
			if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), why) {
				t.Errorf("%s: parse status %d (%s), want 422 saying %q", name, rec.Code, cut(rec.Body.Bytes()), why)
			}
			continue
		}
		if rec.Code != http.StatusOK {
			t.Errorf("%s: parse status %d: %s", name, rec.Code, cut(rec.Body.Bytes()))
			continue
		}
		built := do(s, "POST", "/api/build", "application/json", rec.Body.Bytes())
		if built.Code != http.StatusOK {
			t.Errorf("%s: build status %d: %s", name, built.Code, cut(built.Body.Bytes()))
			continue
		}
		if same := bytes.Equal(built.Body.Bytes(), data); same == inexact[name] {
			t.Errorf("%s: built the original bytes: %v, expected %v", name, same, !inexact[name])
			continue
		}
		if !inexact[name] {
			exact++
		}
	}
	t.Logf("%d game AINB files exact through /api/parse and /api/build", exact)
}
