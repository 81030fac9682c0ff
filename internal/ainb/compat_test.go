package ainb

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testcorpus"
)

// Bad community JSON is rejected with the path of the offending value.
func TestCompatJSONErrors(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "kitchen_sink_v407.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(base)
	replace := func(old, new string) string {
		if !strings.Contains(doc, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(doc, old, new, 1)
	}
	tests := []struct {
		name, json, want string
	}{
		{"syntax", `{"Version": 1031,`, "ainb: invalid JSON at line 1, column 18: want a member name in double quotes, found the end of the text"},
		{"not an object", `[1, 2]`, ": want an object, got an array"},
		{"version", `{"Version": 1030}`, "Version: unsupported version 1030 (want 1028, 1031 or 1032: 0x404, 0x407 or 0x408)"},
		{"category", replace(`"Category": "AI"`, `"Category": "Robots"`), `Category: unknown category "Robots" (want AI, Logic, Sequence, UniqueSequence or UniqueSequenceSPL)`},
		{"input source", replace(`"Name": "In0",
              "Default Value": 0,
              "Node Index": 1,`, `"Name": "In0",
              "Default Value": 0,
              "Node Index": 4000,`), "Nodes[2].Parameters.Inputs.Int[0].Node Index: 4000 out of range (29 nodes)"},
		{"node type", replace(`"Node Type": "Element_Sequential"`, `"Node Type": "Element_Sideways"`), `Nodes[0].Node Type: unknown node type "Element_Sideways"`},
		{"int range", replace(`"Default Value": -2147483648`, `"Default Value": -2147483649`), "Blackboard.S32[1].Default Value: -2147483649 out of range -2147483648..2147483647"},
		{"guid", replace(`"GUID": "5eed001e-0000-4000-801e-000000000000"`, `"GUID": "nope"`), `Nodes[0].GUID: "nope" is not a GUID like 01234567-89ab-cdef-0123-456789abcdef`},
		{"missing key", replace(`"Name": "c0"`, `"Nom": "c0"`), `Nodes[0].Plugs.Child[0]: missing key "Name"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCompatJSON([]byte(tc.json))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestPyFloat(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{1, "1.0"}, {0.75, "0.75"}, {-3.5, "-3.5"}, {1e-05, "1e-05"}, {65536, "65536.0"}, {1e16, "1e+16"},
		{float64(float32(0.1)), "0.10000000149011612"}, {0.0001, "0.0001"}} {
		if got := PyFloat(tc.in); got != tc.want {
			t.Errorf("PyFloat(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzReadCompatJSON: no document makes the loader or the writer panic, and whatever builds
// reads back.
func FuzzReadCompatJSON(f *testing.F) {
	for _, path := range testcorpus.AINB(f) {
		b, err := os.ReadFile(strings.TrimSuffix(path, ".ainb") + ".json")
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkLoaded(t, ReadCompatJSON, b) })
}

// appendJSONString writes what encoding/json would, HTML characters aside: both read back to
// the same string, for tricky and for random bytes.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", `quote " backslash \ `, "<a&b>", "tab\tnl\nc\r\x00\x1f\x7f", "日本語メモ",
		"bad \xff utf8 \xc3", "\u2028 \u2029", "その他"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		var got, want string
		if err := json.Unmarshal(jsontext.AppendString(nil, s), &got); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		std, _ := json.Marshal(s)
		json.Unmarshal(std, &want)
		if got != want {
			t.Fatalf("%q reads back as %q, encoding/json gives %q", s, got, want)
		}
	}
	if got := string(jsontext.AppendString(nil, "<a&b>")); got != `"<a&b>"` {
		t.Fatalf("HTML characters escaped: %s", got)
	}
}

// A selector plug that reads its case from the blackboard must name the parameter: the
// document is refused at the plug, naming the key, as for any other required member.
func TestCompatJSONBlackboardCaseNeedsIndex(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "random", "random_s12_v408_n75.json"))
	if err != nil {
		t.Fatal(err)
	}
	const old = `"Name": "w3",
            "Blackboard Index": 0,`
	if !strings.Contains(string(doc), old) {
		t.Fatalf("fixture lacks %q", old)
	}
	_, err = ReadCompatJSON([]byte(strings.Replace(string(doc), old, `"Name": "w3",`, 1)))
	var pe *PathError
	if !errors.As(err, &pe) || !strings.HasSuffix(pe.Error(), `: missing key "Blackboard Index"`) || !strings.HasPrefix(pe.Path, "Nodes[") {
		t.Fatalf("got %v, want a PathError at the plug for the missing blackboard index", err)
	}
}
