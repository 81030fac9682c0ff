package byml

import (
	"bytes"
	"errors"
	"go.yaml.in/yaml/v3"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yamltext"
)

// yamlPairs maps each YAML dump of the corpus to the BYML document it was made from.
var yamlPairs = map[string]string{
	"A-1_Dynamic.yml":       "A-1_Dynamic.byml",
	"EventInfo.product.yml": "EventInfo.product.byml",
	"LevelSensor.yml":       "LevelSensor.byml",
	"MainFieldStatic.yml":   "MainFieldStatic.byml",
	"Mrg_01e57204_MrgD100_B4-B3-B2-1A90E17A.bcett.yml": "Mrg_01e57204_MrgD100_B4-B3-B2-1A90E17A.bcett.byml",
	"Preset0_Field.yml": "Preset0_Field.byml",
	// binary.yml has Preset0_Field's keys but other data (1581 bytes differ): oead's own
	// test document, with no binary in the corpus.
	"binary.yml": "",
	"USen.yml":   "USen.byml",
	// A third-party dump that is not valid: its !!binary holds the text "path_list" at
	// character 76, and without it decodes to 554689 bytes where the binary has 557008.
	"totk-resaved/Tag.Product.120.rstbl.yaml": "",
}

// yamlInvalid are the dumps that must fail to read, with the error they give.
var yamlInvalid = map[string]string{
	"totk-resaved/Tag.Product.120.rstbl.yaml": "!!binary: illegal base64 data at input byte 76",
}

// TestCorpusYAMLDumps reads every YAML dump of the corpus (written by oead and roead) and
// compares it as values with the binary it came from: same kinds (so the same tags), same
// numbers bit for bit, same keys in the same order.
func TestCorpusYAMLDumps(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "byml")
	docs := map[string]*Document{}
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		docs[f.name] = doc
	}
	var found []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return nil
	})
	if len(found) != len(yamlPairs) {
		t.Errorf("corpus has %d YAML files %v, the test knows %d", len(found), found, len(yamlPairs))
	}
	for _, name := range found {
		bin, ok := yamlPairs[name]
		if !ok {
			t.Errorf("%s: no binary known for this dump", name)
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		root, err := NodeFromYAML(text)
		if want, bad := yamlInvalid[name]; bad {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, want the error %q", name, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if bin == "" {
			continue // checked by TestCorpusYAMLRoundTrip
		}
		if path := diffPath(root, docs[bin].Root, "root"); path != "" {
			t.Errorf("%s: differs from %s at %s", name, bin, path)
		}
	}
}

// diffPath returns where a and b first differ, or "".
func diffPath(a, b *Node, path string) string {
	if Equal(a, b) {
		return ""
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return path + ": kinds " + kindOrNil(a) + " and " + kindOrNil(b)
	}
	if len(a.Items) != len(b.Items) || len(a.Entries) != len(b.Entries) {
		return path + ": lengths differ"
	}
	for i := range a.Items {
		if p := diffPath(a.Items[i], b.Items[i], path+"["+strconv.Itoa(i)+"]"); p != "" {
			return p
		}
	}
	for i := range a.Entries {
		ea, eb := a.Entries[i], b.Entries[i]
		if ea.Key != eb.Key || ea.Hash != eb.Hash {
			return path + ": key " + ea.Key + " vs " + eb.Key
		}
		if p := diffPath(ea.Value, eb.Value, path+"."+ea.Key); p != "" {
			return p
		}
	}
	return path + ": values differ"
}

func kindOrNil(n *Node) string {
	if n == nil {
		return "nil"
	}
	return n.Kind.String()
}

// TestCorpusYAMLRoundTrip: for every corpus document, YAML -> binary -> YAML gives the same
// text and binary -> YAML -> binary the same values; for every dump, text -> binary -> text
// is stable too.
func TestCorpusYAMLRoundTrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		y1, err := doc.ToYAML()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		d2, err := FromYAML(y1)
		if err != nil {
			t.Fatalf("%s: own YAML does not read back: %v", f.name, err)
		}
		d2.Version, d2.BigEndian = doc.Version, doc.BigEndian
		bin, err := d2.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		d3, err := Read(bin)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if p := diffPath(d3.Root, doc.Root, "root"); p != "" {
			t.Fatalf("%s: binary -> YAML -> binary differs at %s", f.name, p)
		}
		y2, err := d3.ToYAML()
		if err != nil {
			t.Fatal(err)
		}
		// The binary is laid out canonically, which writes equal containers once: read
		// back, they are shared, and the YAML writes them once with an anchor. So y2 says
		// the same as y1, and from there the text is stable.
		d4, err := FromYAML(y2)
		if err != nil || !Equal(d4.Root, d2.Root) {
			t.Fatalf("%s: YAML -> binary -> YAML changed the values: %v", f.name, err)
		}
		d4.Version, d4.BigEndian = doc.Version, doc.BigEndian
		bin4, err := d4.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		d5, err := Read(bin4)
		if err != nil {
			t.Fatal(err)
		}
		if y5, err := d5.ToYAML(); err != nil || !bytes.Equal(y5, y2) {
			t.Fatalf("%s: YAML -> binary -> YAML is not stable: %v", f.name, err)
		}
	}
	dir := filepath.Join(testcorpus.Dir(t), "byml")
	for name := range yamlPairs {
		if yamlInvalid[name] != "" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		d1, err := FromYAML(text)
		if err != nil {
			t.Fatal(err)
		}
		bin, err := d1.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		d2, err := Read(bin)
		if err != nil {
			t.Fatal(err)
		}
		if p := diffPath(d2.Root, d1.Root, "root"); p != "" {
			t.Fatalf("%s: YAML -> binary differs at %s", name, p)
		}
		// d2 shares the equal containers the canonical layout wrote once, so its YAML
		// has anchors that d1's has not; from there the text is stable.
		y2, err2 := d2.ToYAML()
		d3, err3 := FromYAML(y2)
		if err2 != nil || err3 != nil || !Equal(d3.Root, d1.Root) {
			t.Fatalf("%s: YAML -> binary -> YAML changed the values (%v, %v)", name, err2, err3)
		}
		bin3, _ := d3.Bytes()
		d4, err4 := Read(bin3)
		if err4 != nil {
			t.Fatal(err4)
		}
		if y4, err := d4.ToYAML(); err != nil || !bytes.Equal(y4, y2) {
			t.Fatalf("%s: YAML -> binary -> YAML is not stable (%v)", name, err)
		}
	}
}

func TestYAMLScalars(t *testing.T) {
	root := NewHash()
	add := func(k string, v *Node) { root.Set(k, v) }
	add("bool", NewBool(true))
	add("int", NewInt(-5))
	add("float", NewFloat(1))
	add("float-frac", NewFloat(0.1))
	add("float-big", NewFloat(1e30))
	add("negzero", NewFloat(float32(math.Copysign(0, -1))))
	add("nan", NewDouble(quietNaN))
	add("inf", NewFloat(float32(math.Inf(-1))))
	add("uint", NewUInt(0xDEADBEEF))
	add("int64", NewInt64(math.MinInt64))
	add("uint64", NewUInt64(math.MaxUint64))
	add("double", NewDouble(2))
	add("null", NewNull())
	add("bin", NewBinary([]byte{0, 1, 2, 0xFF}))
	add("file", NewFile([]byte("data"), 0x1000))
	for _, s := range []string{"true", "null", "0x10", "1.5", "12", "-3", "", " lead", "!tag", "a: b", "#c", "~", ".inf", "日本", "\t\nx"} {
		add("s"+s, NewString(s))
	}
	hm := &Node{Kind: HashMap32}
	hm.SetHash(7, NewInt(1))
	hm.SetHash(0xFFFFFFFF, NewArray(NewInt(2)))
	add("hm32", hm)
	hm64 := &Node{Kind: HashMap64}
	hm64.SetHash(math.MaxUint64, NewString("x"))
	add("hm64", hm64)
	add("empty-array", NewArray())
	add("empty-hash", NewHash())
	text, err := NodeToYAML(root)
	if err != nil {
		t.Fatal(err)
	}
	back, err := NodeFromYAML(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if p := diffPath(back, root, "root"); p != "" {
		t.Fatalf("round trip differs at %s\n%s", p, text)
	}
	for _, want := range []string{"float: 1.0\n", "float-big: 1.0e+30\n", "negzero: -0.0\n", "uint: !u 0xdeadbeef\n",
		"int64: !l -9223372036854775808\n", "uint64: !ul 18446744073709551615\n", "double: !f64 2.0\n",
		"\"null\": null\n", "bin: !!binary AAEC/w==\n", "hm32: !h\n", "empty-array: []\n", "empty-hash: {}\n",
		"s0x10: \"0x10\"\n", "strue: \"true\"\n", ": |2-\n  \t\n  x\n", "file: !!file {Alignment: 4096, Data: !!binary ZGF0YQ==}\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("YAML lacks %q:\n%s", want, text)
		}
	}
}

func TestYAMLReadConventions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want *Node
	}{
		{"a: 0x10", NewInt(16)},
		{"a: 4294967295", NewUInt(math.MaxUint32)},
		{"a: -2147483649", NewInt64(-2147483649)},
		{"a: 1.", NewFloat(1)},
		{"a: !u 16", NewUInt(16)},
		{"a: !d 0.5", NewDouble(0.5)},
		{"a: !!file AAAA", NewFile([]byte{0, 0, 0}, 0x1000)},
		{"a: 'true'", NewString("true")},
		{"a: |\n  12\n", NewString("12\n")},
		{"a: 1e5", NewString("1e5")}, // oead: no decimal point, not an integer
		{"a: ~", NewString("~")},     // oead: only null is null
		{"a: null", NewNull()},
	} {
		root, err := NodeFromYAML([]byte(tc.text))
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if got := root.Get("a"); !Equal(got, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.text, got, tc.want)
		}
	}
	// Keys come out sorted; h32 keys may be hex.
	root, err := NodeFromYAML([]byte("b: 1\na: 2\nm: !h32 {0x10: 1, 3: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if root.Entries[0].Key != "a" || root.Entries[1].Key != "b" || root.Get("m").Entries[0].Hash != 3 || root.Get("m").Entries[1].Hash != 16 {
		t.Fatalf("unsorted: %+v", root)
	}
	// Aliases become one shared node.
	root, err = NodeFromYAML([]byte("a: &x [1, 2]\nb: *x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if root.Get("a") != root.Get("b") {
		t.Fatal("alias did not share the node")
	}
	for _, bad := range []string{
		"a: !u -1", "a: !u 0x100000000", "a: !zz 1", "a: !h {x: 1}", "[1, 2", "a: 1\na: 2",
		"5", "a: !!binary '%%%'", "&a [*a]", "a: !!file {Alignment: 1}",
	} {
		if _, err := NodeFromYAML([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestYAMLTextLikeYAMLv3 checks that the writer gives, for every corpus document, the text
// yaml.v3 gives for the yaml.Node tree the old writer built.
func TestYAMLTextLikeYAMLv3(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := doc.ToYAML()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		want, err := oracleYAML(doc.Root)
		if err != nil {
			t.Fatalf("%s: yaml.v3: %v", f.name, err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: text differs from yaml.v3's at byte %d: %q vs %q", f.name, i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
}

// TestYAMLChunkedSameText checks that writing large containers member by member gives the
// text one encoder gives for the whole document.
func TestYAMLChunkedSameText(t *testing.T) {
	for _, size := range []int{512, 8} {
		chunkNodes = size
		testChunked(t)
	}
	chunkNodes = 512
}

func testChunked(t *testing.T) {
	n := 0
	for _, f := range corpusFiles(t) {
		if len(f.data) > 200_000 {
			continue
		}
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		y, err := toYAML(doc.Root, 0, "root", &oracleShare{uses: uses(doc.Root), first: map[*Node]*yaml.Node{}})
		if err != nil {
			t.Fatal(err)
		}
		if !chunkable(y) {
			continue
		}
		var chunked, whole bytes.Buffer
		if err := emitBlock(&chunked, y, ""); err != nil {
			t.Fatal(err)
		}
		if err := encodeIndented(&whole, y, ""); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(chunked.Bytes(), whole.Bytes()) {
			a, b := chunked.String(), whole.String()
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			t.Fatalf("%s: chunked text differs at byte %d: %q vs %q", f.name, i, a[max(0, i-40):min(len(a), i+40)], b[max(0, i-40):min(len(b), i+40)])
		}
		n++
	}
	if n < 5 {
		t.Fatalf("only %d documents were large enough to chunk", n)
	}
}

// TestTextNaN: a NaN's sign and payload do not survive the text forms; it reads back as the
// default quiet NaN.
func TestTextNaN(t *testing.T) {
	root := NewArray(&Node{Kind: Float, Bits: 0xFFC00001}, &Node{Kind: Double, Bits: 0xFFF8000000000001})
	want := NewArray(&Node{Kind: Float, Bits: 0x7FC00000}, &Node{Kind: Double, Bits: 0x7FF8000000000000})
	y, err := NodeToYAML(root)
	if err != nil {
		t.Fatal(err)
	}
	back, err := NodeFromYAML(y)
	if err != nil || !Equal(back, want) {
		t.Fatalf("YAML: %v %+v %+v", err, back.Items[0], back.Items[1])
	}
	j, err := (&Document{Version: 7, Root: root}).ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := FromJSON(j)
	if err != nil || !Equal(doc.Root, want) {
		t.Fatalf("JSON: %v", err)
	}
	if !Equal(quietNaNs(root), want) {
		t.Fatal("quietNaNs does not give the text forms' NaNs")
	}
	// Tagged NaNs spelled as strconv reads them (not YAML's .nan) are the same quiet NaN:
	// FuzzYAML found "!f64 nan" reading as math.NaN's bits (testdata/fuzz/FuzzYAML/153c115808de086b).
	back, err = NodeFromYAML([]byte("[!f64 nan, !f64 NaN, !f nan, !f64 .nan]"))
	want = NewArray(NewDouble(quietNaN), NewDouble(quietNaN), &Node{Kind: Float, Bits: 0x7FC00000}, NewDouble(quietNaN))
	if err != nil || !Equal(back, want) {
		t.Fatalf("tagged nan: %v %+v", err, back)
	}
}

// quietNaNs returns a copy of n with every NaN replaced by the NaN the text forms read.
func quietNaNs(n *Node) *Node {
	c := n.Clone()
	walk(c, func(m *Node) {
		switch {
		case m.Kind == Float && math.IsNaN(float64(m.FloatValue())):
			m.Bits = uint64(math.Float32bits(float32(quietNaN)))
		case m.Kind == Double && math.IsNaN(m.DoubleValue()):
			m.Bits = math.Float64bits(quietNaN)
		}
	})
	return c
}

// A file node's alignment must be a power of two, as the writers require: FuzzYAML found one
// of 66 that read and then could not be written (testdata/fuzz/FuzzYAML/b042bf93fae38129).
func TestYAMLFileAlignment(t *testing.T) {
	_, err := FromYAML([]byte("f: !!file {Alignment: 66, Data: !!binary AAAA}"))
	if err == nil || !strings.Contains(err.Error(), "!!file alignment 66 is not a power of two") {
		t.Fatalf("got %v", err)
	}
	doc, err := FromYAML([]byte("f: !!file {Alignment: 64, Data: !!binary AAAA}"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.BytesCanonical(); err != nil {
		t.Fatal(err)
	}
}

// TestYAMLErrorPlace checks that the reader's errors carry line, column and path.
func TestYAMLErrorPlace(t *testing.T) {
	_, err := FromYAML([]byte("a: 1\nb:\n  - x\n  - {c: !nonsense 5}\n"))
	var e *yamltext.Error
	if !errors.As(err, &e) || e.Line != 4 || e.Column != 9 || e.Path != "b/1/c" {
		t.Fatalf("%#v", err)
	}
	if want := "byml: yaml: line 4 column 9 (at b/1/c): "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %s\nwant %s…", err, want)
	}
	_, err = FromYAML([]byte("a: [1\n"))
	if !errors.As(err, &e) || e.Line != 1 || e.Path != "" {
		t.Fatalf("parse error: %#v", err)
	}
}
