package aamp

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/testalloc"
)

// Allocation bounds of the fuzz properties: what each reader allocates per input byte, beyond
// allocSlack. Measured over every corpus file (and the YAML and JSON made from each, and the
// hand-written YAML), the readers need at most: Read 7x (Bokoblin_Red.baiprog), the YAML
// reader 34x (PhysicsMaterialTable.bphysmaterial's dump), the JSON reader 23x (the same
// file's). The bounds leave four times that or more.
const (
	readAllocPerByte = 32
	textAllocPerByte = 128
	allocSlack       = 64 << 10
)

// The YAML reader's parser, yaml.v3, keeps state for every open level of nesting (tokens,
// events, parser and indentation stacks, the yaml.Node): measured, 560 to 1,100 bytes a level,
// and it refuses documents nesting more than 10,000 levels. A level takes at least one input
// byte, so beyond the multiple the YAML reader may allocate yamlLevelCost times min(input
// bytes, yamlMaxDepth): still a constant, 15 MB, for inputs past 10,000 bytes. (FuzzYAML
// found 506 bytes, mostly "[", allocating 166 KB.)
const (
	yamlLevelCost = 1536
	yamlMaxDepth  = 10_000
)

// allocated runs f and fails t when it allocated more than perByte times size plus
// allocSlack, plus yamlLevelCost for each of levels levels of YAML nesting.
func allocated(t *testing.T, what string, size int, perByte uint64, levels int, f func()) {
	t.Helper()
	bound := perByte*uint64(size) + allocSlack + yamlLevelCost*uint64(levels)
	if n := testalloc.Bytes(f); n > bound {
		t.Fatalf("%s of %d bytes allocated %d, beyond %dx + %d + %d levels of YAML", what, size, n, perByte, allocSlack, levels)
	}
}

// fuzzSeeds returns the smallest corpus file of each extension (added at run time, never
// copied into testdata).
func fuzzSeeds(f *testing.F) [][]byte {
	f.Helper()
	best := map[string]string{}
	size := map[string]int64{}
	for _, p := range corpusFiles(f) {
		st, err := os.Stat(p)
		if err != nil {
			f.Fatal(err)
		}
		ext := filepath.Ext(p)
		if _, ok := best[ext]; !ok || st.Size() < size[ext] {
			best[ext], size[ext] = p, st.Size()
		}
	}
	exts := make([]string, 0, len(best))
	for e := range best {
		exts = append(exts, e)
	}
	sort.Strings(exts)
	var out [][]byte
	for _, e := range exts {
		b, err := os.ReadFile(best[e])
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func allTypesDoc() *ParameterIO {
	curves := make([]Curve, 4)
	for i := range curves {
		curves[i].A, curves[i].Floats[i] = uint32(i), float32(i)
	}
	return &ParameterIO{Version: 1, Type: "xml", Root: ParameterList{Name: RootName,
		Lists: []*ParameterList{{Name: 9, Lists: []*ParameterList{{Name: 10}}}},
		Objects: []*ParameterObject{{Name: NameOf("All"), Params: []Parameter{
			{1, TypeBool, true}, {2, TypeF32, float32(1.5)}, {3, TypeInt, int32(-3)}, {4, TypeVec2, Vec2{1, 2}},
			{5, TypeVec3, Vec3{1, 2, 3}}, {6, TypeVec4, Vec4{1, 2, 3, 4}}, {7, TypeColor, Color{1, 0, 0, 1}},
			{8, TypeString32, "s32"}, {9, TypeString64, "s64"}, {10, TypeCurve1, curves[:1]}, {11, TypeCurve2, curves[:2]},
			{12, TypeCurve3, curves[:3]}, {13, TypeCurve4, curves}, {14, TypeBufferInt, []int32{1, -2}},
			{15, TypeBufferF32, []float32{1, 2}}, {16, TypeString256, "s256"}, {17, TypeQuat, Quat{0, 0, 0, 1}},
			{18, TypeU32, uint32(2)}, {19, TypeBufferU32, []uint32{7}}, {20, TypeBufferBinary, []byte{1, 2, 3}},
			{21, TypeStringRef, "ref"},
		}}}}}
}

func FuzzRead(f *testing.F) {
	f.Add(tiny(f))
	all, err := allTypesDoc().Bytes()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(all)
	f.Add([]byte("AAMP\x02\x00\x00\x00\x03\x00\x00\x00"))
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			pio *ParameterIO
			err error
		)
		allocated(t, "Read", len(data), readAllocPerByte, 0, func() { pio, err = Read(data) })
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		out, err := pio.Bytes()
		if err != nil {
			t.Fatalf("write of a document that read fine: %v", err)
		}
		if len(out) > 16*len(data)+4096 {
			t.Fatalf("write: %d bytes from %d", len(out), len(data))
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("reading own output: %v", err)
		}
		if d := diffIO(pio, back); d != "" {
			t.Fatalf("write/read changed the model: %s", d)
		}
		if canon, err := pio.BytesCanonical(); err == nil {
			if len(canon) > 16*len(data)+4096 {
				t.Fatalf("canonical write: %d bytes from %d", len(canon), len(data))
			}
			back, err := Read(canon)
			if err != nil && !strings.Contains(err.Error(), "decoding budget") {
				t.Fatalf("reading canonical output: %v", err)
			}
			if err == nil {
				if d := diffIO(pio, back); d != "" {
					t.Fatalf("canonical write/read changed the model: %s", d)
				}
			}
		}
		y, err := ToYAML(pio)
		if err == nil {
			if len(y) > 128*len(data)+4096 {
				t.Fatalf("YAML: %d bytes from %d", len(y), len(data))
			}
			fromY, err := FromYAML(y)
			if err != nil {
				t.Fatalf("reading own YAML: %v\n%s", err, y)
			}
			if d := diffIOText(pio, fromY); d != "" {
				t.Fatalf("YAML round trip: %s", d)
			}
		}
		j, err := ToJSON(pio)
		if err == nil {
			if len(j) > 128*len(data)+4096 {
				t.Fatalf("JSON: %d bytes from %d", len(j), len(data))
			}
			fromJ, err := FromJSON(j)
			if err != nil {
				t.Fatalf("reading own JSON: %v", err)
			}
			if d := diffIOText(pio, fromJ); d != "" {
				t.Fatalf("JSON round trip: %s", d)
			}
		}
	})
}

func FuzzYAML(f *testing.F) {
	for _, name := range []string{"oead_test.yml", "oead_test_empty_strings.yml", "roead_test.yml"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(corpusFiles(f)[0])), "text", name))
		if err != nil {
			// corpusFiles' first entry sits one folder deep (AIProgram/...).
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range fuzzSeeds(f)[:8] {
		pio, err := Read(s)
		if err != nil {
			f.Fatal(err)
		}
		y, err := ToYAML(pio)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(y)
	}
	y, err := ToYAML(allTypesDoc())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(y)
	f.Add([]byte("!io\nversion: 0\ntype: xml\nparam_root: !list {objects: {}, lists: {}}\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var (
			pio *ParameterIO
			err error
		)
		allocated(t, "FromYAML", len(text), textAllocPerByte, min(len(text), yamlMaxDepth), func() { pio, err = FromYAML(text) })
		if err != nil {
			return
		}
		out, err := pio.Bytes()
		if err != nil {
			return // e.g. a document too large for u16 word offsets
		}
		if len(out) > 16*len(text)+4096 {
			t.Fatalf("binary: %d bytes from %d bytes of YAML", len(out), len(text))
		}
		back, err := Read(out)
		if err != nil && !strings.Contains(err.Error(), "decoding budget") {
			t.Fatalf("reading the binary built from YAML: %v", err)
		}
		if err == nil {
			if d := diffIO(pio, back); d != "" {
				t.Fatalf("binary round trip: %s", d)
			}
		}
		y, err := ToYAML(pio)
		if err != nil {
			if strings.Contains(err.Error(), "UTF-8") {
				return
			}
			t.Fatalf("dumping a document read from YAML: %v", err)
		}
		if len(y) > 128*len(text)+4096 {
			t.Fatalf("YAML dump: %d bytes from %d", len(y), len(text))
		}
		// yaml.v3's text is the reference where yaml.v3 can read it back (not a literal
		// block whose first line starts with a tab; see yamltext.Writer).
		if old, err := oracleYAML(pio); err != nil || !bytes.Equal(y, old) && yaml.Unmarshal(old, new(yaml.Node)) == nil {
			t.Fatalf("text differs from yaml.v3's (err %v):\n%s\nyaml.v3:\n%s", err, y, old)
		}
		again, err := FromYAML(y)
		if err != nil {
			t.Fatalf("reading own dump: %v\n%s", err, y)
		}
		if d := diffIO(pio, again); d != "" {
			t.Fatalf("YAML round trip: %s\n%s", d, y)
		}
	})
}

func FuzzJSON(f *testing.F) {
	for _, s := range fuzzSeeds(f)[:8] {
		pio, err := Read(s)
		if err != nil {
			f.Fatal(err)
		}
		j, err := ToJSON(pio)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(j)
	}
	j, err := ToJSON(allTypesDoc())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(j)
	f.Add([]byte(`{"version":0,"type":"xml","param_root":{"lists":[{"name":"L","lists":[],"objects":[]}],"objects":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			pio *ParameterIO
			err error
		)
		allocated(t, "FromJSON", len(data), textAllocPerByte, 0, func() { pio, err = FromJSON(data) })
		if err != nil {
			return
		}
		out, err := pio.Bytes()
		if err != nil {
			return // e.g. a document too large for u16 word offsets
		}
		if len(out) > 16*len(data)+4096 {
			t.Fatalf("binary: %d bytes from %d bytes of JSON", len(out), len(data))
		}
		back, err := Read(out)
		if err != nil && !strings.Contains(err.Error(), "decoding budget") {
			t.Fatalf("reading the binary built from JSON: %v", err)
		}
		if err == nil {
			if d := diffIO(pio, back); d != "" {
				t.Fatalf("binary round trip: %s", d)
			}
		}
		j, err := ToJSON(pio)
		if err != nil {
			if strings.Contains(err.Error(), "UTF-8") {
				return
			}
			t.Fatalf("encoding a document read from JSON: %v", err)
		}
		if len(j) > 128*len(data)+4096 {
			t.Fatalf("JSON: %d bytes from %d", len(j), len(data))
		}
		again, err := FromJSON(j)
		if err != nil {
			t.Fatalf("reading own JSON: %v\n%s", err, j)
		}
		if d := diffIO(pio, again); d != "" {
			t.Fatalf("JSON round trip: %s", d)
		}
	})
}
