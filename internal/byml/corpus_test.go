package byml

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/testcorpus"
)

// corpusFile is one BYML document of the shared corpus, unpacked. nintendo is false for the
// totk-resaved files, whose bytes a third-party tool wrote.
type corpusFile struct {
	name     string // path under corpus/byml, plus ":entry" for a document inside a SARC
	data     []byte
	nintendo bool
}

// corpusFiles returns every BYML document under corpus/byml: plain files as they are, .sbyml
// through a test-only Yaz0 decoder, .zs through zstd with the corpus dictionaries, and the
// BYML members of SARC archives (.pack.zs). Nothing is skipped: a file the walk cannot unpack
// fails the test.
func corpusFiles(tb testing.TB) []corpusFile {
	tb.Helper()
	root := filepath.Join(testcorpus.Dir(tb), "byml")
	var paths []string
	err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(paths)
	var out []corpusFile
	for _, p := range paths {
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		nintendo := !strings.HasPrefix(rel, "totk-resaved")
		switch {
		case strings.HasSuffix(p, ".sbyml"):
			if data, err = yaz0Decode(data); err != nil {
				tb.Fatalf("%s: %v", rel, err)
			}
		case strings.HasSuffix(p, ".zs"):
			if data, err = zstdDecode(tb, data); err != nil {
				tb.Fatalf("%s: %v", rel, err)
			}
		}
		if string(data[:4]) == "SARC" {
			members, err := sarcMembers(data)
			if err != nil {
				tb.Fatalf("%s: %v", rel, err)
			}
			n := 0
			for i, m := range members {
				if len(m) >= 2 && (string(m[:2]) == "YB" || string(m[:2]) == "BY") {
					out = append(out, corpusFile{name: fmt.Sprintf("%s:%d", rel, i), data: m, nintendo: nintendo})
					n++
				}
			}
			if n == 0 {
				tb.Fatalf("%s: SARC holds no BYML", rel)
			}
			continue
		}
		if string(data[:2]) != "YB" && string(data[:2]) != "BY" {
			tb.Fatalf("%s: not BYML after unpacking (starts %q)", rel, data[:4])
		}
		out = append(out, corpusFile{name: rel, data: data, nintendo: nintendo})
	}
	if len(out) == 0 {
		tb.Fatalf("no BYML files under %s", root)
	}
	return out
}

// yaz0Decode is a test-only Yaz0 decoder (the project's own package is written elsewhere).
func yaz0Decode(src []byte) ([]byte, error) {
	if len(src) < 16 || string(src[:4]) != "Yaz0" {
		return nil, fmt.Errorf("yaz0: bad header")
	}
	size := int(binary.BigEndian.Uint32(src[4:]))
	dst := make([]byte, 0, size)
	i := 16
	for len(dst) < size {
		if i >= len(src) {
			return nil, fmt.Errorf("yaz0: truncated")
		}
		flags := src[i]
		i++
		for bit := 7; bit >= 0 && len(dst) < size; bit-- {
			if flags&(1<<bit) != 0 {
				if i >= len(src) {
					return nil, fmt.Errorf("yaz0: truncated")
				}
				dst = append(dst, src[i])
				i++
				continue
			}
			if i+2 > len(src) {
				return nil, fmt.Errorf("yaz0: truncated")
			}
			b1, b2 := int(src[i]), int(src[i+1])
			i += 2
			dist := (b1&0xF)<<8 | b2 + 1
			n := b1 >> 4
			if n == 0 {
				if i >= len(src) {
					return nil, fmt.Errorf("yaz0: truncated")
				}
				n = int(src[i]) + 0x12
				i++
			} else {
				n += 2
			}
			if dist > len(dst) {
				return nil, fmt.Errorf("yaz0: back reference before start")
			}
			for k := 0; k < n; k++ {
				dst = append(dst, dst[len(dst)-dist])
			}
		}
	}
	return dst, nil
}

func zstdDecode(tb testing.TB, src []byte) ([]byte, error) {
	dir := filepath.Join(testcorpus.Dir(tb), "zstd")
	var dicts [][]byte
	for _, name := range []string{"zs.zsdic", "bcett.byml.zsdic", "pack.zsdic"} {
		d, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		dicts = append(dicts, d)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(dicts...), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	return dec.DecodeAll(src, nil)
}

// sarcMembers returns the files of a SARC archive in node order (test-only, no names).
func sarcMembers(b []byte) ([][]byte, error) {
	if len(b) < 0x20 {
		return nil, fmt.Errorf("sarc: short")
	}
	var o binary.ByteOrder = binary.LittleEndian
	if bytes.Equal(b[6:8], []byte{0xFE, 0xFF}) {
		o = binary.BigEndian
	}
	hdr := int(o.Uint16(b[4:]))
	dataOff := int(o.Uint32(b[0xC:]))
	if string(b[hdr:hdr+4]) != "SFAT" {
		return nil, fmt.Errorf("sarc: no SFAT")
	}
	n := int(o.Uint16(b[hdr+6:]))
	var out [][]byte
	for i := 0; i < n; i++ {
		e := hdr + 0xC + 0x10*i
		if e+0x10 > len(b) {
			return nil, fmt.Errorf("sarc: truncated SFAT")
		}
		s, t := dataOff+int(o.Uint32(b[e+8:])), dataOff+int(o.Uint32(b[e+12:]))
		if s > t || t > len(b) {
			return nil, fmt.Errorf("sarc: member %d out of range", i)
		}
		out = append(out, b[s:t])
	}
	return out, nil
}

func TestCorpusRead(t *testing.T) {
	files := corpusFiles(t)
	docs := map[string]*Document{}
	for _, f := range files {
		doc, err := Read(f.data)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		docs[f.name] = doc
	}
	if len(files) < 62 {
		t.Fatalf("%d documents, the corpus has 62", len(files))
	}
	// Spot checks of values other tools report for these files.
	actors := docs["ActorInfo.product.byml"].Root
	if n := len(actors.Get("Actors").Items); n != 7934 {
		t.Errorf("ActorInfo: %d actors, want 7934", n)
	}
	if h := actors.Get("Hashes").Items[0]; h.Kind != Int || h.IntValue() != 31119 {
		t.Errorf("ActorInfo: Hashes[0] = %v %d, want int 31119", h.Kind, h.IntValue())
	}
	usen := docs["USen.byml"].Root
	if usen.Kind != HashMap32 || usen.Entries[0].Hash != 1264494 || usen.Entries[0].Value.Get("Hash").UIntValue() != 0xE8FCC5F5 {
		t.Errorf("USen: first entry %+v", usen.Entries[0])
	}
	mrg := docs["Mrg_01e57204_MrgD100_B4-B3-B2-1A90E17A.bcett.byml"]
	if h := mrg.Root.Get("Actors").Items[0].Get("Hash"); mrg.Version != 4 || h.Kind != UInt64 || h.UInt64Value() != 934954474910587728 {
		t.Errorf("Mrg: version %d, first actor hash %v %d", mrg.Version, h.Kind, h.UInt64Value())
	}
}

// TestCorpusByteOrder writes every document in the other byte order with its recorded
// layout, reads it back, and writes it in the original order again: the bytes must be the
// original file's. The corpus has only little-endian files; this covers big endian.
func TestCorpusByteOrder(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		doc.BigEndian = !doc.BigEndian
		flipped, err := doc.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if string(flipped[:2]) != "BY" {
			t.Fatalf("%s: flipped file starts %q", f.name, flipped[:2])
		}
		back, err := Read(flipped)
		if err != nil {
			t.Fatalf("%s: big-endian copy does not read: %v", f.name, err)
		}
		if p := diffPath(back.Root, doc.Root, "root"); p != "" {
			t.Fatalf("%s: big-endian copy differs at %s", f.name, p)
		}
		back.BigEndian = !back.BigEndian
		again, err := back.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, f.data) {
			t.Fatalf("%s: little -> big -> little changed the bytes: %s", f.name, firstDiff(again, f.data))
		}
	}
}

// walk calls fn for every node reachable from n, once per reference.
// walk calls fn once for every node under n, a shared one once however many parents it has
// (so a heavily shared tree costs its size, not its expansion).
func walk(n *Node, fn func(*Node)) {
	seen := map[*Node]bool{}
	var rec func(n *Node)
	rec = func(n *Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		fn(n)
		for _, it := range n.Items {
			rec(it)
		}
		for _, e := range n.Entries {
			rec(e.Value)
		}
	}
	rec(n)
}
