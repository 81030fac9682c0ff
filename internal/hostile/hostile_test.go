package hostile

import (
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/sarc"
)

// Each generator makes a file its codec reads, of the shape its comment promises.
func TestFilesRead(t *testing.T) {
	doc, err := byml.Read(SharedChainBYML(3, 2))
	if err != nil {
		t.Fatal(err)
	}
	// Three levels of two: each array is written once, its second use an alias.
	const want = "- &s0\n  - &s1 [7, 7]\n  - *s1\n- *s0\n"
	if y, err := doc.ToYAML(); err != nil || string(y) != want {
		t.Errorf("SharedChainBYML(3, 2) = %q, %v; want %q", y, err, want)
	}

	a, err := sarc.Read(EscapedNamesPack(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != 2 || a.Files[0].Name != "0\x01\x01\x01" || a.Files[1].Name != "1\x01\x01\x01" {
		t.Errorf("EscapedNamesPack(2, 3) = %+v", a.Files)
	}

	if a, err = sarc.Read(LongNamesPack(t, 3, 10)); err != nil || len(a.Files) != 3 || a.Files[0].Name != "d/d/d/d/d/000000" {
		t.Errorf("LongNamesPack(3, 10): %v, %v", a, err)
	}

	f, err := ainb.Read(ManyNodesAINB(t, 5))
	if err != nil || len(f.Elements) != 5 {
		t.Errorf("ManyNodesAINB(5): %v, %v", f, err)
	}

	for _, inner := range []bool{false, true} {
		f, err = ainb.Read(SharedNamesAINB(t, 60, 100, inner))
		if err != nil {
			t.Fatal(err)
		}
		props := f.Elements[0].Properties.Of(ainb.ParamInt)
		want := strings.Repeat("Amplify", 15)[:100]
		if inner {
			want = want[1+59%50:]
		}
		if len(props) != 60 || props[59].Name != want {
			t.Errorf("SharedNamesAINB(60, 100, %v): %d names, the last %q; want %q", inner, len(props), props[len(props)-1].Name, want)
		}
	}

	b := PaddedNamesAINB(t, 4, 30, 4096)
	if len(b) != 4096 {
		t.Errorf("PaddedNamesAINB is %d bytes, want 4096", len(b))
	}
	if _, err := ainb.Read(b); err != nil {
		t.Error(err)
	}
}
