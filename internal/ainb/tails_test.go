package ainb

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"slices"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// Readers that index the string pool by the start of each string (the Python ainb library)
// reject a reference into the middle of one. Strings set by an edit must therefore get pool
// entries of their own even when they happen to be the tail of a recorded string: only the
// tails the file read already pointed into (Layout.Tails) may be pointed into again.

// shortestNewTail returns the shortest proper suffix of a pool string that is neither a pool
// string nor one of the tails, preferring earlier strings, or "" if there is none.
func shortestNewTail(strs []string, taken map[string]bool) string {
	for n := 1; ; n++ {
		longer := false
		for _, s := range strs {
			if len(s) > n {
				longer = true
				if t := s[len(s)-n:]; !taken[t] {
					return t
				}
			}
		}
		if !longer {
			return ""
		}
	}
}

// longestNewTail returns the longest proper suffix of the longest pool string that is neither
// a pool string nor one of the tails, or "" if there is none.
func longestNewTail(strs []string, taken map[string]bool) string {
	longest := ""
	for _, s := range strs {
		if len(s) > len(longest) {
			longest = s
		}
	}
	for i := 1; i < len(longest); i++ {
		if !taken[longest[i:]] {
			return longest[i:]
		}
	}
	return ""
}

// poolStarts lists the offsets at which the strings of a written file's pool start.
func poolStarts(b []byte) map[uint32]bool {
	pool := b[binary.LittleEndian.Uint32(b[0x24:]):]
	starts := map[uint32]bool{}
	at := 0
	for {
		i := bytes.IndexByte(pool[at:], 0)
		if i < 0 {
			return starts
		}
		starts[uint32(at)] = true
		at += i + 1
	}
}

// Renaming a command to the tail of a pool string and adding a child plug whose name is a
// short tail ("6" beside "16") gives every corpus file pool entries of their own for both: the
// written file points at the start of a pool string everywhere it did before.
func TestCorpusEditedTailsGetOwnStrings(t *testing.T) {
	renamed, added := 0, 0
	for _, path := range testcorpus.AINB(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, f := readCorpus(t, path)
			before := slices.Clone(f.Layout.Tails)
			taken := map[string]bool{}
			for _, s := range f.Layout.Strings {
				taken[s] = true
			}
			for _, s := range f.Layout.Tails {
				taken[s] = true
			}
			name := longestNewTail(f.Layout.Strings, taken)
			if len(f.Commands) > 0 && name != "" {
				f.Commands[0].Name = name
			} else {
				name = ""
			}
			child, parent := shortestNewTail(f.Layout.Strings, taken), -1
			for i := range f.Elements {
				ps := f.Elements[i].Plugs.Of(PlugChild)
				if len(ps) > 0 && child != "" {
					p := ps[len(ps)-1]
					p.Name = child
					f.Elements[i].Plugs.Set(PlugChild, append(ps, p))
					parent = i
					break
				}
			}
			out, err := f.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			again, err := Read(out)
			if err != nil {
				t.Fatalf("reading the edited file: %v", err)
			}
			for _, s := range again.Layout.Tails {
				if !slices.Contains(before, s) {
					t.Errorf("the edited file points into the tail of a pool string for %q (tails read: %q)", s, before)
				}
			}
			starts := poolStarts(out)
			if name != "" {
				renamed++
				if got := again.Commands[0].Name; got != name {
					t.Errorf("command 0 reads back as %q, want %q", got, name)
				}
				if o := binary.LittleEndian.Uint32(out[headerSize:]); !starts[o] {
					t.Errorf("command 0 name %q at pool offset %#x, not the start of a string", name, o)
				}
				if !slices.Contains(again.Layout.Strings, name) {
					t.Errorf("%q has no pool string of its own", name)
				}
			}
			if parent >= 0 {
				added++
				ps := again.Elements[parent].Plugs.Of(PlugChild)
				if len(ps) != len(f.Elements[parent].Plugs.Of(PlugChild)) || ps[len(ps)-1].Name != child {
					t.Errorf("element %d child plugs read back as %+v, want a last one named %q", parent, ps, child)
				}
				if !slices.Contains(again.Layout.Strings, child) {
					t.Errorf("child plug name %q has no pool string of its own", child)
				}
			}
		})
	}
	if renamed == 0 || added == 0 {
		t.Fatalf("the corpus exercised %d command renames and %d added child plugs; want some of both", renamed, added)
	}
	t.Logf("%d command renames, %d added child plugs", renamed, added)
}

// A tail the file read pointed into is pointed into again after an edit elsewhere, and the
// file reads back with the same tails and writes again byte-identical, in binary and through
// the project's own JSON.
func TestCorpusRecordedTailsKept(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, f := readCorpus(t, path)
			if len(f.Commands) == 0 {
				t.Skip("no command to rename")
			}
			taken := map[string]bool{}
			for _, s := range f.Layout.Strings {
				taken[s] = true
			}
			tail := longestNewTail(f.Layout.Strings, taken)
			if tail == "" {
				t.Skip("no pool string has a tail")
			}
			// As if the file had pointed into that tail.
			f.Layout.Tails = append(f.Layout.Tails, tail)
			f.Commands[0].Name = tail
			out, err := f.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if o := binary.LittleEndian.Uint32(out[headerSize:]); poolStarts(out)[o] {
				t.Fatalf("a recorded tail %q got a pool string of its own", tail)
			}
			again, err := Read(out)
			if err != nil {
				t.Fatal(err)
			}
			if again.Commands[0].Name != tail || !slices.Equal(again.Layout.Tails, f.Layout.Tails) {
				t.Fatalf("read back command %q, tails %q; want %q, %q", again.Commands[0].Name, again.Layout.Tails, tail, f.Layout.Tails)
			}
			if out2, err := again.Bytes(); err != nil || !bytes.Equal(out, out2) {
				t.Fatalf("a file with a tail reference does not round-trip: %v %s", err, firstDiff(out, out2))
			}
		})
	}
}

// tailSeed is a corpus file whose element 0 names itself by a tail of its recorded name
// ("DoNothing" inside "OneShotDoNothing"), for the fuzz targets: no corpus file has a tail
// reference.
func tailSeed(tb testing.TB) []byte {
	b := bytes.Clone(corpusFile(tb, "synthetic/minimal_v407.ainb"))
	name := headerSize + commandSize + 8
	binary.LittleEndian.PutUint32(b[name:], binary.LittleEndian.Uint32(b[name:])+7)
	binary.LittleEndian.PutUint32(b[name+4:], Hash("DoNothing"))
	return b
}

// tinyFile is a one-command, one-element file with the given recorded layout.
func tinyFile(l *Layout) *File {
	return &File{Version: Version407, Filename: "Tiny", Category: "AI", HasSection6C: true,
		Replacement: &ReplacementTable{},
		Commands:    []Command{{Name: "Walk", Root: 0, Secondary: -1}},
		Elements:    []Element{{Name: "Leaf"}},
		Layout:      l}
}

func TestEditedTailAppended(t *testing.T) {
	f := tinyFile(&Layout{Strings: []string{"Walk", "Tiny", "AI", "Leaf"}})
	f.Commands[0].Name = "alk"
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	pool := out[binary.LittleEndian.Uint32(out[0x24:]):]
	if want := "Walk\x00Tiny\x00AI\x00Leaf\x00alk\x00"; string(pool) != want {
		t.Fatalf("pool %q, want %q", pool, want)
	}
	if o := binary.LittleEndian.Uint32(out[headerSize:]); o != 18 {
		t.Fatalf("command name at pool offset %d, want 18 (its own string)", o)
	}
	g, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if g.Commands[0].Name != "alk" || g.Layout.Tails != nil {
		t.Fatalf("read back %q with tails %q", g.Commands[0].Name, g.Layout.Tails)
	}
}

func TestRecordedTailReused(t *testing.T) {
	f := tinyFile(&Layout{Strings: []string{"Walk", "Tiny", "AI", "Leaf"}, Tails: []string{"alk"}})
	f.Commands[0].Name = "alk"
	f.Elements[0].Name = "eaf" // not a recorded tail: appended
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	pool := out[binary.LittleEndian.Uint32(out[0x24:]):]
	if want := "Walk\x00Tiny\x00AI\x00Leaf\x00eaf\x00"; string(pool) != want {
		t.Fatalf("pool %q, want %q", pool, want)
	}
	if o := binary.LittleEndian.Uint32(out[headerSize:]); o != 1 {
		t.Fatalf("command name at pool offset %d, want 1 (inside \"Walk\")", o)
	}
	g, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if g.Commands[0].Name != "alk" || !slices.Equal(g.Layout.Tails, []string{"alk"}) {
		t.Fatalf("read back %q with tails %q", g.Commands[0].Name, g.Layout.Tails)
	}
}

func TestTailOffsets(t *testing.T) {
	strs := []string{"", "Walk", "16", "Talk", "alk", "6"}
	got := tailOffsets(strs, []string{"alk", "6", "", "Walk", "lk", "alk", "xyz", "Talk"})
	// "alk" and "lk" land in the first string ending with them; "" in the NUL of the first
	// non-empty string; "6" in "16" although it is a string too; a whole string that is no
	// other's tail, and a string that is none's, are left out.
	want := map[string]uint32{"alk": 2, "lk": 3, "6": 7, "": 5}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for s, o := range want {
		if got[s] != o {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if got := tailOffsets(strs, nil); len(got) != 0 {
		t.Fatalf("no tails: %v", got)
	}
}
