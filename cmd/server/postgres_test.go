package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ainbeditor/internal/share/pgtest"
	"ainbeditor/internal/testcorpus"
)

// TestTwoInstancesPostgres runs two server processes on one PostgreSQL database, as two
// instances behind a load balancer: a share created through one opens through the other,
// by the API and as a page, and both report healthy.
func TestTwoInstancesPostgres(t *testing.T) {
	files := testcorpus.AINB(t)
	db := pgtest.Start(t).NewDatabase(t)
	bin := buildServer(t)
	// Each has a data directory of its own, which must stay empty: shares go to the database.
	dataA, dataB := t.TempDir(), t.TempDir()
	a := startServer(t, bin, dataA, "AINB_STORE="+db)
	b := startServer(t, bin, dataB, "AINB_STORE="+db)
	c := &http.Client{Timeout: time.Minute}

	orig, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Post(a.url+"api/parse?name="+filepath.Base(files[0]), "application/octet-stream", bytes.NewReader(orig))
	doc := body(t, resp, err, http.StatusOK, "parse on A")
	shareBody := []byte(`{"kind":"ainb","document":` + strings.TrimSpace(string(doc)) + `,"view":{"command":0}}`)
	resp, err = c.Post(a.url+"api/shares", "application/json", bytes.NewReader(shareBody))
	var created struct{ ID, URL string }
	if err := json.Unmarshal(body(t, resp, err, http.StatusCreated, "share on A"), &created); err != nil {
		t.Fatal(err)
	}

	resp, err = c.Get(b.url + "api/shares/" + created.ID)
	if got := body(t, resp, err, http.StatusOK, "share on B"); !bytes.Equal(got, shareBody) {
		t.Fatalf("B serves another share: %.200s", got)
	}
	resp, err = c.Get(b.url + strings.TrimPrefix(created.URL, "/"))
	if page := body(t, resp, err, http.StatusOK, "share page on B"); !bytes.Contains(page, []byte(`data-share="`+created.ID+`"`)) {
		t.Fatalf("B's share page does not name the share: %s", page)
	}
	resp, err = c.Get(b.url + "s/" + strings.Repeat("a", 25) + "q")
	body(t, resp, err, http.StatusNotFound, "unknown share page on B")
	for _, s := range []*process{a, b} {
		resp, err := c.Get(s.url + "healthz")
		if got := body(t, resp, err, http.StatusOK, "healthz"); string(got) != "{\"status\":\"ok\"}\n" {
			t.Fatalf("healthz: %s", got)
		}
	}
	for _, dir := range []string{dataA, dataB} {
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("data directory %s holds %v with a PostgreSQL store", dir, entries)
		}
	}
	a.stop(t)
	b.stop(t)
	if log := a.stderr.String(); !strings.Contains(log, "store=postgres") || strings.Contains(log, "host=") {
		t.Fatalf("A's log should name the store's kind and not its URL:\n%s", log)
	}
}
