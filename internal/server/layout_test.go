package server

import (
	"encoding/json"
	"testing"

	"ainbeditor/internal/graph"
)

func TestLayout(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	orig, err := graph.Decode(parseOK(t, s, "x.ainb", data))
	if err != nil {
		t.Fatal(err)
	}
	body := editDocument(t, s, data, func(d *graph.Document) {
		for i := range d.Positions {
			d.Positions[i].X, d.Positions[i].Y = 0, 0 // everything piled up
		}
		d.Positions[1] = graph.Position{X: -999, Y: 42, W: d.Positions[1].W, H: d.Positions[1].H, Pinned: true}
	})
	for _, tc := range []struct {
		query      string
		pinnedKept bool
	}{{"", true}, {"?reset=1", false}} {
		rec := do(s, "POST", "/api/layout"+tc.query, "application/json", body)
		if rec.Code != 200 {
			t.Fatalf("%q: status %d: %s", tc.query, rec.Code, cut(rec.Body.Bytes()))
		}
		var got struct{ Positions []graph.Position }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Positions) != len(orig.Positions) {
			t.Fatalf("%q: %d positions for %d nodes", tc.query, len(got.Positions), len(orig.Positions))
		}
		for i, p := range got.Positions {
			want := orig.Positions[i]
			if i == 1 && tc.pinnedKept {
				want = graph.Position{X: -999, Y: 42, W: want.W, H: want.H, Pinned: true}
			}
			// A pinned node keeps its place and its slot in the tree, so every other node
			// lands where the first layout put it.
			if p != want {
				t.Fatalf("%q: node %d at %+v, want %+v", tc.query, i, p, want)
			}
		}
	}
	if rec := do(s, "POST", "/api/layout", "text/plain", body); rec.Code != 415 {
		t.Fatalf("text body: status %d", rec.Code)
	}
	if rec := do(s, "POST", "/api/layout", "application/json", []byte(`{"format": "nope"}`)); rec.Code != 400 {
		t.Fatalf("bad document: status %d", rec.Code)
	}
}
