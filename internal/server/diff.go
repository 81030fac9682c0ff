package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/diff"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/jsontext"
)

// diffSlack is what a diff or merge body holds besides its documents: the object around
// them, and a preference.
const diffSlack = 1 << 10

func (s *Server) diffBodyCap() int64  { return 2*s.cfg.MaxDocument + diffSlack }
func (s *Server) mergeBodyCap() int64 { return 3*s.cfg.MaxDocument + diffSlack }

// handleDiff answers what changed from document "a" to document "b" (the editor's Compare
// with…): {"changes": [{"op", "path", "old", "new", "nodeA", "nodeB"}, ...]}, in the order
// internal/diff lists them. nodeA and nodeB are the node ids the change belongs to in a and
// in b, left out where it belongs to none. When the diff matched nodes whose ids differ,
// "renumbered": [[id in a, id in b], ...] lists them (a's order), so the editor translates a
// reference in a's values to b's numbering.
func (s *Server) handleDiff(w http.ResponseWriter, r *http.Request) error {
	docs, _, n, release, err := s.readDocuments(w, r, s.diffBodyCap(), "diff request", `{"a": document, "b": document}`, "a", "b")
	if err != nil {
		return err
	}
	defer release()
	changes, renumbered := diff.DiffRenumbered(docs["a"], docs["b"])
	limit := s.replyLimit(n, 0)
	b, err := appendList(append(make([]byte, 0, 64*len(changes)+16*len(renumbered)+16), `{"changes":`...), changes, limit,
		diff.Change.AppendJSON, func(c diff.Change) change.Path { return c.Path })
	if err != nil {
		return s.replyError(err, "the list of changes", n, 0, codecError)
	}
	if len(renumbered) > 0 {
		// Two ids a pair: never more than the documents' node lists, which the body held.
		b = append(b, `,"renumbered":[`...)
		for k, p := range renumbered {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(strconv.AppendInt(append(strconv.AppendInt(append(b, '['), int64(p[0]), 10), ','), int64(p[1]), 10), ']')
		}
		b = append(b, ']')
	}
	replyDone(w, b, release)
	return nil
}

// handleMerge merges two edited versions of a document in three ways (the editor's Merge…):
// {"base", "ours", "theirs"} and optionally "prefer": "ours" or "theirs". It answers
// {"document": merged, "conflicts": [...]}: without a preference a merge with conflicts has
// no document (null) and lists each conflict with its path and three values; with one, the
// document takes that side at every conflict and the conflicts it settled are listed. A
// merge that cannot give a valid file (a link to a node one side removed, a document that
// does not build) is a 422 that says why.
func (s *Server) handleMerge(w http.ResponseWriter, r *http.Request) error {
	docs, raw, n, release, err := s.readDocuments(w, r, s.mergeBodyCap(), "merge request",
		`{"base": document, "ours": document, "theirs": document, "prefer": "ours" or "theirs" (optional)}`, "base", "ours", "theirs", "prefer")
	if err != nil {
		return err
	}
	defer release()
	prefer := change.NoPreference
	if p, ok := raw["prefer"]; ok {
		var text string
		if json.Unmarshal(p, &text) != nil {
			return errorf(http.StatusBadRequest, "invalid merge request: prefer: want \"ours\" or \"theirs\"")
		}
		if prefer, err = change.ParsePrefer(text); err != nil {
			return errorf(http.StatusBadRequest, "invalid merge request: prefer: %v", err)
		}
	}
	merged, conflicts, err := diff.Merge(docs["base"], docs["ours"], docs["theirs"], prefer)
	if err != nil {
		return errorf(http.StatusUnprocessableEntity, "the merge gives no valid file: %v", err)
	}
	var doc func([]byte, int) ([]byte, error)
	if merged != nil {
		doc = merged.AppendJSONLimit
	}
	return s.replyMerge(w, append(make([]byte, 0, 1024), '{'), doc, conflicts, s.replyLimit(n, 0), n, release)
}

// replyMerge finishes a merge's reply after b (its opening and any members before): the
// document, as doc writes it within limit (null without one), and the conflicts; n is what
// the budget was computed from.
func (s *Server) replyMerge(w http.ResponseWriter, b []byte, doc func([]byte, int) ([]byte, error), conflicts []change.Conflict, limit, n int, release func()) error {
	var err error
	b = append(b, `"document":`...)
	if doc == nil {
		b = append(b, "null"...)
	} else if b, err = doc(b, limit); err != nil {
		return s.replyError(err, "the merged document", n, 0, codecError)
	}
	b, err = appendList(append(b, `,"conflicts":`...), conflicts, limit,
		change.Conflict.AppendJSON, func(c change.Conflict) change.Path { return c.Path })
	if err != nil {
		return s.replyError(err, "the list of conflicts", n, 0, codecError)
	}
	replyDone(w, b, release)
	return nil
}

// replyDone closes a diff's or merge's reply, gives its conversion slot back and sends it.
func replyDone(w http.ResponseWriter, b []byte, release func()) {
	b = append(b, '}')
	release()
	w.Header().Set("Cache-Control", "no-store")
	writeRawJSON(w, http.StatusOK, b)
}

// appendList appends items as a JSON array, each as write gives it, and stops with a
// *jsontext.TooLargeError naming the item's place once the reply passes limit.
func appendList[T any](b []byte, items []T, limit int, write func(T, []byte) []byte, place func(T) change.Path) ([]byte, error) {
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = write(it, b)
		if len(b) > limit {
			return nil, &jsontext.TooLargeError{Limit: limit, Where: place(it).String()}
		}
	}
	return append(b, ']'), nil
}

// readDocuments reads a JSON object whose members named in names are editor documents
// (every one required) or, for "prefer", a preference, holding a conversion slot: release
// it when done. n is the body's size.
func (s *Server) readDocuments(w http.ResponseWriter, r *http.Request, limit int64, what, want string, names ...string) (map[string]*graph.Document, map[string]json.RawMessage, int, func(), error) {
	body, err := s.readJSONLimit(w, r, limit)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	m, err := strictMembers(what, body, want, names...)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	release, err := s.conversions.acquire(r.Context())
	if err != nil {
		return nil, nil, 0, nil, err
	}
	docs := map[string]*graph.Document{}
	for _, name := range names {
		if name == "prefer" {
			continue
		}
		raw, ok := m[name]
		if !ok {
			release()
			return nil, nil, 0, nil, errorf(http.StatusBadRequest, "invalid %s: no member %q; want %s", what, name, want)
		}
		d, err := decodeDocument(raw)
		if err != nil {
			release()
			return nil, nil, 0, nil, prefixed(name, err)
		}
		docs[name] = d
	}
	return docs, m, len(body), release, nil
}

// prefixed names the request member an error is about.
func prefixed(member string, err error) error {
	if ae, ok := err.(*apiError); ok {
		c := *ae
		c.Message = member + ": " + c.Message
		return &c
	}
	return errorf(http.StatusUnprocessableEntity, "%s: %v", member, err)
}
