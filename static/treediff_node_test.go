package static_test

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/testcorpus"
)

// The tree view's diff (treediff.js, run by node) lists exactly the changes internal/byml's
// Diff lists, by operation and path, in the same order, for corpus files edited at random:
// values changed, array items removed and inserted, hash keys removed and added.
func TestTreeDiffMatchesGo(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found on PATH: the tree diff's check needs node 18 or newer")
	}
	dir := filepath.Join(testcorpus.Dir(t), "byml")
	tmp := t.TempDir()
	for _, name := range []string{"EventInfo.product.byml", "MainFieldStatic.byml", "A-1_Dynamic.byml", "LevelSensor.byml"} {
		in, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 2; seed++ {
			a, err := byml.Read(in)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := byml.Read(in)
			n := editRandomly(b.Root, rand.New(rand.NewSource(seed)))
			var want []string
			for _, c := range byml.DiffDocuments(a, b) {
				want = append(want, fmt.Sprintf("%s /%s", c.Op, c.Path))
			}
			files := []string{filepath.Join(tmp, "a.json"), filepath.Join(tmp, "b.json")}
			for i, d := range []*byml.Document{a, b} {
				js, err := d.ToJSON()
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(files[i], js, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command(node, filepath.Join("testdata", "treediff.mjs"), "byml", files[0], files[1]).CombinedOutput()
			if err != nil {
				t.Fatalf("%s seed %d: node: %v\n%s", name, seed, err, out)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s seed %d (%d edits): the browser's diff\n%s\nGo's\n%s", name, seed, n, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			t.Logf("%s seed %d: %d edits, %d changes alike", name, seed, n, len(want))
		}
	}
}

// editRandomly makes about a dozen edits anywhere in the tree and says how many it made.
func editRandomly(root *byml.Node, r *rand.Rand) int {
	var arrays, hashes []*byml.Node
	var walk func(n *byml.Node)
	seen := map[*byml.Node]bool{}
	walk = func(n *byml.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case byml.Array:
			arrays = append(arrays, n)
			for _, it := range n.Items {
				walk(it)
			}
		case byml.Hash:
			hashes = append(hashes, n)
			for _, e := range n.Entries {
				walk(e.Value)
			}
		}
	}
	walk(root)
	edits := 0
	for k := 0; k < 12; k++ {
		switch op := r.Intn(4); {
		case op == 0 && len(arrays) > 0: // an item removed
			a := arrays[r.Intn(len(arrays))]
			if len(a.Items) > 1 {
				i := r.Intn(len(a.Items))
				a.Items = append(a.Items[:i:i], a.Items[i+1:]...)
				edits++
			}
		case op == 1 && len(arrays) > 0: // an item inserted
			a := arrays[r.Intn(len(arrays))]
			i := r.Intn(len(a.Items) + 1)
			a.Items = append(a.Items[:i:i], append([]*byml.Node{byml.NewString(fmt.Sprintf("inserted %d", k))}, a.Items[i:]...)...)
			edits++
		case op == 2 && len(hashes) > 0: // a key removed, or a value changed
			h := hashes[r.Intn(len(hashes))]
			if len(h.Entries) > 0 {
				e := h.Entries[r.Intn(len(h.Entries))]
				if r.Intn(2) == 0 {
					h.Delete(e.Key)
				} else if !e.Value.Kind.IsContainer() {
					h.Set(e.Key, byml.NewInt(int32(1000+k)))
				}
				edits++
			}
		case op == 3 && len(hashes) > 0: // a key added
			hashes[r.Intn(len(hashes))].Set(fmt.Sprintf("zz added %d", k), byml.NewFloat(float32(k)+0.5))
			edits++
		}
	}
	return edits
}
