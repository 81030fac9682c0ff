package graph

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// exprRefs calls fn with every expression source of d: nodes' properties and inputs (single
// and multi), attachments' properties.
func exprRefs(d *Document, fn func(s *Source)) {
	props := func(ps []Property) {
		for i := range ps {
			if s := ps[i].Source; s != nil && s.Expression != nil {
				fn(s)
			}
		}
	}
	for n := range d.Nodes {
		props(d.Nodes[n].Properties)
		for i := range d.Nodes[n].Inputs {
			in := &d.Nodes[n].Inputs[i]
			if in.Source != nil && in.Source.Expression != nil {
				fn(in.Source)
			}
			for k := range in.Sources {
				if in.Sources[k].Expression != nil {
					fn(&in.Sources[k])
				}
			}
		}
	}
	for a := range d.Attachments {
		props(d.Attachments[a].Properties)
	}
}

// Editing the expressions of a game file through the document, as the editor does, builds,
// and every function the edit did not touch decompiles to the very text it had. The games
// keep literals in the param table where the value alone would put them in the instruction
// (param(2.0)); an edit that lays the whole section out again (a function added or removed)
// used to refuse them as .raw instructions. Three edits per file, each on a fresh parse:
// a function added (the section is assembled again from all texts), a function removed
// (the last one nothing refers to; later references are renumbered, as edits.js does), and
// function 0 edited in place.
func TestGameFilesExpressionEdits(t *testing.T) {
	var files, added, removed, edited, noFree int
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := ainb.Read(b); err != nil || f.Expressions == nil {
			continue // the codec's own tests cover files it does not read
		}
		parse := func() *Document {
			d, err := Parse(name, b)
			if err != nil {
				t.Fatalf("%s: parse: %v", name, err)
			}
			return d
		}
		d0 := parse()
		if len(d0.Expressions.Functions) == 0 {
			continue
		}
		files++
		orig := make([]string, len(d0.Expressions.Functions))
		for i, fn := range d0.Expressions.Functions {
			orig[i] = fn.Text
		}
		// check builds d and compares function i of the result with want[i], for each i
		// that is not skip.
		check := func(what string, d *Document, want []string, skip int) bool {
			t.Helper()
			out, err := d.Build()
			if err != nil {
				t.Errorf("%s: %s: build: %v", name, what, err)
				return false
			}
			f, err := ainb.Read(out)
			if err != nil || f.Expressions == nil {
				t.Errorf("%s: %s: the built file does not read back: %v", name, what, err)
				return false
			}
			got, err := f.Expressions.FunctionSources()
			if err != nil || len(got) != len(want) {
				t.Errorf("%s: %s: %d functions (err %v), want %d", name, what, len(got), err, len(want))
				return false
			}
			for i := range want {
				if i != skip && got[i] != want[i] {
					t.Errorf("%s: %s: function %d reads back as\n%s\nwant\n%s", name, what, i, got[i], want[i])
					return false
				}
			}
			return true
		}

		// Added: the function count changes, so the section is assembled from every text.
		d := parse()
		extra := ".input INT\n.output INT\nOut = In + 70000\n"
		d.Expressions.Functions = append(d.Expressions.Functions, Function{Text: extra})
		if check("adding a function", throughJSON(t, d), append(orig[:len(orig):len(orig)], extra), -1) {
			added++
		}

		// Removed: the last function nothing refers to.
		d = parse()
		used := make([]bool, len(orig))
		exprRefs(d, func(s *Source) {
			if *s.Expression < len(used) {
				used[*s.Expression] = true
			}
		})
		k := len(orig) - 1
		for k >= 0 && used[k] {
			k--
		}
		if k < 0 {
			noFree++
		} else {
			exprRefs(d, func(s *Source) {
				if *s.Expression > k {
					*s.Expression--
				}
			})
			d.Expressions.Functions = append(d.Expressions.Functions[:k], d.Expressions.Functions[k+1:]...)
			want := append(orig[:k:k], orig[k+1:]...)
			if check("removing function "+strconv.Itoa(k), throughJSON(t, d), want, -1) {
				removed++
			}
		}

		// Edited in place: function 0 gains a statement with a new literal.
		d = parse()
		text := strings.TrimSuffix(orig[0], "\n") + "\nGMem[0x40] = 123456789\n"
		editAsPage(d, 0, text)
		want := append([]string{text}, orig[1:]...)
		if check("editing function 0", throughJSON(t, d), want, -1) {
			edited++
		}
	}
	t.Logf("game files with expressions: %d; added to %d, removed from %d (%d use every function), edited %d", files, added, removed, noFree, edited)
	if files == 0 {
		t.Fatal("no game file has an expression function")
	}
}
