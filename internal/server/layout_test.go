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
		for i := range d.Nodes {
			d.Nodes[i].X, d.Nodes[i].Y = 0, 0 // everything piled up
		}
		d.Nodes[1].X, d.Nodes[1].Y, d.Nodes[1].Pinned = -999, 42, true
	})
	type position struct {
		ID     int     `json:"id"`
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Pinned bool    `json:"pinned"`
	}
	for _, tc := range []struct {
		query      string
		pinnedKept bool
	}{{"", true}, {"?reset=1", false}} {
		rec := do(s, "POST", "/api/layout"+tc.query, "application/json", body)
		if rec.Code != 200 {
			t.Fatalf("%q: status %d: %s", tc.query, rec.Code, cut(rec.Body.Bytes()))
		}
		var got struct{ Positions []position }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Positions) != len(orig.Nodes) {
			t.Fatalf("%q: %d positions for %d nodes", tc.query, len(got.Positions), len(orig.Nodes))
		}
		for i, p := range got.Positions {
			n := orig.Nodes[i]
			want := position{n.ID, n.X, n.Y, false}
			if i == 1 && tc.pinnedKept {
				want = position{n.ID, -999, 42, true}
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
	if rec := do(s, "POST", "/api/layout", "application/json", []byte(`{"format": "nope", "nodes": 3}`)); rec.Code != 422 {
		t.Fatalf("bad document: status %d", rec.Code)
	}
}
