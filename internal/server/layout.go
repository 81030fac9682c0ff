package server

import (
	"net/http"

	"ainbeditor/internal/graph"
)

// handleLayout lays out a document's nodes again, for the editor's "tidy" command after
// structural edits: it answers {"positions": [...]}, one per node. Pinned positions stay
// unless ?reset=1 asks for a layout of everything.
func (s *Server) handleLayout(w http.ResponseWriter, r *http.Request) error {
	doc, release, err := s.readDocument(w, r)
	if err != nil {
		return err
	}
	defer release()
	if r.URL.Query().Get("reset") == "1" {
		for i := range doc.Positions {
			doc.Positions[i].Pinned = false
		}
	}
	graph.Layout(doc)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"positions": doc.Positions})
	return nil
}
