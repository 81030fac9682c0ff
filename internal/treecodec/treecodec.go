// Package treecodec is the table of the tree formats, BYML and AAMP: the server and the ainb
// command look up what to do with either here instead of each choosing by a switch of its
// own. A Codec reads a format's bytes, JSON form and YAML form into a Tree, and a Tree writes
// them back; what a format does not have (AAMP has no warnings, no byte order) is empty.
package treecodec

import (
	"bytes"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/change"
	"ainbeditor/internal/pack"
)

// A Tree is one document of a tree format.
type Tree interface {
	// Bytes writes the tree in the layout it was read with while it fits (preserve mode),
	// else canonically; BytesCanonical always canonically.
	Bytes() ([]byte, error)
	BytesCanonical() ([]byte, error)
	// Layout says which layout Bytes will write: "preserved" or "canonical", or "" for a
	// format that does not tell.
	Layout() string
	// AppendJSON appends the JSON form, refusing (a *jsontext.TooLargeError) to pass limit
	// bytes in all.
	AppendJSON(dst []byte, limit int) ([]byte, error)
	// YAML is the YAML form, refused past limit bytes like AppendJSON.
	YAML(limit int) ([]byte, error)
	// Graft makes the tree edited's content in the tree's own layout where the two agree
	// (see byml.Document.Graft); edited is a tree of the same codec.
	Graft(edited Tree)
	// Warnings lists what the file as read breaks of its format's rules.
	Warnings() []byml.Warning
}

// A Codec is one tree format.
type Codec struct {
	Name     string            // "byml" or "aamp", as pack.Format names it
	Is       func([]byte) bool // whether bytes are of this format
	Read     func([]byte) (Tree, error)
	FromJSON func([]byte) (Tree, error)
	FromYAML func([]byte) (Tree, error)
	// Diff lists the changes from a to b, and Merge merges ours and theirs, edited from base,
	// settling each conflict as settle says (a nil tree while one is left open); the trees
	// are of this codec. Both stop with a *jsontext.TooLargeError once their list passes
	// about limit bytes (a BYML subtree shared at many places changes at each).
	Diff  func(a, b Tree, limit int) ([]change.Change, error)
	Merge func(base, ours, theirs Tree, settle change.Settle, limit int) (Tree, []change.Conflict, error)
}

// Codecs lists every tree format.
var Codecs = []*Codec{
	{
		Name:     "byml",
		Is:       pack.IsBYML,
		Read:     func(b []byte) (Tree, error) { return bymlTree(byml.Read(b)) },
		FromJSON: func(b []byte) (Tree, error) { return bymlTree(byml.FromJSON(b)) },
		FromYAML: func(b []byte) (Tree, error) { return bymlTree(byml.FromYAML(b)) },
		Diff: func(a, b Tree, limit int) ([]change.Change, error) {
			return byml.DiffDocumentsLimit(a.(BYML).Document, b.(BYML).Document, limit)
		},
		Merge: func(base, ours, theirs Tree, settle change.Settle, limit int) (Tree, []change.Conflict, error) {
			m, conflicts, err := byml.MergeSettling(base.(BYML).Document, ours.(BYML).Document, theirs.(BYML).Document, settle, limit)
			if m == nil || err != nil {
				return nil, conflicts, err
			}
			return BYML{m}, conflicts, nil
		},
	},
	{
		Name:     "aamp",
		Is:       func(b []byte) bool { return bytes.HasPrefix(b, []byte("AAMP")) },
		Read:     func(b []byte) (Tree, error) { return aampTree(aamp.Read(b)) },
		FromJSON: func(b []byte) (Tree, error) { return aampTree(aamp.FromJSON(b)) },
		FromYAML: func(b []byte) (Tree, error) { return aampTree(aamp.FromYAML(b)) },
		// An archive shares nothing: its changes are at most its size, and the reply's own
		// budget bounds them.
		Diff: func(a, b Tree, _ int) ([]change.Change, error) {
			return aamp.Diff(a.(AAMP).ParameterIO, b.(AAMP).ParameterIO), nil
		},
		Merge: func(base, ours, theirs Tree, settle change.Settle, _ int) (Tree, []change.Conflict, error) {
			m, conflicts, err := aamp.MergeSettling(base.(AAMP).ParameterIO, ours.(AAMP).ParameterIO, theirs.(AAMP).ParameterIO, settle)
			if m == nil || err != nil {
				return nil, conflicts, err
			}
			return AAMP{m}, conflicts, nil
		},
	},
}

// Lookup is the codec named name, or nil.
func Lookup(name string) *Codec {
	for _, c := range Codecs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// BYML is a BYML document as a Tree; its Document is there for what only BYML has (the
// version and byte order a YAML text does not say).
type BYML struct{ *byml.Document }

func bymlTree(d *byml.Document, err error) (Tree, error) {
	if err != nil {
		return nil, err
	}
	return BYML{d}, nil
}

func (t BYML) Layout() string {
	if t.Preserved() {
		return "preserved"
	}
	return "canonical"
}
func (t BYML) YAML(limit int) ([]byte, error) { return t.ToYAMLLimit(limit) }
func (t BYML) Graft(edited Tree)              { t.Document.Graft(edited.(BYML).Document) }

// AAMP is an AAMP parameter archive as a Tree.
type AAMP struct{ *aamp.ParameterIO }

func aampTree(p *aamp.ParameterIO, err error) (Tree, error) {
	if err != nil {
		return nil, err
	}
	return AAMP{p}, nil
}

func (t AAMP) Layout() string { return "" }
func (t AAMP) AppendJSON(dst []byte, limit int) ([]byte, error) {
	return aamp.AppendJSON(dst, t.ParameterIO, limit)
}
func (t AAMP) YAML(limit int) ([]byte, error) { return aamp.ToYAMLLimit(t.ParameterIO, limit) }
func (t AAMP) Graft(edited Tree)              { t.ParameterIO.Graft(edited.(AAMP).ParameterIO) }
func (t AAMP) Warnings() []byml.Warning       { return nil }
