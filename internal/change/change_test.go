package change

import (
	"encoding/json"
	"testing"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		c    Change
		want string
	}{
		{Change{Op: Changed, Path: Path{"Actors", "3", "Name"}, Old: []byte(`"a"`), New: []byte(`"b"`)}, `~ Actors/3/Name: "a" -> "b"`},
		{Change{Op: Added, Path: Path{"node 4 (Root)"}, New: []byte(`{"id":4}`)}, `+ node 4 (Root): {"id":4}`},
		{Change{Op: Removed, Path: Path{"a/b", "~x"}, Old: []byte(`1`)}, `- a~1b/~0x: 1`},
	} {
		if got := string(tc.c.AppendText(nil)); got != tc.want {
			t.Errorf("AppendText = %s, want %s", got, tc.want)
		}
	}
	c := Conflict{Path: Path{"x"}, Base: []byte(`1`), Ours: []byte(`2`)}
	if got, want := string(c.AppendText(nil)), `! x base=1 ours=2 theirs=(none)`; got != want {
		t.Errorf("Conflict.AppendText = %s, want %s", got, want)
	}
}

func TestJSON(t *testing.T) {
	c := Change{Op: Changed, Path: Path{"Actors", "\"q\""}, Old: []byte(`null`), New: []byte(`[1]`)}
	got := string(c.AppendJSON(nil))
	if want := `{"op":"changed","path":["Actors","\"q\""],"old":null,"new":[1]}`; got != want {
		t.Fatalf("Change.AppendJSON = %s, want %s", got, want)
	}
	k := Conflict{Path: Path{"a"}, Base: []byte(`1`), Theirs: []byte(`3`)}
	got = string(k.AppendJSON(nil))
	if want := `{"path":["a"],"base":1,"theirs":3}`; got != want {
		t.Fatalf("Conflict.AppendJSON = %s, want %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Fatal("Conflict.AppendJSON is not JSON")
	}
}

func TestChildDoesNotShare(t *testing.T) {
	p := make(Path, 1, 8)
	p[0] = "root"
	a, b := p.Child("a"), p.Child("b")
	if a[1] != "a" || b[1] != "b" {
		t.Fatalf("Child shared its parent's array: %v %v", a, b)
	}
}

func TestParsePrefer(t *testing.T) {
	for s, want := range map[string]Prefer{"": NoPreference, "ours": Ours, "theirs": Theirs} {
		if got, err := ParsePrefer(s); err != nil || got != want {
			t.Errorf("ParsePrefer(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParsePrefer("mine"); err == nil || err.Error() != `preference "mine": want ours or theirs` {
		t.Errorf("ParsePrefer(mine) error = %v", err)
	}
}

func TestPick(t *testing.T) {
	for _, c := range []struct {
		b, o, th, want int
		ok             bool
	}{
		{1, 1, 1, 1, true},
		{1, 2, 1, 2, true},
		{1, 1, 3, 3, true},
		{1, 2, 2, 2, true},
		{1, 2, 3, 2, false},
	} {
		if got, ok := Pick(c.b, c.o, c.th); got != c.want || ok != c.ok {
			t.Errorf("Pick(%d, %d, %d) = %d, %v; want %d, %v", c.b, c.o, c.th, got, ok, c.want, c.ok)
		}
	}
}

func TestSettle(t *testing.T) {
	each := Each([]Prefer{Theirs, NoPreference, Ours}, Theirs)
	for n, want := range []Prefer{Theirs, NoPreference, Ours, Theirs, Theirs} {
		if got := each(n); got != want {
			t.Errorf("Each(...)(%d) = %v, want %v", n, got, want)
		}
	}
	if got := Ours.Everywhere()(7); got != Ours {
		t.Errorf("Ours.Everywhere()(7) = %v", got)
	}
}
