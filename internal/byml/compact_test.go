package byml

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"ainbeditor/internal/jsontext"
)

// decodeCompact reads the compact form back into a tree, as the editor's page does
// (treemodel.js fromCompact): the tests' check that the form says exactly the document.
func decodeCompact(t testing.TB, text []byte) *Document {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var form struct {
		Version   uint16
		BigEndian bool
		Type      string
		Root      any
		Keys      []string
		Strings   []string
		Shapes    []any
	}
	if err := dec.Decode(&form); err != nil {
		t.Fatalf("compact form is not JSON: %v", err)
	}
	doc := &Document{Version: form.Version, BigEndian: form.BigEndian}
	if form.Root == nil {
		return doc
	}
	var defs []*Node
	fail := func(format string, args ...any) { t.Fatalf("compact form: "+format, args...) }
	num := func(v any, bits int, signed bool) uint64 {
		s, ok := v.(string)
		if n, isNum := v.(json.Number); isNum {
			s, ok = string(n), true
		}
		if !ok {
			fail("%v is no integer", v)
		}
		if signed {
			i, err := strconv.ParseInt(s, 10, bits)
			if err != nil {
				fail("%v", err)
			}
			return uint64(i)
		}
		u, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			fail("%v", err)
		}
		return u
	}
	float := func(v any, bits int) float64 {
		switch v {
		case "nan":
			return quietNaN
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
		s, _ := v.(string)
		if n, ok := v.(json.Number); ok {
			s = string(n)
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil {
			fail("%v", err)
		}
		return f
	}
	var value func(letter byte, v any) *Node
	value = func(letter byte, v any) *Node {
		k := Kind(bytes.IndexByte(compactLetter[:], letter))
		if k < 0 || k >= numKinds {
			fail("letter %q", letter)
		}
		if n, ok := v.(json.Number); ok && k.outOfLine() {
			id, err := n.Int64()
			if err != nil || id < 0 || id >= int64(len(defs)) || defs[id].Kind != k {
				fail("number %v names no earlier %s", n, k)
			}
			return defs[id]
		}
		n := &Node{Kind: k}
		switch k {
		case Null:
			if v != nil {
				fail("null with %v", v)
			}
		case String:
			n.Str = form.Strings[num(v, 32, false)]
		case Bool:
			if v.(bool) {
				n.Bits = 1
			}
		case Int:
			n.Bits = uint64(uint32(num(v, 32, true)))
		case UInt:
			n.Bits = num(v, 32, false)
		case Int64:
			n.Bits = num(v, 64, true)
		case UInt64:
			n.Bits = num(v, 64, false)
		case Float:
			n.Bits = uint64(math.Float32bits(float32(float(v, 32))))
		case Double:
			if _, ok := v.(string); !ok {
				fail("double %v is not text", v)
			}
			n.Bits = math.Float64bits(float(v, 64))
		case Binary:
			n.Data, _ = base64.StdEncoding.DecodeString(v.(string))
		case File:
			p := v.([]any)
			n.Align = uint32(num(p[0], 32, false))
			n.Data, _ = base64.StdEncoding.DecodeString(p[1].(string))
		default:
			list := v.([]any)
			shape := form.Shapes[num(list[0], 32, false)]
			members := list[1:]
			if k == Array {
				letters := shape.(string)
				n.Items = []*Node{}
				for i, m := range members {
					l := letters[0]
					if len(letters) > 1 {
						l = letters[i]
					}
					n.Items = append(n.Items, value(l, m))
				}
				break
			}
			s := shape.([]any)
			letters, keys := s[0].(string), s[1].([]any)
			n.KeepOrder = len(s) == 3
			if len(letters) != len(members) || len(keys) != len(members) {
				fail("%s of %d members has a shape of %d letters and %d keys", k, len(members), len(letters), len(keys))
			}
			n.Entries = []Entry{}
			for i, m := range members {
				e := Entry{Value: value(letters[i], m)}
				if k == Hash {
					e.Key = form.Keys[num(keys[i], 32, false)]
				} else {
					e.Hash = num(keys[i], 64, false)
				}
				n.Entries = append(n.Entries, e)
			}
		}
		if k.outOfLine() {
			defs = append(defs, n)
		}
		return n
	}
	doc.Root = value(form.Type[0], form.Root)
	return doc
}

// sameTree fails unless a and b are the same tree sharing the same nodes: equal values (as
// Equal has them, but any NaN as any NaN: the text forms write every NaN as nan), and a node used twice in one used twice, at the same places, in the other.
func sameTree(t testing.TB, a, b *Node) {
	t.Helper()
	ab, ba := map[*Node]*Node{}, map[*Node]*Node{}
	var rec func(a, b *Node, path string)
	rec = func(a, b *Node, path string) {
		if x, ok := ab[a]; ok || ba[b] != nil {
			if x != b || ba[b] != a {
				t.Fatalf("%s: shared differently", path)
			}
			return
		}
		if a.Kind.outOfLine() {
			ab[a], ba[b] = b, a
		}
		nan := a.Kind == Float && math.IsNaN(float64(a.FloatValue())) && math.IsNaN(float64(b.FloatValue())) ||
			a.Kind == Double && math.IsNaN(a.DoubleValue()) && math.IsNaN(b.DoubleValue())
		if a.Kind != b.Kind || !a.Kind.IsContainer() && !nan && !Equal(a, b) ||
			a.KeepOrder != b.KeepOrder || len(a.Items) != len(b.Items) || len(a.Entries) != len(b.Entries) {
			t.Fatalf("%s: %+v, want %+v", path, b, a)
		}
		for i := range a.Items {
			rec(a.Items[i], b.Items[i], fmt.Sprintf("%s/%d", path, i))
		}
		for i, e := range a.Entries {
			if e.Key != b.Entries[i].Key || e.Hash != b.Entries[i].Hash {
				t.Fatalf("%s: key %q/%d, want %q/%d", path, b.Entries[i].Key, b.Entries[i].Hash, e.Key, e.Hash)
			}
			rec(e.Value, b.Entries[i].Value, path+"/"+pointerKey(a, e))
		}
	}
	if a == nil || b == nil {
		if a != b {
			t.Fatalf("root %v, want %v", b, a)
		}
		return
	}
	rec(a, b, "")
}

// Every kind, a shared hash and a shared double, a string used twice, an unsorted hash,
// arrays of one kind and of several, empty containers: the form as documented, to the byte, and read back the same.
func TestCompactForm(t *testing.T) {
	shared := NewHash()
	shared.Set("x", NewInt(-1))
	big := &Node{Kind: Double, Bits: math.Float64bits(0.1)}
	unsorted := &Node{Kind: Hash, KeepOrder: true, Entries: []Entry{{Key: "b", Value: NewBool(true)}, {Key: "a", Value: &Node{Kind: Null}}}}
	hm32 := &Node{Kind: HashMap32, Entries: []Entry{{Hash: 7, Value: NewUInt(4294967295)}}}
	hm64 := &Node{Kind: HashMap64, Entries: []Entry{{Hash: 1 << 63, Value: &Node{Kind: Int64, Bits: uint64(1<<64 - 2)}}}}
	root := NewHash()
	root.Set("arr", NewArray(shared, shared, NewString("s\""), NewString("t"), NewString("s\"")))
	root.Set("one", NewArray(NewFloat(0.5), NewFloat(float32(math.Inf(-1)))))
	root.Set("big", NewArray(big, big, &Node{Kind: UInt64, Bits: 1<<64 - 1}))
	root.Set("bin", NewArray(&Node{Kind: Binary, Data: []byte{0, 1}}, &Node{Kind: File, Align: 16, Data: []byte("abc")}))
	root.Set("empty", NewArray(NewArray(), NewHash(), shared))
	root.Set("maps", NewArray(hm32, hm64, unsorted))
	doc := &Document{Version: 7, Root: root}
	got, err := doc.AppendCompact([]byte("x"), jsontext.NoLimit)
	if err != nil {
		t.Fatal(err)
	}
	// Numbers in order of completion: the shared hash 0, arr 1, the double 2, the uint64 3,
	// big 4, the binary 5, the file 6, bin 7, the empty array 8 and hash 9, empty 10, the
	// hash maps 11 and (after its int64, 12) 13, the unsorted hash 14, maps 15, one 16.
	want := `x{"version":7,"bigEndian":false,"type":"h","root":[0,` +
		`[1,[2,-1],0,0,1,0],` +
		`[3,"0.1",2,"18446744073709551615"],` +
		`[4,"AAE=",[16,"YWJj"]],` +
		`[5,[6],[7],0],` +
		`[8,[9,4294967295],[10,"-2"],[11,true,null]],` +
		`[12,0.5,"-inf"]]` +
		`,"keys":["arr","big","bin","empty","maps","one","x","b","a"],"strings":["s\"","t"]` +
		`,"shapes":[["aaaaaa",[0,1,2,3,4,5]],"hhsss",["i",[6]],"ddm","xy","ahh","",["",[]],"pqh",` +
		`["u",[7]],["l",["9223372036854775808"]],["bn",[7,8],1],"f"]}`
	if string(got) != want {
		t.Fatalf("compact form\n%s\nwant\n%s", got, want)
	}
	sameTree(t, root, decodeCompact(t, got[1:]).Root)
	if got, err := (&Document{Version: 2, BigEndian: true}).AppendCompact(nil, jsontext.NoLimit); err != nil || string(got) != `{"version":2,"bigEndian":true,"root":null,"keys":[],"strings":[],"shapes":[]}` {
		t.Errorf("empty document: %s, %v", got, err)
	}
}

// checkCompactFile is the property of AppendCompactFile: where it writes a form, Read takes
// the file and AppendCompact writes the same bytes. It reports whether it wrote one.
func checkCompactFile(t testing.TB, name string, data []byte, limit int) bool {
	t.Helper()
	got, ok := AppendCompactFile(nil, data, limit)
	if !ok {
		return false
	}
	doc, err := Read(data)
	if err != nil {
		t.Fatalf("%s: written straight from the file, but Read says %v", name, err)
	}
	want, err := doc.AppendCompact(nil, limit)
	if err != nil {
		t.Fatalf("%s: written straight from the file, but from the model: %v", name, err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: the form written straight from the file differs from the model's at byte %d:\n%.200s\nwant\n%.200s", name, i, got[i:], want[i:])
	}
	return true
}

// Every BYML file of the corpus and of the games: the compact form written straight from the
// file is the model's, and reads back as the model with the same sharing. Only the files whose
// hashes keep an unsorted order need the model.
func TestCompactCorpus(t *testing.T) {
	var names []string
	var files [][]byte
	for _, c := range corpusFiles(t) {
		names, files = append(names, c.name), append(files, c.data)
	}
	for _, g := range gameFiles(t) {
		names, files = append(names, g.name), append(files, g.data)
	}
	straight, unsorted := 0, 0
	for i, data := range files {
		doc, err := Read(data)
		if err != nil {
			if _, ok := AppendCompactFile(nil, data, jsontext.NoLimit); ok {
				t.Errorf("%s: Read fails (%v), the straight form does not", names[i], err)
			}
			continue
		}
		form, err := doc.AppendCompact(nil, jsontext.NoLimit)
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		sameTree(t, doc.Root, decodeCompact(t, form).Root)
		if checkCompactFile(t, names[i], data, jsontext.NoLimit) {
			straight++
		} else if len(doc.Warnings()) > 0 {
			unsorted++
		} else {
			t.Errorf("%s: read through the model, but Read takes it and it warns of nothing", names[i])
		}
	}
	t.Logf("%d files: %d written straight from the file, %d with unsorted hashes through the model", len(files), straight, unsorted)
	if straight == 0 {
		t.Error("no file written straight")
	}
}

// A form past its budget is refused whichever way it is written: the straight way leaves it
// to the model, whose error says where it stopped.
func TestCompactBudget(t *testing.T) {
	data := largest(t)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	full, err := doc.AppendCompact(nil, jsontext.NoLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{len(full), len(full) - 1, len(full) / 2, 100} {
		_, ok := AppendCompactFile(nil, data, limit)
		_, err := doc.AppendCompact(nil, limit)
		if ok != (limit >= len(full)) || (err == nil) != ok {
			t.Errorf("limit %d of a %d-byte form: straight %v, model %v", limit, len(full), ok, err)
		}
		var tl *jsontext.TooLargeError
		if err != nil && !errors.As(err, &tl) {
			t.Errorf("limit %d: %v is not a TooLargeError", limit, err)
		}
	}
}

func FuzzCompactFile(f *testing.F) {
	for _, c := range corpusFiles(f) {
		if len(c.data) <= fuzzSeedMax {
			f.Add(c.data)
		}
	}
	f.Add(file(hdr(0x10, 0, 0x20), 0x2C2, 0x10, 0x12, 0x14, "b\x00a\x00", 0x2C1, 0xD1000000, 1, 0xD1000001, 2))
	f.Add(file(hdr(0, 0, 0x10), 0x2C0, 0xC0C0, 0x20, 0x20, 0x2C0, 0xC0C0, 0x30, 0x30, 0xC0))
	f.Add(file(hdr(0, 0, 0x10), 0x1C0, 0xA2, 0x1C, 0, 448)) // an alignment Read refuses
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCompactFile(t, "input", data, jsontext.NoLimit)
		checkCompactFile(t, "input", data, 4*len(data))
	})
}
