package byml

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"ainbeditor/internal/jsontext"
)

func TestCorpusJSONRoundTrip(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		text, err := doc.ToJSON()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !json.Valid(text) {
			t.Fatalf("%s: ToJSON wrote invalid JSON", f.name)
		}
		back, err := FromJSON(text)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if p := diffPath(back.Root, doc.Root, "root"); p != "" || back.Version != doc.Version || back.BigEndian != doc.BigEndian {
			t.Fatalf("%s: JSON round trip differs at %q (version %d/%d)", f.name, p, back.Version, doc.Version)
		}
	}
}

func TestJSONScalars(t *testing.T) {
	root := NewArray(
		NewNull(), NewString("a\"b\n日本"), NewBool(true), NewBool(false),
		NewInt(math.MinInt32), NewUInt(math.MaxUint32),
		NewInt64(math.MinInt64), NewUInt64(math.MaxUint64),
		NewFloat(0.1), NewFloat(float32(math.Copysign(0, -1))), NewFloat(float32(math.Inf(1))),
		NewDouble(quietNaN), NewDouble(math.Inf(-1)), NewDouble(1e300),
		NewBinary([]byte{0, 0xFF}), NewFile([]byte("abc"), 8), NewArray(), NewHash(),
	)
	hm := &Node{Kind: HashMap32}
	hm.SetHash(math.MaxUint32, NewInt(1))
	hm64 := &Node{Kind: HashMap64}
	hm64.SetHash(math.MaxUint64, NewInt(2))
	h := NewHash()
	h.Set("z", NewInt(1))
	h.Set("123", NewInt(2))
	root.Items = append(root.Items, hm, hm64, h)
	doc := &Document{Version: 7, BigEndian: true, Root: root}
	text, err := doc.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"version":7,"bigEndian":true,"root":{"type":"array","value":[{"type":"null"},`,
		`{"type":"int64","value":"-9223372036854775808"}`, `{"type":"uint64","value":"18446744073709551615"}`,
		`{"type":"float","value":0.1}`, `{"type":"float","value":-0}`, `{"type":"float","value":"inf"}`,
		`{"type":"double","value":"nan"}`, `{"type":"binary","value":"AP8="}`,
		`{"type":"file","value":{"align":8,"data":"YWJj"}}`,
		`{"type":"hashmap32","value":[[4294967295,{"type":"int","value":1}]]}`,
		`{"type":"hashmap64","value":[["18446744073709551615",{"type":"int","value":2}]]}`,
		`{"type":"hash","value":[["123",{"type":"int","value":2}],["z",{"type":"int","value":1}]]}`,
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("JSON lacks %s:\n%s", want, text)
		}
	}
	back, err := FromJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	if p := diffPath(back.Root, root, "root"); p != "" || back.Version != 7 || !back.BigEndian {
		t.Fatalf("round trip differs at %s", p)
	}
}

func TestJSONRejects(t *testing.T) {
	for _, bad := range []string{
		``, `{`, `[]`, `{"root":{"type":"int","value":1}}`,
		`{"root":{"type":"array","value":[{"value":1,"type":"int"}]}}`,
		`{"root":{"type":"array","value":[{"type":"nope","value":1}]}}`,
		`{"root":{"type":"array","value":[{"type":"int","value":2147483648}]}}`,
		`{"root":{"type":"array","value":[{"type":"uint","value":-1}]}}`,
		`{"root":{"type":"array","value":[{"type":"binary","value":"%%"}]}}`,
		`{"root":{"type":"hash","value":[["a",{"type":"null"}],["a",{"type":"null"}]]}}`,
		`{"root":{"type":"hashmap32","value":[[4294967296,{"type":"null"}]]}}`,
		`{"root":{"type":"array","value":[]}} x`,
		`{"root":{"type":"array","value":[{"type":"int"}]}}`,
		`{"version":70000,"root":null}`,
		`{"root":{"type":"file","value":{"align":1}}}`,
		`{"root":{"type":"array","value":[{"type":"file","value":{"align":66,"data":"AAAA"}}]}}`,
		`{"extra":1}`,
		strings.Repeat(`{"root":{"type":"array","value":[`, 1) + strings.Repeat(`{"type":"array","value":[`, maxDepth+1),
	} {
		if _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("%.80s: no error", bad)
		}
	}
	doc, err := FromJSON([]byte(`{"version":3,"root":null}`))
	if err != nil || doc.Root != nil || doc.Version != 3 {
		t.Fatalf("empty document: %+v, %v", doc, err)
	}
}

// TestJSONErrorPositions checks that errors say where: syntax errors as jsontext's, the
// others with the line and column where reading stopped, and both with the path in the tree
// of the node being read.
func TestJSONErrorPositions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"root\":{\"type\":\"array\",\n\"value\":[}", "byml: invalid JSON at line 2, column 10 (in /0): want '{', found '}'"},
		{"{\"root\":{\"type\":\"array\",\"value\":[{\"type\":\"nope\"", `byml: json at line 1, column 48 (in /0): unknown node type "nope"`},
		{`{"root":{"type":"hash","value":[["Actors",{"type":"array","value":[{"type":"int","value":1},{"type":"int","value":"x"}]}]]}}`, `byml: json at line 1, column 118 (in /Actors/1): "x" is not a signed 32-bit integer`},
		{"{\n\"extra\":1}", `byml: json at line 2, column 9: unknown document field "extra"`},
		{`{"root":{"type":"string","value":"\x"}}`, `byml: invalid JSON at line 1, column 36: invalid escape \x in a string`},
	} {
		_, err := FromJSON([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
	var fe *jsontext.FormError
	_, err := FromJSON([]byte(`{"root":{"type":"hash","value":[["Actors",{"type":"array","value":[{"type":"int","value":1},{"type":"int","value":"x"}]}]]}}`))
	if !errors.As(err, &fe) || fe.Reader != "byml" || fe.Path != "/Actors/1" || fe.Line != 1 || fe.Column != 118 || fe.Offset != 117 {
		t.Errorf("form error %+v", fe)
	}
	_, err = FromJSON([]byte(`{"root":[`))
	var se *jsontext.SyntaxError
	if !errors.As(err, &se) || se.Offset != 8 || se.Line != 1 || se.Column != 9 {
		t.Errorf("syntax error: %#v", err)
	}
}

// TestJSONStringsLikeEncodingJSON decodes escaped strings with the hand-written reader and
// with encoding/json, which must agree.
func TestJSONStringsLikeEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u65e5"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`,
		`"\ud83d\u0041"`, `"日本"`, `""`,
	} {
		var want string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		r := &jsonReader{s: jsontext.Scanner{Data: []byte(s)}}
		got, err := r.str()
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", s, got, err, want)
		}
	}
	for _, bad := range []string{`"abc`, "\"a\x01\"", `"\x"`, `"\u12"`, "\"\xff\""} {
		r := &jsonReader{s: jsontext.Scanner{Data: []byte(bad)}}
		if _, err := r.str(); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzJSON(f *testing.F) {
	for _, c := range corpusFiles(f) {
		if len(c.data) > fuzzSeedMax {
			continue
		}
		if doc, err := Read(c.data); err == nil {
			if j, err := doc.ToJSON(); err == nil {
				f.Add(j)
			}
		}
	}
	for _, s := range []string{
		`{"root":null}`, `{"version":7,"bigEndian":true,"root":{"type":"array","value":[{"type":"null"}]}}`,
		`{"root":{"type":"hash","value":[["b",{"type":"float","value":"nan"}],["a",{"type":"double","value":-0}]]}}`,
		`{"root":{"type":"hashmap64","value":[["1",{"type":"file","value":{"align":4,"data":"AA=="}}]]}}`,
		`{"root":{"type":"array","value":[{"type":"string","value":"\ud83d\ude00\n"}]}}`,
		// Shared nodes (id, ref) and a kept-order hash.
		`{"root":{"type":"array","value":[{"type":"array","id":0,"value":[{"type":"int64","id":1,"value":"5"}]},{"ref":0},{"ref":1}]}}`,
		`{"root":{"type":"array","id":0,"value":[{"ref":0}]}}`,
		`{"root":{"type":"hash","unsorted":true,"value":[["b",{"type":"null"}],["a",{"type":"null"}],["a",{"type":"null"}]]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var (
			doc *Document
			err error
		)
		allocated(t, "FromJSON", len(text), jsonAllocPerByte, 0, func() { doc, err = FromJSON(text) })
		if err != nil {
			return
		}
		out, err := doc.ToJSON()
		if err != nil {
			t.Fatalf("ToJSON of a document FromJSON accepted: %v", err)
		}
		if len(out) > textPerByte*len(text)+slack {
			t.Fatalf("JSON is %d bytes from %d", len(out), len(text))
		}
		back, err := FromJSON(out)
		if err != nil {
			t.Fatalf("own JSON does not read back: %v\n%s", err, out)
		}
		if p := diffPath(back.Root, doc.Root, "root"); p != "" || back.Version != doc.Version || back.BigEndian != doc.BigEndian {
			t.Fatalf("JSON round trip differs at %q", p)
		}
		if doc.Version >= 2 && doc.Version <= 7 {
			bin, err := doc.BytesCanonical()
			if err != nil {
				if strings.Contains(err.Error(), "contains NUL") {
					return
				}
				t.Fatalf("canonical write of a JSON document: %v", err)
			}
			if len(bin) > binaryPerByte*len(text)+slack {
				t.Fatalf("binary is %d bytes from %d of JSON", len(bin), len(text))
			}
			b2, err := Read(bin)
			if err != nil {
				t.Fatalf("binary does not read back: %v", err)
			}
			if p := diffPath(b2.Root, doc.Root, "root"); p != "" {
				t.Fatalf("binary reads back different at %s", p)
			}
		}
	})
}
