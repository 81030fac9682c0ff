package diff

import (
	"bytes"
	"testing"

	"ainbeditor/internal/change"
)

// Merging a file with itself twice builds the very bytes of the file: nothing is reordered,
// renumbered or made canonical on the way.
func TestMergeUnchanged(t *testing.T) {
	for name, b := range corpusDocs(t) {
		base := parse(t, name, b)
		want, err := base.Build()
		if err != nil {
			continue // graph's tests say why
		}
		out, cs, err := Merge(base, parse(t, name, b), parse(t, name, b), change.NoPreference)
		if err != nil || len(cs) > 0 {
			t.Errorf("%s: merge: %v, %d conflicts", name, err, len(cs))
			continue
		}
		got, err := out.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: merged file differs from the base (%d vs %d bytes)", name, len(got), len(want))
		}
	}
}
