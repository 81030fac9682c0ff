package ainb

import (
	"flag"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

var updateFixtures = flag.Bool("update-fixtures", false, "write the fixtures this package makes into the top-level testdata folder")

// TestHostileFixtures checks the name amplifiers that the server's tests send
// (testdata/hostile/names.ainb and tails.ainb) are what amplifier makes.
func TestHostileFixtures(t *testing.T) {
	testcorpus.CheckFixture(t, "hostile/names.ainb", amplifier(t, 30000, false), *updateFixtures)
	testcorpus.CheckFixture(t, "hostile/tails.ainb", amplifier(t, 30000, true), *updateFixtures)
}

// amplifier is a file whose int properties are all named by references into one 20,000-byte
// string: at its start (inner false) or at successive offsets inside it (inner true, through
// recorded tails). Before the text budget, such a 392 KB upload parsed to a 401 MB reply.
func amplifier(t testing.TB, props int, inner bool) []byte {
	t.Helper()
	long := strings.Repeat("Amplify", 20000/7+1)[:20000]
	l := &Layout{Strings: []string{"Walk", "Tiny", "AI", "Leaf", long}}
	list := make([]Property, props)
	for i := range list {
		list[i].Name = long
		if inner {
			list[i].Name = long[1+i%50:]
		}
	}
	if inner {
		for i := range min(props, 50) {
			l.Tails = append(l.Tails, long[1+i:])
		}
	}
	f := tinyFile(l)
	f.Elements[0].Properties.Set(ParamInt, list)
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTextBudget(t *testing.T) {
	for _, inner := range []bool{false, true} {
		b := amplifier(t, 30000, inner)
		_, err := Read(b)
		if err == nil || !strings.Contains(err.Error(), "the file would expand without bound") {
			t.Errorf("inner %v: %d-byte file handing out about %d MB of names: got %v, want the text budget's error",
				inner, len(b), 30000*20000>>20, err)
		}
		// Within the budget the same shape reads, every name intact.
		small := amplifier(t, 50, inner)
		f, err := Read(small)
		if err != nil {
			t.Fatalf("inner %v: 50 references: %v", inner, err)
		}
		if got := f.Elements[0].Properties.Of(ParamInt); len(got) != 50 || len(got[49].Name) < 19000 {
			t.Fatalf("inner %v: read back %d properties", inner, len(got))
		}
	}
}
