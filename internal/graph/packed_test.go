package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// packedAINB returns the AINB files inside the corpus's TotK packs: Nintendo's own files, as
// the game ships them.
func packedAINB(t *testing.T) map[string][]byte {
	t.Helper()
	dir := testcorpus.Dir(t)
	dic, err := os.ReadFile(filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	codec, err := zs.LoadZsDic(dic)
	if err != nil {
		t.Fatal(err)
	}
	defer codec.Close()
	packs, _ := filepath.Glob(filepath.Join(dir, "sarc", "*.pack.zs"))
	out := map[string][]byte{}
	for _, p := range packs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := codec.Decompress(b, zs.MaxSize)
		if err != nil {
			t.Fatal(err)
		}
		a, err := sarc.Read(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".ainb") {
				out[filepath.Base(p)+"/"+f.Name] = f.Data
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no AINB file in the corpus packs")
	}
	return out
}

// Nintendo's AINB files from the game's packs come back byte for byte through the document
// (one lists its query ids in an order of its own), and dropping one node's queries makes
// exactly that change.
func TestPackedFiles(t *testing.T) {
	for name, data := range packedAINB(t) {
		d, err := Parse(name, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, err := viaJSON(t, d).Build()
		if err != nil || !bytes.Equal(out, data) {
			t.Errorf("%s: the unedited document builds a different file (%v)", name, err)
			continue
		}
		k := slices.IndexFunc(d.Nodes, func(n Node) bool { return len(n.Queries) > 0 })
		if k < 0 {
			continue
		}
		d.Nodes[k].Queries = nil
		_, again := rebuild(t, d)
		for i := range d.Nodes {
			want, got := d.Nodes[i], again.Nodes[i]
			if !slices.Equal(want.Queries, got.Queries) || want.Name != got.Name || want.GUID != got.GUID {
				t.Errorf("%s: node %d reads back with queries %v, want %v", name, i, got.Queries, want.Queries)
			}
		}
	}
}
