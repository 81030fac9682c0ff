package sarc

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// visit reads every entry of v, as a caller listing an archive does, and returns the sum
// of the names' and data's lengths.
func visit(tb testing.TB, v *View) int {
	n := 0
	for i := range v.Len() {
		name, data, err := v.Entry(i)
		if err != nil {
			tb.Fatal(err)
		}
		n += len(name) + len(data)
	}
	return n
}

// TestViewCorpus: a View of every corpus archive sees what Read sees, finds every file by
// name, and allocates nothing.
func TestViewCorpus(t *testing.T) {
	for _, c := range corpusArchives(t) {
		a, err := Read(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v, err := Open(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if v.Len() != c.files || v.BigEndian() != c.big || v.HashMultiplier() != 0x65 {
			t.Fatalf("%s: %d files, big endian %v, multiplier %#x", c.name, v.Len(), v.BigEndian(), v.HashMultiplier())
		}
		for i, want := range a.Files {
			name, data, err := v.Entry(i)
			if err != nil {
				t.Fatalf("%s: entry %d: %v", c.name, i, err)
			}
			if string(name) != want.Name || len(data) != len(want.Data) || len(data) > 0 && &data[0] != &want.Data[0] {
				t.Fatalf("%s: entry %d is %q (%d bytes), Read has %q (%d bytes)", c.name, i, name, len(data), want.Name, len(want.Data))
			}
			data, ok, err := v.Lookup(want.Name)
			if err != nil || !ok || len(data) != len(want.Data) || len(data) > 0 && &data[0] != &want.Data[0] {
				t.Fatalf("%s: Lookup(%q): %d bytes, %v, %v", c.name, want.Name, len(data), ok, err)
			}
		}
		if data, ok, err := v.Lookup("no/such/file.bin"); ok || err != nil || data != nil {
			t.Fatalf("%s: Lookup of a missing name: %v %v", c.name, ok, err)
		}
		if n := testing.AllocsPerRun(10, func() {
			v, _ := Open(c.data)
			visit(t, &v)
			v.Lookup(a.Files[len(a.Files)-1].Name)
		}); n != 0 {
			t.Errorf("%s: Open, visit and Lookup allocated %v times", c.name, n)
		}
	}
}

// TestViewErrors: Open refuses what Read refuses in the headers, with the same errors (see
// TestReadErrors), and a damaged entry is reported when it is read, with Read's error for it,
// while the other entries read fine.
func TestViewErrors(t *testing.T) {
	le := binary.LittleEndian
	mod := func(f func(b []byte)) []byte { b := small(t); f(b); return b }
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"short", []byte("SARC"), "sarc: at 0x4: the input ends inside the 20-byte header"},
		{"file size", small(t)[:99], "sarc: at 0x8: file size 100, input has 99 bytes (cut short)"},
		{"count beyond input", mod(func(b []byte) { le.PutUint16(b[0x1A:], 0x3FFF) }),
			"sarc: at 0x1a: SFAT count 16383 needs 262128 bytes of entries, 68 remain"},
		{"data offset", mod(func(b []byte) { le.PutUint32(b[0xC:], 0x44) }),
			"sarc: at 0xc: data offset 0x44 outside 0x48..0x64 (after the SFNT header, within the file)"},
		{"sfat magic", mod(func(b []byte) { b[0x14] = 'X' }), `sarc: at 0x14: magic "XFAT", want "SFAT"`},
		{"sfat header size", mod(func(b []byte) { le.PutUint16(b[0x18:], 0x10) }), "sarc: at 0x18: SFAT header size 0x10, want 0xc"},
		{"sfnt past the end", mod(func(b []byte) { le.PutUint16(b[0x1A:], 4) }), "sarc: at 0x60: SFNT header needs 8 bytes, input ends at 0x64"},
		{"sfnt header size", mod(func(b []byte) { b[0x44] = 0x10 }), "sarc: at 0x44: SFNT header size 0x10, want 0x8"},
	} {
		if _, err := Open(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: Open: %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name    string
		in      []byte
		bad     int
		want    string
		readErr bool // Read gives the same error
	}{
		{"name offset", mod(func(b []byte) { le.PutUint32(b[0x24:], 0x01000004) }), 0,
			"sarc: at 0x24: SFAT entry 0: name offset 0x10 outside the name table (0x10 bytes at 0x48)", true},
		{"unterminated last name", mod(func(b []byte) { copy(b[0x50:0x58], "b.txtXXX") }), 1,
			"sarc: at 0x34: SFAT entry 1: name at 0x50 has no terminator before the data at 0x58", true},
		{"range past end", mod(func(b []byte) { le.PutUint32(b[0x3C:], 0x0D) }), 1,
			"sarc: at 0x38: SFAT entry 1: data range 0x4..0xd (relative to 0x58) outside the 0xc data bytes", true},
		{"range reversed", mod(func(b []byte) { le.PutUint32(b[0x28:], 0x05) }), 0,
			"sarc: at 0x28: SFAT entry 0: data range 0x5..0x4 (relative to 0x58) outside the 0xc data bytes", true},
	} {
		v, err := Open(c.in)
		if err != nil {
			t.Fatalf("%s: Open: %v", c.name, err)
		}
		if _, err := Read(c.in); c.readErr && (err == nil || err.Error() != c.want) {
			t.Errorf("%s: Read: %v, want %q", c.name, err, c.want)
		}
		names := []string{"a.txt", "b.txt"}
		for i := range 2 {
			name, edata, err := v.Entry(i)
			data, ok, lerr := v.Lookup(names[i])
			if i == c.bad {
				if err == nil || err.Error() != c.want || name != nil || edata != nil {
					t.Errorf("%s: entry %d: %q %q %v, want %q", c.name, i, name, edata, err, c.want)
				}
				if lerr == nil || lerr.Error() != c.want || ok {
					t.Errorf("%s: Lookup(%q): %v %v, want %q", c.name, names[i], ok, lerr, c.want)
				}
				continue
			}
			want := []string{"AAAA", "BBBBBBBB"}[i]
			if err != nil || string(name) != names[i] || string(edata) != want {
				t.Errorf("%s: good entry %d: %q %q %v", c.name, i, name, edata, err)
			}
			if lerr != nil || !ok || string(data) != want {
				t.Errorf("%s: Lookup(%q): %q %v %v", c.name, names[i], data, ok, lerr)
			}
		}
	}
	// A stored hash that is not the name's (Read refuses it) leaves the entry readable, as
	// the game reads it, but where the game's search cannot find it: Lookup reports it
	// missing, as the game would.
	v, _ := Open(mod(func(b []byte) { b[0x30] ^= 1 }))
	if name, data, err := v.Entry(1); err != nil || string(name) != "b.txt" || string(data) != "BBBBBBBB" {
		t.Errorf("entry under a wrong hash: %q %q %v", name, data, err)
	}
	if data, ok, err := v.Lookup("b.txt"); ok || err != nil || data != nil {
		t.Errorf("Lookup of a name under a wrong hash: %q %v %v", data, ok, err)
	}
	if _, _, err := v.Entry(2); err == nil || err.Error() != "sarc: entry 2 of 2" {
		t.Errorf("entry past the table: %v", err)
	}
}

// TestViewLookupHashes: names that share a hash are told apart by name, an entry without a
// name is never found, and a non-ASCII name is found under either hashing convention.
func TestViewLookupHashes(t *testing.T) {
	// With multiplier 1 the hash is the byte sum: "ab" and "ba" collide.
	a := &Archive{HashMultiplier: 1}
	for _, n := range []string{"ab", "ba", "c", "d"} {
		if err := a.Add(n, []byte("<"+n+">")); err != nil {
			t.Fatal(err)
		}
	}
	b, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// In hash order: c, d, ab, ba. Take the name of entry 1, "d" (hash 0x64), away.
	if got := binary.LittleEndian.Uint32(b[0x20+16:]); got != 'd' {
		t.Fatalf("entry 1 has hash %#x", got)
	}
	binary.LittleEndian.PutUint32(b[0x20+16+4:], 0)
	v, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ab", "ba", "c"} {
		if data, ok, err := v.Lookup(n); err != nil || !ok || string(data) != "<"+n+">" {
			t.Errorf("Lookup(%q): %q %v %v", n, data, ok, err)
		}
	}
	for _, n := range []string{"d", "aa", "ca", ""} {
		if data, ok, err := v.Lookup(n); err != nil || ok || data != nil {
			t.Errorf("Lookup(%q): %q %v %v, want not found", n, data, ok, err)
		}
	}

	const name = "Actor/\xe9t\xe9.bgyml"
	for _, unsigned := range []bool{false, true} {
		a := &Archive{}
		if err := a.Add(name, []byte("body")); err != nil {
			t.Fatal(err)
		}
		b, err := a.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if unsigned {
			binary.LittleEndian.PutUint32(b[0x20:], hashNameUnsigned(0x65, name))
		}
		if h := binary.LittleEndian.Uint32(b[0x20:]); h == hashName(0x65, name) == unsigned {
			t.Fatalf("stored hash %#x does not follow the convention under test", h)
		}
		v, err := Open(b)
		if err != nil {
			t.Fatal(err)
		}
		if data, ok, err := v.Lookup(name); err != nil || !ok || string(data) != "body" {
			t.Errorf("unsigned %v: Lookup: %q %v %v", unsigned, data, ok, err)
		}
	}
}

func FuzzView(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := Open(in)
		if err != nil {
			return
		}
		names := make([][]byte, v.Len())
		datas := make([][]byte, v.Len())
		errs := make([]error, v.Len())
		for i := range names {
			names[i], datas[i], errs[i] = v.Entry(i)
			if errs[i] == nil && (!inside(in, names[i]) || !inside(in, datas[i])) {
				t.Fatalf("entry %d does not alias the input", i)
			}
		}
		a, err := Read(in)
		if err != nil {
			return
		}
		// What Read accepts, a View reads alike entry by entry, and finds by name where the
		// table is in hash order.
		sorted := true
		for i := range a.Files {
			if errs[i] != nil || string(names[i]) != a.Files[i].Name || !bytes.Equal(datas[i], a.Files[i].Data) {
				t.Fatalf("entry %d: %q %v, Read has %q", i, names[i], errs[i], a.Files[i].Name)
			}
			if i > 0 && a.Files[i].placed.hash < a.Files[i-1].placed.hash {
				sorted = false
			}
		}
		for _, file := range a.Files {
			if file.Name == "" || !sorted {
				continue
			}
			want, _ := a.Lookup(file.Name)
			data, ok, err := v.Lookup(file.Name)
			if err != nil || !ok || !bytes.Equal(data, want) {
				t.Fatalf("Lookup(%q): %d bytes %v %v, want %d bytes", file.Name, len(data), ok, err, len(want))
			}
		}
	})
}

// inside reports whether b is empty or lies within in.
func inside(in, b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if len(in) == 0 {
		return false
	}
	off := uintptrDiff(&in[0], &b[0])
	return off < uintptr(len(in)) && off+uintptr(len(b)) <= uintptr(len(in))
}

// BenchmarkOpenVisit opens test.sarc and reads every entry: what oead's and roead's
// read-only archives do when a caller lists one.
func BenchmarkOpenVisit(b *testing.B) {
	benchRead(b, func(d []byte) error {
		v, err := Open(d)
		if err == nil {
			visit(b, &v)
		}
		return err
	})
}
