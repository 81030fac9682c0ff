package diff

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// lines prints changes one a line with the node ids on each side, sorted: Diff lists nodes
// in document order and an edit list in the order edits were made.
func lines(cs []Change) []string {
	out := make([]string, len(cs))
	for k, c := range cs {
		out[k] = string(c.AppendText(nil)) + " [" + strconv.Itoa(c.NodeA) + " " + strconv.Itoa(c.NodeB) + "]"
	}
	slices.Sort(out)
	return out
}

func applied(t *testing.T, name string, b []byte, es ...[]*edit) *graph.Document {
	d := parse(t, name, b)
	for _, list := range es {
		for _, e := range list {
			e.apply(d)
		}
	}
	return d
}

func edits(g *generator, n int) []*edit {
	var out []*edit
	for range n {
		if e := g.next(); e != nil {
			out = append(out, e)
		}
	}
	return out
}

func want(es ...[]*edit) []Change {
	var out []Change
	for _, list := range es {
		for _, e := range list {
			out = append(out, e.changes...)
		}
	}
	return out
}

func whats(es []*edit) string {
	var s []string
	for _, e := range es {
		s = append(s, e.what)
	}
	return strings.Join(s, ", ")
}

func build(t *testing.T, what string, d *graph.Document) []byte {
	t.Helper()
	b, err := d.Build()
	if err != nil {
		t.Errorf("%s: build: %v", what, err)
	}
	return b
}

// seeds is how many random trials each file gets.
func seeds(t *testing.T) int {
	if testing.Short() {
		return 1
	}
	return 3
}

// Random edits to every file: the diff lists exactly them; the three-way merge of two sets of
// edits to disjoint places builds the very bytes of the base with both applied.
func TestRandomDiffAndMerge(t *testing.T) {
	files := corpusDocs(t)
	tried, combined := 0, 0
	kinds := map[string]int{}
	for name, b := range files {
		base := parse(t, name, b)
		if _, err := base.Build(); err != nil {
			continue
		}
		for seed := range seeds(t) {
			g := newGenerator(base, uint64(seed)*1000+uint64(len(b)))
			ea, eb := edits(g, 1+seed*2), edits(g, 1+seed*2)
			if len(ea)+len(eb) == 0 {
				continue
			}
			tried++
			for _, e := range append(slices.Clone(ea), eb...) {
				kinds[e.what]++
			}
			a, bd := applied(t, name, b, ea), applied(t, name, b, eb)
			what := name + " seed " + strconv.Itoa(seed) + " (A: " + whats(ea) + "; B: " + whats(eb) + ")"
			if got, w := lines(Diff(base, a)), lines(want(ea)); !slices.Equal(got, w) {
				t.Errorf("%s: diff(base, A)\n got %s\nwant %s", what, strings.Join(got, "\n    "), strings.Join(w, "\n    "))
			}
			if got, w := lines(Diff(base, bd)), lines(want(eb)); !slices.Equal(got, w) {
				t.Errorf("%s: diff(base, B)\n got %s\nwant %s", what, strings.Join(got, "\n    "), strings.Join(w, "\n    "))
			}
			both := applied(t, name, b, ea, eb)
			wantBytes := build(t, what+": both applied", both)
			if wantBytes == nil {
				continue
			}
			out, conflicts, err := Merge(base, a, bd, change.NoPreference)
			if err != nil || len(conflicts) > 0 {
				t.Errorf("%s: merge: %v, conflicts %v", what, err, conflicts)
				continue
			}
			got := build(t, what+": merged", out)
			if got != nil && !bytes.Equal(got, wantBytes) {
				t.Errorf("%s: merged file (%d bytes) differs from both applied (%d bytes)", what, len(got), len(wantBytes))
				continue
			}
			if _, err := graph.Parse("merged", got); err != nil {
				t.Errorf("%s: the merged file does not read back: %v", what, err)
				continue
			}
			combined++
		}
	}
	t.Logf("%d trials on %d files, %d merges combined; edits: %v", tried, len(files), combined, kinds)
}

// Two edits to one place with different values are exactly one conflict each, with the
// three values; the same edit on both sides is one change; a preference takes its side's
// values everywhere and combines the rest.
func TestRandomConflicts(t *testing.T) {
	files := corpusDocs(t)
	tried := 0
	for name, b := range files {
		base := parse(t, name, b)
		if _, err := base.Build(); err != nil {
			continue
		}
		for seed := range seeds(t) {
			g := newGenerator(base, uint64(seed)*7919+uint64(len(b)))
			da, db := edits(g, 2), edits(g, 2)
			var ca, cb, same []*edit
			for _, kind := range []func(*generator) *edit{(*generator).propertyValue, (*generator).inputValue, (*generator).renameParam, (*generator).editFunction} {
				f := g.fork()
				e1, e2 := kind(g), kind(f)
				if e1 == nil || e2 == nil {
					continue
				}
				if bytes.Equal(e1.after, e2.after) {
					same = append(same, e1) // a bool flipped on both sides
					continue
				}
				ca, cb = append(ca, e1), append(cb, e2)
			}
			if len(ca)+len(same) == 0 {
				continue
			}
			tried++
			what := name + " seed " + strconv.Itoa(seed) + " (conflicts: " + whats(ca) + "; same: " + whats(same) + ")"
			a, bd := applied(t, name, b, da, ca, same), applied(t, name, b, db, cb, same)
			out, conflicts, err := Merge(base, a, bd, change.NoPreference)
			if err != nil {
				t.Errorf("%s: merge: %v", what, err)
				continue
			}
			var got, w []string
			for _, c := range conflicts {
				got = append(got, string(c.AppendText(nil)))
			}
			for k := range ca {
				w = append(w, string(change.Conflict{Path: ca[k].place, Base: ca[k].before, Ours: ca[k].after, Theirs: cb[k].after}.AppendText(nil)))
			}
			slices.Sort(got)
			slices.Sort(w)
			if !slices.Equal(got, w) {
				t.Errorf("%s: conflicts\n got %s\nwant %s", what, strings.Join(got, "\n    "), strings.Join(w, "\n    "))
			}
			if len(ca) > 0 && out != nil {
				t.Errorf("%s: a merge with conflicts gave a document", what)
			}
			for _, pref := range []struct {
				prefer change.Prefer
				edits  [][]*edit
			}{{change.Ours, [][]*edit{da, db, ca, same}}, {change.Theirs, [][]*edit{da, db, cb, same}}} {
				wantBytes := build(t, what+": expected", applied(t, name, b, pref.edits...))
				out, settled, err := Merge(base, a, bd, pref.prefer)
				if err != nil || len(settled) != len(ca) {
					t.Errorf("%s: prefer %d: %v, %d conflicts settled, want %d", what, pref.prefer, err, len(settled), len(ca))
					continue
				}
				if got := build(t, what+": merged", out); wantBytes != nil && got != nil && !bytes.Equal(got, wantBytes) {
					t.Errorf("%s: prefer %d: merged file differs from the side's edits applied", what, pref.prefer)
				}
			}
		}
	}
	t.Logf("%d trials on %d files", tried, len(files))
}
