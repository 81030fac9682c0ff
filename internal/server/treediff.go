package server

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"

	"ainbeditor/internal/change"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/treecodec"
)

// The tree view's Compare with… and Merge… (BYML and AAMP), as /api/diff and /api/merge are
// the graph's:
//
//   - POST /api/tree/diff (multipart: "a", "b", optional "zsdic") answers {"kind",
//     "changes": [{"op", "path", "old", "new"}, ...]}: what changed from a to b
//     (byml.DiffDocuments, aamp.Diff).
//   - POST /api/tree/merge (multipart: "base", "ours", "theirs", optional "zsdic", "prefer"
//     and "choices") answers {"kind", "document", "conflicts": [...]}. "prefer" ("ours" or
//     "theirs") settles every conflict; "choices", a JSON array of "ours", "theirs" or ""
//     (open), settles each conflict on its own, in the order a merge lists them, "prefer"
//     the ones past its end. While any conflict is open the document is null and the
//     conflicts are the answer.
//
// Each side is a file as /api/tree takes it (bare, zstd or Yaz0) or a JSON form as
// /api/tree/build takes it (the editor's working copy, which has no file yet); a JSON form
// needs ?kind= unless a file among the sides says the format. All sides are of one format.
// The limits are /api/tree's: the body's budget, a conversion slot, the reply's budget, and
// the lists stop at that budget too.

// maxChoices is the most the "choices" field may hold: some bytes per conflict.
const maxChoices = 1 << 20

func (s *Server) treeSideCap() int64 { return max(s.cfg.MaxUpload, s.cfg.MaxDocument) }
func (s *Server) treeDiffBodyCap() int64 {
	return 2*s.treeSideCap() + maxZsDic + multipartSlack
}
func (s *Server) treeMergeBodyCap() int64 {
	return 3*s.treeSideCap() + maxZsDic + maxChoices + multipartSlack
}

// treeSides are the sides of a tree diff or merge as read, and what else the form carries.
type treeSides struct {
	raw             map[string][]byte
	zsdic           []byte
	prefer, choices []byte
	sent            map[string]bool // the fields that came
}

// readTreeSides reads the multipart fields names (each a file or a JSON form), "zsdic" and,
// for a merge, "prefer" and "choices".
func (s *Server) readTreeSides(w http.ResponseWriter, r *http.Request, bodyCap int64, names ...string) (*treeSides, error) {
	fields := map[string]formField{"zsdic": {limit: maxZsDic}}
	for _, n := range names {
		fields[n] = formField{limit: s.treeSideCap()}
	}
	if len(names) == 3 {
		fields["prefer"] = formField{limit: 16}
		fields["choices"] = formField{limit: maxChoices}
	}
	ts := &treeSides{raw: map[string][]byte{}, sent: map[string]bool{}}
	err := s.readForm(w, r, bodyCap, `send each side as a multipart field (`+quoteList(names)+`): a BYML or AAMP file, or its JSON form`, fields,
		func(field string, _ *multipart.Part, data []byte) error {
			ts.sent[field] = true
			switch field {
			case "zsdic":
				ts.zsdic = data
			case "prefer":
				ts.prefer = data
			case "choices":
				ts.choices = data
			default:
				ts.raw[field] = data
			}
			return nil
		})
	return ts, err
}

func quoteList(names []string) string {
	b := []byte{}
	for i, n := range names {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = jsontext.AppendString(b, n)
	}
	return string(b)
}

// isJSONForm tells a JSON form from a file: no BYML, AAMP, zstd or Yaz0 file starts with '{'.
func isJSONForm(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// decodeSides takes a conversion slot (release gives it back) and reads every side as a
// tree of one codec. n is the sides' size as trees (unwrapped), which the reply's budget is
// computed from.
func (s *Server) decodeSides(r *http.Request, ts *treeSides, names []string) (codec *treecodec.Codec, trees []treecodec.Tree, n int, release func(), err error) {
	if release, err = s.conversions.acquire(r.Context()); err != nil {
		return nil, nil, 0, nil, err
	}
	if codec, trees, n, err = s.treesOf(r, ts, names); err != nil {
		release()
		return nil, nil, 0, nil, err
	}
	return codec, trees, n, release, nil
}

func (s *Server) treesOf(r *http.Request, ts *treeSides, names []string) (codec *treecodec.Codec, trees []treecodec.Tree, n int, err error) {
	from := "" // what decided the format: kind=... or a side's name
	if r.URL.Query().Has("kind") {
		if codec, err = treeKind(r); err != nil {
			return nil, nil, 0, err
		}
		from = "kind=" + codec.Name
	}
	// Files say their format: they decide it before any JSON form is read.
	order := make([]string, 0, len(names))
	for _, name := range names {
		if !isJSONForm(ts.raw[name]) {
			order = append(order, name)
		}
	}
	for _, name := range names {
		if isJSONForm(ts.raw[name]) {
			order = append(order, name)
		}
	}
	byName := map[string]treecodec.Tree{}
	for _, name := range order {
		data := ts.raw[name]
		if len(data) == 0 {
			return nil, nil, 0, errorf(http.StatusBadRequest, "no %s: send it in the multipart field %q, a BYML or AAMP file or its JSON form", name, name)
		}
		var t treecodec.Tree
		if isJSONForm(data) {
			if codec == nil {
				return nil, nil, 0, errorf(http.StatusBadRequest, "%s is a JSON form and no file says the format: say kind=byml or kind=aamp", name)
			}
			if t, err = codec.FromJSON(data); err != nil {
				return nil, nil, 0, prefixed(name, documentError(err))
			}
		} else {
			u, err := s.unwrap(data, ts.zsdic)
			if err != nil {
				return nil, nil, 0, prefixed(name, err)
			}
			kind := pack.Format(u.data)
			c := treecodec.Lookup(kind)
			if c == nil {
				return nil, nil, 0, notTree(name, kind)
			}
			if codec != nil && c != codec {
				return nil, nil, 0, errorf(http.StatusUnprocessableEntity, "%s is %s, but %s says %s: compare files of one format", name, strings.ToUpper(c.Name), from, strings.ToUpper(codec.Name))
			}
			codec, from = c, name
			if t, err = c.Read(u.data); err != nil {
				return nil, nil, 0, prefixed(name, codecError(err))
			}
			data = u.data
		}
		byName[name] = t
		n += len(data)
	}
	for _, name := range names {
		trees = append(trees, byName[name])
	}
	return codec, trees, n, nil
}

// handleTreeDiff answers what changed from tree a to tree b.
func (s *Server) handleTreeDiff(w http.ResponseWriter, r *http.Request) error {
	names := []string{"a", "b"}
	ts, err := s.readTreeSides(w, r, s.treeDiffBodyCap(), names...)
	if err != nil {
		return err
	}
	codec, trees, n, release, err := s.decodeSides(r, ts, names)
	if err != nil {
		return err
	}
	defer release()
	limit := s.replyLimit(n, 0)
	changes, err := codec.Diff(trees[0], trees[1], limit)
	if err != nil {
		return s.replyError(err, "the list of changes", n, 0, codecError)
	}
	b := jsontext.AppendString(append(make([]byte, 0, 64*len(changes)+32), `{"kind":`...), codec.Name)
	b, err = appendList(append(b, `,"changes":`...), changes, limit,
		change.Change.AppendJSON, func(c change.Change) change.Path { return c.Path })
	if err != nil {
		return s.replyError(err, "the list of changes", n, 0, codecError)
	}
	replyDone(w, b, release)
	return nil
}

// handleTreeMerge merges two edited versions of a tree, three ways, settling conflicts as
// asked.
func (s *Server) handleTreeMerge(w http.ResponseWriter, r *http.Request) error {
	names := []string{"base", "ours", "theirs"}
	ts, err := s.readTreeSides(w, r, s.treeMergeBodyCap(), names...)
	if err != nil {
		return err
	}
	rest := change.NoPreference
	if ts.sent["prefer"] {
		if rest, err = change.ParsePrefer(string(ts.prefer)); err != nil {
			return errorf(http.StatusBadRequest, "prefer: %v", err)
		}
	}
	var choices []change.Prefer
	if ts.sent["choices"] {
		var texts []string
		if err := json.Unmarshal(ts.choices, &texts); err != nil {
			return errorf(http.StatusBadRequest, `choices: want a JSON array of "ours", "theirs" or "", one per conflict`)
		}
		choices = make([]change.Prefer, len(texts))
		for i, t := range texts {
			if choices[i], err = change.ParsePrefer(t); err != nil {
				return errorf(http.StatusBadRequest, "choices[%d]: %v", i, err)
			}
		}
	}
	codec, trees, n, release, err := s.decodeSides(r, ts, names)
	if err != nil {
		return err
	}
	defer release()
	limit := s.replyLimit(n, 0)
	merged, conflicts, err := codec.Merge(trees[0], trees[1], trees[2], change.Each(choices, rest), limit)
	if err != nil {
		return s.replyError(err, "the list of conflicts", n, 0, func(err error) *apiError {
			return errorf(http.StatusUnprocessableEntity, "the merge gives no valid file: %v", err)
		})
	}
	if len(choices) > len(conflicts) {
		return errorf(http.StatusUnprocessableEntity, "choices: %d given for %d conflicts: merge again without them to see the conflicts", len(choices), len(conflicts))
	}
	b := jsontext.AppendString(append(make([]byte, 0, 1024), `{"kind":`...), codec.Name)
	var doc func([]byte, int) ([]byte, error)
	if merged != nil {
		doc = merged.AppendJSON
	}
	return s.replyMerge(w, append(b, ','), doc, conflicts, limit, n, release)
}
