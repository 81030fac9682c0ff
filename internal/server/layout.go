package server

import (
	"net/http"
	"strconv"

	"ainbeditor/internal/graph"
)

// handleLayout lays out a document's nodes again, for the editor's "tidy" command after
// structural edits: it answers {"positions": [{"id": 3, "x": 340, "y": 0}, ...]}, one per
// node in the document's order, with "pinned": true on the nodes that stayed put. Pinned
// positions stay unless ?reset=1 asks for a layout of everything (and unpins every node).
// ?aspect=1.78 is the width-to-height ratio of the editor's canvas, which the arrangement
// aims at; without it (or out of 0.01..100) the layout aims at graph.DefaultAspect.
func (s *Server) handleLayout(w http.ResponseWriter, r *http.Request) error {
	doc, release, err := s.readDocument(w, r)
	if err != nil {
		return err
	}
	defer release()
	if r.URL.Query().Get("reset") == "1" {
		for i := range doc.Nodes {
			doc.Nodes[i].Pinned = false
		}
	}
	aspect, err := strconv.ParseFloat(r.URL.Query().Get("aspect"), 64)
	if err != nil {
		aspect = graph.DefaultAspect
	}
	graph.LayoutAspect(doc, aspect)
	w.Header().Set("Cache-Control", "no-store")
	reply := graph.AppendPositions(make([]byte, 0, 40*len(doc.Nodes)+32), doc)
	release()
	writeRawJSON(w, http.StatusOK, reply)
	return nil
}
