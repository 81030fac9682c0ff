package byml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// Output bounds of the fuzz properties: every form written from a document must stay within
// a fixed multiple of the input it was read from. Read refuses documents whose shared
// subtrees expand beyond maxExpansion weight per input byte, and deep containers are written
// in flow style, so a YAML or JSON line costs at most a few dozen bytes per unit of weight.
const (
	textPerByte   = 1024 // YAML or JSON bytes per input byte
	binaryPerByte = 16   // binary bytes per YAML byte
	slack         = 64 << 10
)

// Allocation bounds of the fuzz properties: what each reader allocates per input byte, beyond
// slack. Measured over the whole corpus (every file, not only the seeds), the readers need at
// most: Read 23x (USen.byml; the seeds fit in the slack), the YAML reader 40x (the dump of
// LevelSensor.byml), the JSON reader 5.1x (MainFieldStatic's). The bounds leave about
// three times that.
const (
	readAllocPerByte = 64
	yamlAllocPerByte = 128
	jsonAllocPerByte = 16
)

// The YAML reader's parser, yaml.v3, keeps state for every open level of nesting (tokens,
// events, parser and indentation stacks, the yaml.Node): measured, 560 to 1,100 bytes a level
// for "[[[..." and "- - -..." (1,100 at 75 levels, 620 at 9,000), and it refuses documents
// nesting more than 10,000 levels. A level takes at least one input byte, so beyond the
// multiple the YAML reader may allocate yamlLevelCost times min(input bytes, yamlMaxDepth):
// still a constant, 15 MB, for inputs past 10,000 bytes. (FuzzYAML found 75 bytes of "["
// allocating 82 KB.)
const (
	yamlLevelCost = 1536
	yamlMaxDepth  = 10_000
)

// yamlLevels is how many levels of nesting a YAML text of size bytes may open.
func yamlLevels(size int) int { return min(size, yamlMaxDepth) }

// allocated runs f and fails t when it allocated more than perByte times size plus slack,
// plus yamlLevelCost for each of levels levels of YAML nesting.
func allocated(t *testing.T, what string, size int, perByte uint64, levels int, f func()) {
	t.Helper()
	bound := perByte*uint64(size) + slack + yamlLevelCost*uint64(levels)
	if n := testalloc.Bytes(f); n > bound {
		t.Fatalf("%s of %d bytes allocated %d, beyond %dx + %d + %d levels of YAML", what, size, n, perByte, slack, levels)
	}
}

// fuzzSeedMax skips the largest corpus files as seeds: each fuzz input runs every writer.
const fuzzSeedMax = 8_000

func FuzzRead(f *testing.F) {
	for _, c := range corpusFiles(f) {
		if len(c.data) <= fuzzSeedMax {
			f.Add(c.data)
		}
	}
	for _, seed := range [][]byte{
		nil, []byte("YB"), raw("YB\x07\x00", 0, 0, 0),
		file(hdr(0, 0, 0x10), 0x2C0, 0xC0C0, 0x20, 0x20, 0x1C0, 0xD1, 7),
		file(hdr(0x10, 0, 0x20), 0x1C2, 0xC, 0xE, "a\x00\x00\x00", 0x1C1, 0xD1000000, 1),
		file(hdr(0, 0, 0x10), 0x1C0, 0xC0, 0x10),
		raw("BY\x00\x03", 0, 0, 0x10000000, 0xC0000001, 0xD4000000, 0x1C, 0, 5),
		file(hdr(0, 0, 0x10), 0x120, 7, 0x20, 0xC1, 0x00000000),
		file(hdr(0, 0, 0x10), 0x121, 7, 0, 0x20, 0xA2, 0x1C0, 3, 16, 0, 0, "abc"),
		file(hdr(0, 0, 0x10), 0x2C0, 0xD6D2, 0xFFC00001, 0x20, 1, 0xFFF80000), // NaNs with payloads
		// Unreferenced containers in a gap, a repeated key, arrays sharing their child.
		raw("YB\x01\x00", 0, 0, 0x10, 0x1C0, 0xD1, 7, 0xC1, 0x1C0, 0xC0, 0x30, 0, 0x2C0, 0xD0D2, 0x3F800000, 1),
		file(hdr(0x10, 0, 0x20), 0x1C2, 0xC, 0xE, "a\x00\x00\x00", 0x2C1, 0xD1000000, 1, 0xD1000000, 2),
		file(hdr(0, 0, 0x10), 0x2C0, 0xC0C0, 0x20, 0x20, 0x2C0, 0xC0C0, 0x30, 0x30, 0xC0),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			doc *Document
			err error
		)
		var counted int64
		allocated(t, "Read", len(data), readAllocPerByte, 0, func() { doc, counted, err = read(data) })
		if err != nil {
			return
		}
		if doc.Root != nil {
			if w := weight(doc.Root, 1<<62); counted != w {
				t.Fatalf("Read counted weight %d, the tree weighs %d", counted, w)
			}
		}
		if doc.Version == 1 {
			doc.Version = 2
		}
		for _, mode := range []string{"preserve", "canonical"} {
			var out []byte
			if mode == "preserve" {
				out, err = doc.Bytes()
			} else {
				out, err = doc.BytesCanonical()
			}
			if err != nil {
				if strings.Contains(err.Error(), "must be sorted") || strings.Contains(err.Error(), "contains NUL") {
					continue // the canonical layout needs sorted keys and C strings
				}
				t.Fatalf("%s write of a document Read accepted: %v", mode, err)
			}
			if len(out) > 2*len(data)+slack {
				t.Fatalf("%s write is %d bytes from %d", mode, len(out), len(data))
			}
			back, err := Read(out)
			if err != nil {
				t.Fatalf("%s output does not read back: %v", mode, err)
			}
			if p := diffPath(back.Root, doc.Root, "root"); p != "" {
				t.Fatalf("%s output reads back different at %s", mode, p)
			}
		}
		if y, err := doc.ToYAML(); err == nil {
			if len(y) > textPerByte*len(data)+slack {
				t.Fatalf("YAML is %d bytes from %d", len(y), len(data))
			}
			root, err := NodeFromYAML(y)
			if err != nil {
				t.Fatalf("own YAML does not read back: %v\n%s", err, y)
			}
			if p := diffPath(root, quietNaNs(doc.Root), "root"); p != "" {
				t.Fatalf("YAML round trip differs at %s\n%s", p, y)
			}
		}
		if j, err := doc.ToJSON(); err == nil {
			if len(j) > textPerByte*len(data)+slack {
				t.Fatalf("JSON is %d bytes from %d", len(j), len(data))
			}
			back, err := FromJSON(j)
			if err != nil {
				t.Fatalf("own JSON does not read back: %v", err)
			}
			if p := diffPath(back.Root, quietNaNs(doc.Root), "root"); p != "" {
				t.Fatalf("JSON round trip differs at %s", p)
			}
		}
	})
}

func FuzzYAML(f *testing.F) {
	dir := filepath.Join(testcorpus.Dir(f), "byml")
	for name := range yamlPairs {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(b) <= fuzzSeedMax {
			f.Add(b)
		}
	}
	for _, c := range corpusFiles(f) {
		if len(c.data) > fuzzSeedMax {
			continue
		}
		if doc, err := Read(c.data); err == nil {
			if y, err := doc.ToYAML(); err == nil {
				f.Add(y)
			}
		}
	}
	for _, s := range []string{
		"", "null", "[]", "{}", "a: &x [1, 2]\nb: *x\n", "m: !h {1: 2}", "m: !h64 {18446744073709551615: x}",
		"f: !!file {Alignment: 16, Data: !!binary AAAA}", "- !u 0x10\n- !l -1\n- !ul 1\n- !f64 .nan\n- 1.5\n- ~",
		"a: !!binary |\n  AAAA\n  BBBB\n", "&a [*a]", "x: \"\\0\"", "[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var (
			root *Node
			err  error
		)
		allocated(t, "NodeFromYAML", len(text), yamlAllocPerByte, yamlLevels(len(text)), func() { root, err = NodeFromYAML(text) })
		if err != nil || root == nil {
			return
		}
		doc := &Document{Version: 7, Root: root}
		bin, err := doc.BytesCanonical()
		if err != nil {
			if strings.Contains(err.Error(), "contains NUL") {
				return // YAML strings may hold NUL; BYML's C strings cannot
			}
			t.Fatalf("canonical write of a YAML document: %v", err)
		}
		if len(bin) > binaryPerByte*len(text)+slack {
			t.Fatalf("binary is %d bytes from %d of YAML", len(bin), len(text))
		}
		back, err := Read(bin)
		if err != nil {
			t.Fatalf("binary does not read back: %v", err)
		}
		if p := diffPath(back.Root, root, "root"); p != "" {
			t.Fatalf("binary reads back different at %s", p)
		}
		y, err := NodeToYAML(root)
		if err != nil {
			return // strings that are not UTF-8 (from \x escapes)
		}
		if len(y) > textPerByte*len(text)+slack {
			t.Fatalf("YAML is %d bytes from %d", len(y), len(text))
		}
		// yaml.v3's text is the reference where yaml.v3 can read it back (not a literal
		// block whose first line starts with a tab; see yamltext.Writer).
		if old, err := oracleYAML(root); err != nil || !bytes.Equal(y, old) && yaml.Unmarshal(old, new(yaml.Node)) == nil {
			t.Fatalf("text differs from yaml.v3's (err %v):\n%s\nyaml.v3:\n%s", err, y, old)
		}
		again, err := NodeFromYAML(y)
		if err != nil {
			t.Fatalf("own YAML does not read back: %v\n%s", err, y)
		}
		if p := diffPath(again, root, "root"); p != "" {
			t.Fatalf("YAML round trip differs at %s\n%s", p, y)
		}
	})
}
