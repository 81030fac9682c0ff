package aamp

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yamltext"
)

// TestYAMLTextLikeYAMLv3 checks that the writer gives, for every corpus file, the text
// yaml.v3 gives for the yaml.Node tree the old writer built.
func TestYAMLTextLikeYAMLv3(t *testing.T) {
	files := corpusFiles(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pio, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := ToYAML(pio)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := oracleYAML(pio)
		if err != nil {
			t.Fatalf("%s: yaml.v3: %v", f, err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: text differs from yaml.v3's at byte %d: %q vs %q", f, i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
	if len(files) < 1800 {
		t.Fatalf("only %d corpus files", len(files))
	}
}

// TestCorpusYAML: binary -> YAML -> model must equal the binary's model, the model must
// write back to the original bytes, and dumping it again must give the same text.
func TestCorpusYAML(t *testing.T) {
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pio, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		y1, err := ToYAML(pio)
		if err != nil {
			t.Errorf("%s: ToYAML: %v", f, err)
			continue
		}
		pio2, err := FromYAML(y1)
		if err != nil {
			t.Errorf("%s: FromYAML of own dump: %v", f, err)
			continue
		}
		if d := diffIO(pio, pio2); d != "" {
			t.Errorf("%s: YAML round trip changed the model: %s", f, d)
			continue
		}
		bin, err := pio2.Bytes()
		if err != nil {
			t.Errorf("%s: write from YAML: %v", f, err)
		} else if !bytes.Equal(bin, data) {
			t.Errorf("%s: binary built from YAML differs from the file at %#x", f, firstDiff(bin, data))
		}
		y2, err := ToYAML(pio2)
		if err != nil {
			t.Errorf("%s: second ToYAML: %v", f, err)
		} else if !bytes.Equal(y1, y2) {
			t.Errorf("%s: YAML -> model -> YAML is not the identity", f)
		}
	}
}

func readCorpusYAML(t *testing.T, name string) *ParameterIO {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "aamp", "text", name))
	if err != nil {
		t.Fatal(err)
	}
	pio, err := FromYAML(text)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return pio
}

// TestCorpusYAMLDocuments checks the hand-written documents value by value, then that
// they survive binary and text round trips.
func TestCorpusYAMLDocuments(t *testing.T) {
	pio := readCorpusYAML(t, "roead_test.yml")
	if pio.Version != 10 || pio.Type != "oead_test" {
		t.Fatalf("header: version %d type %q", pio.Version, pio.Type)
	}
	tc := pio.Root.Object(NameOf("TestContent"))
	if tc == nil || len(tc.Params) != 28 {
		t.Fatalf("TestContent: %+v", tc)
	}
	curve := []Curve{{A: 1, B: 2}}
	for i := range curve[0].Floats {
		curve[0].Floats[i] = float32(i + 1)
	}
	want := []Parameter{
		{NameOf("Bool_0"), TypeBool, true},
		{NameOf("Bool_1"), TypeBool, false},
		{NameOf("F32_0"), TypeF32, float32(0)},
		{NameOf("F32_1"), TypeF32, float32(500.12)},
		{NameOf("F32_2"), TypeF32, float32(-1)},
		{NameOf("Vec2"), TypeVec2, Vec2{1.2, 5.1}},
		{NameOf("Vec3"), TypeVec3, Vec3{1.2, 5.1, 1.9}},
		{NameOf("Vec4"), TypeVec4, Vec4{1.1, 2.3, 3.5, 4.9}},
		{NameOf("Color"), TypeColor, Color{0.7, 0.8, 0.9, 1}},
		{NameOf("Str32_0"), TypeString32, "test32"},
		{NameOf("Str32_1"), TypeString32, "test string"},
		{NameOf("Str32_2"), TypeString32, "test32"},
		{NameOf("Str64"), TypeString64, "test64"},
		{NameOf("Curve1"), TypeCurve1, curve},
		{NameOf("BufferInt"), TypeBufferInt, []int32{1, 2, 3, 4, 5}},
		{NameOf("BufferF32"), TypeBufferF32, []float32{1, 2, 3, 4, 5}},
		{NameOf("Str256"), TypeString256, "test"},
		{NameOf("Str256_2"), TypeString256, "テスト"},
		{NameOf("Quat"), TypeQuat, Quat{1, 2, 3, 4}},
		{NameOf("U32"), TypeU32, uint32(0xffffffff)},
		{NameOf("U32_1"), TypeU32, uint32(0)},
		{NameOf("BufferU32"), TypeBufferU32, []uint32{1, 2, 0, 0xffffffff}},
		{NameOf("BufferBinary"), TypeBufferBinary, []byte{1, 2, 3, 4, 5, 6, 0xff, 1}},
		{NameOf("StringRef_0"), TypeStringRef, "テスト"},
		{NameOf("StringRef_1"), TypeStringRef, "strtest"},
		{NameOf("StringRef_2"), TypeStringRef, "fkisfj 2929 jdj"},
		{NameOf("StringRef_3"), TypeStringRef, "29103913"},
		{NameOf("0"), TypeStringRef, "quoted int key"},
	}
	for i, w := range want {
		if d := diffParam(&tc.Params[i], &w); d != "" {
			t.Errorf("param %d: %s", i, d)
		}
	}
	if o := pio.Root.Object(NameOf("1")); o == nil || len(o.Params) != 1 || o.Params[0].Name != NameOf("56") || o.Params[0].Value != "More quoted int keys" {
		t.Errorf(`object "1": %+v`, o)
	}
	empty := readCorpusYAML(t, "oead_test_empty_strings.yml").Root.Object(NameOf("TestContent"))
	for _, n := range []string{"Str64_empty", "Str64_empty2"} {
		if p := empty.Param(NameOf(n)); p == nil || p.Type != TypeString64 || p.Value != "" {
			t.Errorf("%s: %+v", n, p)
		}
	}

	for _, name := range []string{"oead_test.yml", "oead_test_empty_strings.yml", "roead_test.yml"} {
		pio := readCorpusYAML(t, name)
		bin, err := pio.Bytes()
		if err != nil {
			t.Fatalf("%s: write: %v", name, err)
		}
		back, err := Read(bin)
		if err != nil {
			t.Fatalf("%s: read back: %v", name, err)
		}
		if d := diffIO(pio, back); d != "" {
			t.Errorf("%s: binary round trip: %s", name, d)
		}
		y, err := ToYAML(pio)
		if err != nil {
			t.Fatal(err)
		}
		again, err := FromYAML(y)
		if err != nil {
			t.Fatalf("%s: reading own dump: %v\n%s", name, err, y)
		}
		if d := diffIO(pio, again); d != "" {
			t.Errorf("%s: text round trip: %s", name, d)
		}
		if !bytes.Contains(y, []byte("TestContent: !obj")) {
			t.Errorf("%s: dump lost the spelled-out name TestContent:\n%s", name, y)
		}
	}
}

func TestYAMLScalars(t *testing.T) {
	for _, c := range []struct {
		f    float32
		want string
	}{
		{0, "0.0"}, {float32(math.Copysign(0, -1)), "-0.0"}, {1, "1.0"}, {0.1, "0.1"},
		{1e30, "1.0e+30"}, {1.5e-7, "1.5e-07"}, {float32(math.Inf(1)), ".inf"},
		{float32(math.Inf(-1)), "-.inf"}, {float32(math.NaN()), ".nan"},
	} {
		if got := string(yamltext.AppendFloat(nil, float64(c.f), 32)); got != c.want {
			t.Errorf("AppendFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	doc := func(v string) string {
		return "!io\nversion: 0\ntype: xml\nparam_root: !list\n  objects:\n    O: !obj\n      P: " + v + "\n  lists: {}\n"
	}
	for _, c := range []struct {
		text string
		typ  Type
		val  any
	}{
		{"true", TypeBool, true},
		{"12", TypeInt, int32(12)},
		{"-12", TypeInt, int32(-12)},
		{"0x10", TypeInt, int32(16)},
		{"1.0e+30", TypeF32, float32(1e30)},
		{"-.inf", TypeF32, float32(math.Inf(-1))},
		{`"true"`, TypeStringRef, "true"},
		{`"12"`, TypeStringRef, "12"},
		{"1e5", TypeStringRef, "1e5"},
		{"!u 7", TypeU32, uint32(7)},
		{"!str256 '1.5'", TypeString256, "1.5"},
	} {
		pio, err := FromYAML([]byte(doc(c.text)))
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		p := pio.Root.Objects[0].Params[0]
		if d := diffParam(&p, &Parameter{NameOf("P"), c.typ, c.val}); d != "" {
			t.Errorf("%s: %s", c.text, d)
		}
		y, err := ToYAML(pio)
		if err != nil {
			t.Fatal(err)
		}
		back, err := FromYAML(y)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.text, err, y)
		}
		if d := diffIO(pio, back); d != "" {
			t.Errorf("%s: re-read: %s\n%s", c.text, d, y)
		}
	}
	for _, bad := range []string{"null", "!vec3 [1, 2]", "!curve [1, 2]", "!buffer_binary [256]", "!nope 1", "{a: 1}", "4294967296", `!str32 "` + strings.Repeat("x", 32) + `"`} {
		if _, err := FromYAML([]byte(doc(bad))); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := FromYAML([]byte("!io\nversion: 0\ntype: xml\nparam_root: &a !list\n  objects: {}\n  lists:\n    X: *a\n")); err == nil {
		t.Error("alias accepted")
	}
}

// TestYAMLFormat pins the exact text of a small document with every type.
func TestYAMLFormat(t *testing.T) {
	y, err := ToYAML(allTypesDoc())
	if err != nil {
		t.Fatal(err)
	}
	curve := func(i int) string {
		f := make([]string, 30)
		for j := range f {
			f[j] = "0.0"
		}
		f[i] = []string{"0.0", "1.0", "2.0", "3.0"}[i]
		return strings.Join(f, ", ")
	}
	want := `!io
version: 1
type: xml
param_root: !list
  objects:
    All: !obj
      1: true
      2: 1.5
      3: -3
      4: !vec2 [1.0, 2.0]
      5: !vec3 [1.0, 2.0, 3.0]
      6: !vec4 [1.0, 2.0, 3.0, 4.0]
      7: !color [1.0, 0.0, 0.0, 1.0]
      8: !str32 s32
      9: !str64 s64
      10: !curve [0, 0, ` + curve(0) + `]
      11: !curve [0, 0, ` + curve(0) + `, 1, 0, ` + curve(1) + `]
      12: !curve [0, 0, ` + curve(0) + `, 1, 0, ` + curve(1) + `, 2, 0, ` + curve(2) + `]
      13: !curve [0, 0, ` + curve(0) + `, 1, 0, ` + curve(1) + `, 2, 0, ` + curve(2) + `, 3, 0, ` + curve(3) + `]
      14: !buffer_int [1, -2]
      15: !buffer_f32 [1.0, 2.0]
      16: !str256 s256
      17: !quat [0.0, 0.0, 0.0, 1.0]
      18: !u 0x2
      19: !buffer_u32 [7]
      20: !buffer_binary [1, 2, 3]
      21: ref
  lists:
    9: !list
      objects: {}
      lists:
        10: !list
          objects: {}
          lists: {}
`
	if string(y) != want {
		t.Errorf("ToYAML:\n%s\nwant:\n%s", y, want)
	}
}

// TestPlainIsString: the shortcut agrees with resolvePlain.
func TestPlainIsString(t *testing.T) {
	for _, s := range []string{"", "a", "true", "True", "false", "null", "~", "1", "-1", "+1", "0x10",
		".5", "1.5", "1.2.3", ".inf", "-.inf", "+.INF", ".nan", "inf", "nan", "Infinity", "-", ".",
		"1e5", "1_0", "0b1", "0o7", "9223372036854775808", "18446744073709551616", "-abc", "Walk"} {
		_, want := resolvePlain(s).(string)
		want = want && s != ""
		if got := plainIsString(s); got != want {
			t.Errorf("plainIsString(%q) = %v, resolvePlain says %v", s, got, want)
		}
	}
}

// TestYAMLErrorPlace checks that the reader's errors carry line, column and path.
func TestYAMLErrorPlace(t *testing.T) {
	_, err := FromYAML([]byte("!io\nversion: 0\ntype: xml\nparam_root: !list\n  objects:\n    o: !obj {p: !vec3 [1, 2]}\n  lists: {}\n"))
	var e *yamltext.Error
	if !errors.As(err, &e) || e.Line != 6 || e.Path != "param_root/objects/o/p" {
		t.Fatalf("%#v", err)
	}
	if want := "aamp: yaml: line 6 column 17 (at param_root/objects/o/p): "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %s\nwant %s…", err, want)
	}
}
