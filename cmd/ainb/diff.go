package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/change"
	"ainbeditor/internal/diff"
	"ainbeditor/internal/graph"
	archive "ainbeditor/internal/pack"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/zs"
)

// A tree is a format compared and merged by its meaning rather than its bytes, named as
// pack.Format names it. AINB is compared as the editor document (internal/diff); BYML and
// AAMP join with their tree diff and merge. Archive members in a format without an entry are
// compared as bytes: changed, or changed on both sides (a conflict).
type tree struct {
	diff  func(a, b []byte) ([]diff.Change, error)
	merge func(base, ours, theirs []byte, prefer change.Prefer) ([]byte, []change.Conflict, error)
}

var trees = map[string]tree{
	"ainb": {diff: diffAINB, merge: mergeAINB},
	"byml": {diff: diffBYML, merge: mergeBYML},
	"aamp": {diff: diffAAMP, merge: mergeAAMP},
}

// nodeless gives a tree's changes the AINB form, which says the node of each side: none.
func nodeless(cs []change.Change) []diff.Change {
	out := make([]diff.Change, len(cs))
	for i, c := range cs {
		out[i] = diff.Change{Change: c, NodeA: -1, NodeB: -1}
	}
	return out
}

// readSides reads each file with read, naming the side that fails: A and B for a diff,
// base, ours and theirs for a merge.
func readSides[T any](read func([]byte) (T, error), files ...[]byte) ([]T, error) {
	names := []string{"A", "B"}
	if len(files) == 3 {
		names = []string{"base", "ours", "theirs"}
	}
	out := make([]T, len(files))
	for k, b := range files {
		d, err := read(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[k], err)
		}
		out[k] = d
	}
	return out, nil
}

func diffBYML(a, b []byte) ([]diff.Change, error) {
	d, err := readSides(byml.Read, a, b)
	if err != nil {
		return nil, err
	}
	return nodeless(byml.DiffDocuments(d[0], d[1])), nil
}

// mergeBYML writes the merged tree in base's own layout (Graft) where it still fits.
func mergeBYML(base, ours, theirs []byte, prefer change.Prefer) ([]byte, []change.Conflict, error) {
	d, err := readSides(byml.Read, base, ours, theirs)
	if err != nil {
		return nil, nil, err
	}
	m, conflicts, err := byml.Merge(d[0], d[1], d[2], prefer)
	if err != nil || m == nil {
		return nil, conflicts, err
	}
	d[0].Graft(m)
	data, err := d[0].Bytes()
	return data, conflicts, err
}

func diffAAMP(a, b []byte) ([]diff.Change, error) {
	d, err := readSides(aamp.Read, a, b)
	if err != nil {
		return nil, err
	}
	return nodeless(aamp.Diff(d[0], d[1])), nil
}

func mergeAAMP(base, ours, theirs []byte, prefer change.Prefer) ([]byte, []change.Conflict, error) {
	d, err := readSides(aamp.Read, base, ours, theirs)
	if err != nil {
		return nil, nil, err
	}
	m, conflicts, err := aamp.Merge(d[0], d[1], d[2], prefer)
	if err != nil || m == nil {
		return nil, conflicts, err
	}
	d[0].Graft(m)
	data, err := d[0].Bytes()
	return data, conflicts, err
}

func diffAINB(a, b []byte) ([]diff.Change, error) {
	da, err := graph.Parse("a", a)
	if err != nil {
		return nil, err
	}
	db, err := graph.Parse("b", b)
	if err != nil {
		return nil, err
	}
	return diff.Diff(da, db), nil
}

func mergeAINB(base, ours, theirs []byte, prefer change.Prefer) ([]byte, []change.Conflict, error) {
	var docs [3]*graph.Document
	for k, b := range [][]byte{base, ours, theirs} {
		d, err := graph.Parse([...]string{"base", "ours", "theirs"}[k], b)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", [...]string{"base", "ours", "theirs"}[k], err)
		}
		docs[k] = d
	}
	out, conflicts, err := diff.Merge(docs[0], docs[1], docs[2], prefer)
	if err != nil || out == nil {
		return nil, conflicts, err
	}
	data, err := out.Build()
	return data, conflicts, err
}

// ainb diff [-json] [-zsdic PATH] A B: exit 0 without changes, 1 with, 2 on trouble, as
// diff(1) does.
func diffCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	zsdic := zsdicFlag(fs)
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	files, ok := parseArgs(fs, args)
	if !ok || len(files) != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	c, err := loadZs(*zsdic)
	if err != nil {
		say(stderr, "ainb: -zsdic: %v", err)
		return 2
	}
	defer c.Close()
	var data [2][]byte
	for k, name := range files {
		if data[k], err = readUnwrapped(c, name); err != nil {
			say(stderr, "ainb: %s: %v", name, err)
			return 2
		}
	}
	changes, err := diffData(data[0], data[1])
	if err != nil {
		say(stderr, "ainb: %s, %s: %v", files[0], files[1], err)
		return 2
	}
	var out []byte
	if *asJSON {
		out = append(out, `{"changes":[`...)
		for k, ch := range changes {
			if k > 0 {
				out = append(out, ',')
			}
			out = append(out, "\n  "...)
			out = ch.AppendJSON(out)
		}
		out = append(out, "\n]}\n"...)
	} else {
		for _, ch := range changes {
			out = append(ch.AppendText(out), '\n')
		}
	}
	stdout.Write(termSafeText(out))
	if len(changes) > 0 {
		return 1
	}
	return 0
}

// readUnwrapped reads a file and removes its compression layers.
func readUnwrapped(c *zs.Codec, name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	inner, _, err := newReader(c, len(b)).unwrapAll(b)
	return inner, err
}

// diffData compares two files of one format: a format of trees by meaning, archives member
// by member.
func diffData(a, b []byte) ([]diff.Change, error) {
	fa, fb := archive.Format(a), archive.Format(b)
	if fa != fb {
		return nil, fmt.Errorf("not one format: %s and %s", formatName(fa), formatName(fb))
	}
	if t, ok := trees[fa]; ok && t.diff != nil {
		return t.diff(a, b)
	}
	if fa != "sarc" {
		return nil, fmt.Errorf("diff of %s files: not yet", formatName(fa))
	}
	sa, err := sarc.Read(a)
	if err != nil {
		return nil, err
	}
	sb, err := sarc.Read(b)
	if err != nil {
		return nil, err
	}
	var out []diff.Change
	add := func(op change.Op, name string, old, new []byte) {
		out = append(out, diff.Change{Change: change.Change{Op: op, Path: change.Path{"member " + name}, Old: old, New: new}, NodeA: -1, NodeB: -1})
	}
	for _, f := range sa.Files {
		g, ok := sb.Lookup(f.Name)
		switch {
		case !ok:
			add(change.Removed, f.Name, memberSummary(f.Data), nil)
		case string(g) == string(f.Data):
		default:
			t, tok := trees[archive.Format(f.Data)]
			if !tok || t.diff == nil || archive.Format(g) != archive.Format(f.Data) {
				add(change.Changed, f.Name, memberSummary(f.Data), memberSummary(g))
				continue
			}
			cs, err := t.diff(f.Data, g)
			if err != nil {
				return nil, fmt.Errorf("member %s: %w", f.Name, err)
			}
			for _, c := range cs {
				c.Path = append(change.Path{"member " + f.Name}, c.Path...)
				out = append(out, c)
			}
		}
	}
	for _, g := range sb.Files {
		if _, ok := sa.Lookup(g.Name); !ok {
			add(change.Added, g.Name, nil, memberSummary(g.Data))
		}
	}
	return out, nil
}

// memberSummary is what a diff shows of an archive member compared as bytes: its format and
// size, as JSON.
func memberSummary(b []byte) []byte {
	f := archive.Format(b)
	if f == "" {
		f = "unknown"
	}
	return fmt.Appendf(nil, `{"format":%q,"size":%d}`, f, len(b))
}

// formatName names a format (as pack.Format names it) in messages.
func formatName(f string) string {
	if f == "" {
		return "unknown"
	}
	return strings.ToUpper(f)
}
