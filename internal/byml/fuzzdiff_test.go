package byml

import (
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/hostile"
	"ainbeditor/internal/jsontext"
)

// FuzzDiffMerge reads two files and diffs and merges them within a budget, as
// /api/tree/diff and /api/tree/merge do: never a panic, a budget error the only error, a file
// compared with itself has no change, and a merge where only one side changed is that side.
func FuzzDiffMerge(f *testing.F) {
	var small [][]byte
	for _, c := range corpusFiles(f) {
		if len(c.data) <= fuzzSeedMax {
			small = append(small, c.data)
		}
	}
	for i := range small {
		f.Add(small[i], small[(i+1)%len(small)])
	}
	f.Add(hostile.SharedChainBYML(12, 2), hostile.SharedChainBYML(12, 3))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, err := Read(x)
		if err != nil {
			return
		}
		b, err := Read(y)
		if err != nil {
			return
		}
		const limit = 1 << 20
		if cs, err := DiffDocumentsLimit(a, a, limit); len(cs) != 0 || err != nil {
			t.Fatalf("a file against itself: %d changes, %v", len(cs), err)
		}
		cs, err := DiffDocumentsLimit(a, b, limit)
		if _, ok := err.(*jsontext.TooLargeError); err != nil && !ok {
			t.Fatalf("diff: %v", err)
		}
		if err == nil && len(cs) == 0 && (!Equal(a.Root, b.Root) || a.Version != b.Version || a.BigEndian != b.BigEndian) {
			t.Fatal("no change listed between different files")
		}
		m, conflicts, err := MergeSettling(a, b, a, change.NoPreference.Everywhere(), limit)
		if _, ok := err.(*jsontext.TooLargeError); err != nil && !ok {
			t.Fatalf("merge: %v", err)
		}
		if err == nil && (len(conflicts) != 0 || m == nil || !Equal(m.Root, b.Root) || m.Version != b.Version) {
			t.Fatalf("a merge with only ours changed: %d conflicts, document %v", len(conflicts), m != nil)
		}
	})
}
