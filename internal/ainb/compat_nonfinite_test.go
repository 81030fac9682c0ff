package ainb

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testcorpus"
)

// Float bits the non-finite tests place: NaNs of several payloads and signs, the infinities,
// negative zero and an ordinary value.
const (
	bitsNaN     = 0x7fc00000
	bitsNegNaN  = 0xffc00000
	bitsNaNLoad = 0x7f800001 // a signalling NaN with a payload
	bitsInf     = 0x7f800000
	bitsNegInf  = 0xff800000
	bitsNegZero = 0x80000000
	bitsOne     = 0x3f800000
)

func f32bits(b uint32) F32 { return F32(math.Float32frombits(b)) }

// compatBits is what a float's bits become through the community JSON: Python keeps no NaN
// payload or sign, so every NaN comes back as the quiet NaN 0x7fc00000.
func compatBits(b uint32) uint32 {
	if math.IsNaN(float64(math.Float32frombits(b))) {
		return quietNaN
	}
	return b
}

// nonFiniteFile holds NaN, infinities and -0 in float and vector properties (of an element
// and of an attachment), in input defaults, in blackboard defaults and in F32 selector plugs.
func nonFiniteFile() *File {
	f := &File{Version: Version407, Filename: "NonFinite", Category: "AI", HasSection6C: true,
		Replacement: &ReplacementTable{}}
	f.Commands = []Command{{Name: "Main", Root: 0, Secondary: -1}}
	root := Element{Type: Sequential, Name: "Root", Flags: FlagResidentInit}
	root.Plugs.Set(PlugChild, []Plug{{Node: 1, Name: "leaf"}, {Node: 2, Name: "select"}})
	leaf := Element{Name: "Leaf", Attachments: []int{0}}
	leaf.Properties.Set(ParamFloat, []Property{
		{Name: "P0", Value: Value{Float: f32bits(bitsNaN)}},
		{Name: "P1", Value: Value{Float: f32bits(bitsNegNaN)}},
		{Name: "P2", Value: Value{Float: f32bits(bitsNaNLoad)}},
		{Name: "P3", Value: Value{Float: f32bits(bitsInf)}},
		{Name: "P4", Value: Value{Float: f32bits(bitsNegInf)}},
		{Name: "P5", Value: Value{Float: f32bits(bitsNegZero)}},
		{Name: "P6", Value: Value{Float: f32bits(bitsOne)}},
	})
	leaf.Properties.Set(ParamVec3f, []Property{
		{Name: "V0", Value: Value{Vec: Vec3f{f32bits(bitsNaN), f32bits(bitsNegInf), f32bits(bitsNegZero)}}},
	})
	leaf.Inputs.Set(ParamFloat, []Input{
		{Name: "I0", Source: Source{Node: -1}, Value: Value{Float: f32bits(bitsInf)}},
		{Name: "I1", Source: Source{Node: -1}, Value: Value{Float: f32bits(bitsNegNaN)}},
		{Name: "I2", Source: Source{Node: -1}, Value: Value{Float: f32bits(bitsNegZero)}},
	})
	leaf.Inputs.Set(ParamVec3f, []Input{
		{Name: "IV0", Source: Source{Node: -1}, Value: Value{Vec: Vec3f{f32bits(bitsInf), f32bits(bitsNaN), f32bits(bitsNegZero)}}},
	})
	sel := Element{Type: F32Selector, Name: "Select"}
	sel.Plugs.Set(PlugChild, []Plug{
		{Node: 1, Name: "range", Float: f32bits(bitsNegInf), MaxFloat: f32bits(bitsInf)},
		{Node: 1, Name: "nan", Float: f32bits(bitsNaN), MaxFloat: f32bits(bitsNegZero)},
		{Node: 1, Name: "Default"},
	})
	f.Elements = []Element{root, leaf, sel}
	att := Attachment{Name: "Att"}
	att.Properties.Set(ParamFloat, []Property{{Name: "AP0", Value: Value{Float: f32bits(bitsNegInf)}}})
	f.Attachments = []Attachment{att}
	f.Blackboard.Params[BBF32] = []BlackboardParam{
		{Name: "B0", Value: Value{Float: f32bits(bitsNaN)}},
		{Name: "B1", Value: Value{Float: f32bits(bitsInf)}},
		{Name: "B2", Value: Value{Float: f32bits(bitsNegInf)}},
		{Name: "B3", Value: Value{Float: f32bits(bitsNegZero)}},
	}
	f.Blackboard.Params[BBVec3f] = []BlackboardParam{
		{Name: "BV0", Value: Value{Vec: Vec3f{f32bits(bitsNegNaN), f32bits(bitsInf), f32bits(bitsNegZero)}}},
	}
	return f
}

// nonFiniteFloats lists every float nonFiniteFile places, by where it is, as bits.
func nonFiniteFloats(f *File) map[string]uint32 {
	m := map[string]uint32{}
	put := func(k string, v F32) { m[k] = math.Float32bits(float32(v)) }
	vec := func(k string, v Vec3f) {
		for i, x := range v {
			put(k+"["+string(rune('0'+i))+"]", x)
		}
	}
	for i := range f.Elements {
		e := &f.Elements[i]
		for _, p := range e.Properties.Of(ParamFloat) {
			put(e.Name+".prop."+p.Name, p.Value.Float)
		}
		for _, p := range e.Properties.Of(ParamVec3f) {
			vec(e.Name+".prop."+p.Name, p.Value.Vec)
		}
		for _, in := range e.Inputs.Of(ParamFloat) {
			put(e.Name+".in."+in.Name, in.Value.Float)
		}
		for _, in := range e.Inputs.Of(ParamVec3f) {
			vec(e.Name+".in."+in.Name, in.Value.Vec)
		}
		if e.Type == F32Selector {
			ps := e.Plugs.Of(PlugChild)
			for _, p := range ps[:len(ps)-1] {
				put(e.Name+".plug."+p.Name+".min", p.Float)
				put(e.Name+".plug."+p.Name+".max", p.MaxFloat)
			}
		}
		for _, a := range e.Attachments {
			for _, p := range f.Attachments[a].Properties.Of(ParamFloat) {
				put(e.Name+".att."+p.Name, p.Value.Float)
			}
		}
	}
	for _, p := range f.Blackboard.Params[BBF32] {
		put("bb."+p.Name, p.Value.Float)
	}
	for _, p := range f.Blackboard.Params[BBVec3f] {
		vec("bb."+p.Name, p.Value.Vec)
	}
	return m
}

// The compat dump writes non-finite floats as Python's json module does (NaN, Infinity,
// -Infinity; -0.0 for negative zero), and reading it back and building gives the same floats:
// every NaN as 0x7fc00000, everything else bit for bit.
func TestCompatJSONNonFinite(t *testing.T) {
	f := nonFiniteFile()
	bin, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	f, err = Read(bin)
	if err != nil {
		t.Fatal(err)
	}
	placed := nonFiniteFloats(f)
	if len(placed) != 28 {
		t.Fatalf("the test file holds %d floats, want 28", len(placed))
	}
	js, err := f.CompatJSON()
	if err != nil {
		t.Fatal(err)
	}

	// Every float is a value of its own line ("key": value or an array element), so the
	// tokens can be counted.
	want := map[string]int{}
	for _, b := range placed {
		want[PyFloat(float64(math.Float32frombits(b)))]++
	}
	got := map[string]int{}
	lineValue := regexp.MustCompile(`(?m)^ *(?:"[^"]*": )?(NaN|Infinity|-Infinity|-?[0-9][0-9.e+-]*),?$`)
	for _, m := range lineValue.FindAllSubmatch(js, -1) {
		if tok := string(m[1]); strings.ContainsAny(tok, ".NI") {
			got[tok]++
		}
	}
	for _, tok := range []string{"NaN", "Infinity", "-Infinity", "-0.0", "1.0"} {
		if got[tok] != want[tok] || want[tok] == 0 {
			t.Errorf("%d %s tokens in the dump, want %d", got[tok], tok, want[tok])
		}
	}
	for _, s := range []string{`"Default Value": NaN,`, `"Default Value": Infinity,`, `"Default Value": -Infinity,`,
		`"Default Value": -0.0,`, `"Condition Min": -Infinity,`, `"Condition Max": Infinity` + "\n"} {
		if !bytes.Contains(js, []byte(s)) {
			t.Errorf("dump lacks %q", s)
		}
	}
	if t.Failed() {
		t.Fatalf("dump:\n%s", js)
	}

	g, err := ReadCompatJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	bin2, err := g.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Read(bin2)
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]*File{"loaded": g, "built": h} {
		back := nonFiniteFloats(file)
		for k, b := range placed {
			if back[k] != compatBits(b) {
				t.Errorf("%s %s: %#08x, want %#08x (placed %#08x)", name, k, back[k], compatBits(b), b)
			}
		}
		if len(back) != len(placed) {
			t.Errorf("%s: %d floats, want %d", name, len(back), len(placed))
		}
	}
	js2, err := h.CompatJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, js2) {
		t.Errorf("the built file dumps differently:\n%s", js2)
	}

	// Python's json module reads the dump, and writes it back the same.
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the check that Python's json module reads the dump was skipped")
	}
	cmd := exec.Command("python3", "-c", `import json,sys
d = json.load(sys.stdin)
sys.stdout.write(json.dumps(d, indent=2, ensure_ascii=False) + "\n")`)
	cmd.Stdin = bytes.NewReader(js)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3's json.load rejects the dump: %v\n%s", err, stderr.Bytes())
	}
	if !bytes.Equal(out, js) {
		t.Fatalf("python3 writes the dump back differently:\n%s", out)
	}
}

// The compat dump is the text json.Indent makes of the compact dump, for every corpus file
// (which are all finite).
func TestCompatJSONIndentation(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		_, f := readCorpus(t, path)
		got, err := f.CompatJSON()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		v, err := f.compat()
		if err != nil {
			t.Fatal(err)
		}
		want, err := indentJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the dump differs from json.Indent's: %s", filepath.Base(path), firstDiff(want, got))
		}
	}
}

// Non-finite values are read where floats belong and refused anywhere else, with the path.
func TestReadCompatJSONNonFiniteErrors(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "kitchen_sink_v407.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(base)
	replace := func(old, new string) string {
		t.Helper()
		if !strings.Contains(doc, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(doc, old, new, 1)
	}
	for _, tc := range []struct{ name, json, want string }{
		{"version", replace(`"Version": 1031`, `"Version": Infinity`), "Version: want an integer, got Infinity"},
		{"int default", replace(`"Default Value": -2147483648`, `"Default Value": NaN`), "Blackboard.S32[1].Default Value: want an integer, got NaN"},
		{"name", replace(`"Name": "c0"`, `"Name": -Infinity`), "Nodes[0].Plugs.Child[0].Name: want a string, got -Infinity"},
		{"node index", replace(`"Root Node Index": 0`, `"Root Node Index": NaN`), "Commands[0].Root Node Index: want an integer, got NaN"},
		{"guid", replace(`"GUID": "5eed001e-0000-4000-801e-000000000000"`, `"GUID": NaN`), "Nodes[0].GUID: want a string, got NaN"},
		{"expressions", replace(`"Expression Index": 0,`, `"Expression Index": NaN,`), "Expressions.Expressions[0].Expression Index: want a string, number, boolean, array or object, got NaN"},
		{"lowercase", replace(`"Version": 1031`, `"Version": nan`), "ainb: invalid JSON at line 2, column 15: invalid literal: want null, found 'a'"},
		{"plus", replace(`"Version": 1031`, `"Version": +Infinity`), "ainb: invalid JSON at line 2, column 14: want a value, found '+'"},
		{"minus NaN", replace(`"Version": 1031`, `"Version": -NaN`), "ainb: invalid JSON at line 2, column 15: invalid number: want a digit, found 'N'"},
		{"short", replace(`"Version": 1031`, `"Version": Inf`), "ainb: invalid JSON at line 2, column 17: invalid literal: want Infinity, found ','"},
		{"quoted", replace(`"Version": 1031`, `"Version": "NaN"`), `Version: want an integer, got "NaN"`},
		{"trailing", doc + "NaN", "ainb: invalid JSON at line 2979, column 2: text after the document: 'N'"},
		{"end", `{"Version": -Infin`, "ainb: invalid JSON at line 1, column 19: invalid literal: want Infinity, found the end of the text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCompatJSON([]byte(tc.json))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
			var pe *PathError
			if !strings.HasPrefix(tc.want, "ainb: invalid JSON") && !errors.As(err, &pe) {
				t.Fatalf("%T is not a *PathError", err)
			}
		})
	}
	// Where the reference applies Python's bool(), NaN and the infinities are true as any
	// non-zero number is.
	f, err := ReadCompatJSON([]byte(replace(`"Has Section 0x6C": true`, `"Has Section 0x6C": NaN`)))
	if err != nil || !f.HasSection6C {
		t.Fatalf("NaN as a boolean: %v", err)
	}
	// Where a float belongs, all three read.
	for tok, bits := range map[string]uint32{"NaN": quietNaN, "Infinity": bitsInf, "-Infinity": bitsNegInf} {
		f, err := ReadCompatJSON([]byte(replace(`"Name": "F0",
            "Default Value": 0.0,`, `"Name": "F0",
            "Default Value": `+tok+`,`)))
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		var got uint32
		for _, e := range f.Elements {
			for _, p := range e.Properties.Of(ParamFloat) {
				if p.Name == "F0" {
					got = math.Float32bits(float32(p.Value.Float))
				}
			}
		}
		if got != bits {
			t.Fatalf("%s read as %#08x, want %#08x", tok, got, bits)
		}
	}
}

// checkPyJSON holds parsePyJSON to encoding/json (with UseNumber) on documents without
// NaN or infinities: it accepts the same documents and decodes them to the same values.
func checkPyJSON(t *testing.T, data []byte) {
	v, err := parsePyJSON(data)
	valid := json.Valid(data)
	if err != nil {
		var pe *jsontext.SyntaxError
		if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(data) {
			t.Fatalf("%q: error %v has no offset in the document", data, err)
		}
		if valid {
			t.Fatalf("%q: rejected (%v), but encoding/json accepts it", data, err)
		}
		return
	}
	if hasPyConst(v) {
		if valid {
			t.Fatalf("%q: read a NaN or infinity, but encoding/json accepts it", data)
		}
		return
	}
	if !valid {
		t.Fatalf("%q: accepted, but encoding/json rejects it", data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("%q: read %#v, encoding/json %#v", data, v, want)
	}
}

func hasPyConst(v any) bool {
	switch v := v.(type) {
	case pyConst:
		return true
	case []any:
		for _, x := range v {
			if hasPyConst(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if hasPyConst(x) {
				return true
			}
		}
	}
	return false
}

var pyJSONCases = []string{
	``, ` `, `null`, `true`, `false`, `tru`, `nul`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`,
	`-1.25e+300`, `1e999`, `.5`, `+1`, `[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{ }`, `{"a":1,}`,
	`{"a" 1}`, `{a:1}`, `{"a":1,"a":2}`, `{"a":1}x`, `{"a":1} `, `"\u00e9\ud83d\ude00"`, `"\ud83d"`,
	`"\ude00\ud83d x"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`,
	"\"a\x00b\"", "\"a\x7fb\"", "\"\xff\xfe\"", "\"\xc3\"", "\"\xe6\x97\xa5\"", "\"\xed\xa0\x80\"", "\xef\xbb\xbf{}",
	`"unterminated`, `"\`, `[NaN, Infinity, -Infinity]`, `NaN`, `-Infinity`, `[-Inf]`, `[nan]`, `{"k": NaN}`,
	"\t[\r\n1\n]\n", `[[[[]]]]`, `[{"a":[{"b":null}]}]`, `{"":""}`, `[1e-400, -0.0, 123456789012345678901234567890]`,
}

func TestParsePyJSON(t *testing.T) {
	cases := pyJSONCases
	cases = append(cases, strings.Repeat("[", maxJSONDepth)+strings.Repeat("]", maxJSONDepth),
		strings.Repeat("[", maxJSONDepth+1)+strings.Repeat("]", maxJSONDepth+1),
		strings.Repeat(`{"a":`, maxJSONDepth+1)+"1"+strings.Repeat("}", maxJSONDepth+1))
	for _, c := range cases {
		checkPyJSON(t, []byte(c))
	}
	// Mutations of small corpus documents: flipped, inserted and deleted bytes, and cuts.
	var docs [][]byte
	for _, path := range testcorpus.AINB(t) {
		if b, err := os.ReadFile(strings.TrimSuffix(path, ".ainb") + ".json"); err == nil && len(b) < 8<<10 {
			docs = append(docs, b)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("{}[],:\"\\ \n0-1.eE+uNaIfity\x00\xff")
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		b := bytes.Clone(docs[r.IntN(len(docs))])
		for range 1 + r.IntN(3) {
			i := r.IntN(len(b))
			switch r.IntN(4) {
			case 0:
				b[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			case 2:
				b = append(b[:i], b[i+1:]...)
			default:
				b = b[:i]
			}
			if len(b) == 0 {
				break
			}
		}
		checkPyJSON(t, b)
	}
}

func FuzzParsePyJSON(f *testing.F) {
	for _, c := range pyJSONCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkPyJSON)
}

func TestPyFloatNonFinite(t *testing.T) {
	for bits, want := range map[uint32]string{bitsNaN: "NaN", bitsNegNaN: "NaN", bitsNaNLoad: "NaN",
		bitsInf: "Infinity", bitsNegInf: "-Infinity", bitsNegZero: "-0.0", 0: "0.0"} {
		if got := PyFloat(float64(math.Float32frombits(bits))); got != want {
			t.Errorf("PyFloat(%#08x) = %s, want %s", bits, got, want)
		}
	}
}

func BenchmarkCompatJSON(b *testing.B) {
	f, err := Read(corpusFile(b, benchFile))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.CompatJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadCompatJSON(b *testing.B) {
	data := corpusFile(b, strings.TrimSuffix(benchFile, ".ainb")+".json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadCompatJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

// indentJSON marshals v with two-space indentation and without HTML escaping.
func indentJSON(v any) ([]byte, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
