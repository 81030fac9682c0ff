package graph

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

var allMemberSets = map[string]*memberSet{
	"document": documentMembers, "expressions": expressionsMembers, "function": functionMembers,
	"module": moduleMembers, "moduleCall": moduleCallMembers, "replacement": replacementMembers,
	"enumRelocation": enumRelocationMembers, "target": targetMembers, "section58": section58Members,
	"command": commandMembers, "node": nodeMembers, "output": outputMembers, "jump": jumpMembers,
	"action": actionMembers, "stateInfo": stateInfoMembers, "property": propertyMembers,
	"input": inputMembers, "source": sourceMembers, "child": childMembers,
	"condition": conditionMembers, "attachment": attachmentMembers,
	"blackboardParam": blackboardParamMembers,
}

// Each name, quoted and with its colon, is found as its own index, and names that differ in
// one byte, a byte more or less, or only in case are not found (unless the set has them).
func TestMemberSetFind(t *testing.T) {
	find := func(set *memberSet, name string) int {
		return set.find([]byte(`{"`+name+`":1,"a":2}`), 1)
	}
	for kind, set := range allMemberSets {
		for i, n := range set.names {
			if got := find(set, n); got != i {
				t.Errorf("%s: find(%q) = %d, want %d", kind, n, got, i)
			}
			for _, near := range []string{n + "s", n[:len(n)-1], strings.ToUpper(n[:1]) + n[1:],
				n[:len(n)-1] + string(n[len(n)-1]^1), n[:1] + `\u00` + n[1:]} {
				if got := find(set, near); got != -1 && set.names[got] != near {
					t.Errorf("%s: find(%q) = %d (%s)", kind, near, got, set.names[got])
				}
			}
			if got := set.find([]byte(`{"`+n+`" :1,"a":2}`), 1); got != -1 {
				t.Errorf("%s: %q with a space before its colon found as %d", kind, n, got)
			}
		}
		if got := find(set, ""); got != -1 {
			t.Errorf("%s: the empty name found as %d", kind, got)
		}
	}
	if i := find(conditionMembers, "maxBlackboard"); i != condMaxBlackboard {
		t.Errorf("maxBlackboard found as %d, want %d", i, condMaxBlackboard)
	}
	if i := find(inputMembers, "sources"); i != inSources {
		t.Errorf("sources found as %d, want %d", i, inSources)
	}
}

// A quoted name is found only whole, with its colon, and not past the end of the text.
func TestQuotedNameAt(t *testing.T) {
	for _, c := range []struct {
		name, text string
		at         int
		want       bool
	}{
		{"x", `{"x":1,"y":2}`, 1, true},
		{"x", `{"x" :1,"y":2}`, 1, false},
		{"x", `{"x":`, 1, false}, // fewer than eight bytes left: left to the general reader
		{"id", `{"id":1,"y":2}`, 1, true},
		{"id", `{"ix":1,"y":2}`, 1, false},
		{"className", `{"className":"a"}`, 1, true},
		{"className", `{"classNamf":"a"}`, 1, false},
		{"className", `{"className":`, 1, true},
		{"className", `{"className"`, 1, false},
		{"parentBlackboardId", `{"parentBlackboardId":1}`, 1, true},
		{"parentBlackboardId", `{"parentBlackbxardId":1}`, 1, false},
		{"parentBlackboardId", `{"parentBlackboardIx":1}`, 1, false},
		{"minBlackboard", `{"maxBlackboard":1}`, 1, false},
	} {
		set := newMemberSet(nil, []string{c.name})
		if got := set.find([]byte(c.text), c.at) == 0; got != c.want {
			t.Errorf("%q at %d of %s = %v, want %v", c.name, c.at, c.text, got, c.want)
		}
	}
}

// Names of up to six bytes are their own key; longer ones differ from every shorter one.
func TestNameKey(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint64
	}{
		{`"":1,"ab`, 0},
		{`"x":1,"a`, 'x'},
		{`"id":1,"`, 'i' | 'd'<<8},
		{`"abcdef"`, 0x666564636261},
		{`"abcdefg`, 0x67666564636261 | 1<<63},
		{`"abcdefgh`, 0x67666564636261 | 1<<63},
	} {
		if got := nameKey(binary.LittleEndian.Uint64([]byte(c.text))); got != c.want {
			t.Errorf("nameKey(%s) = %#x, want %#x", c.text, got, c.want)
		}
	}
}

// shortInt takes short plain integers and leaves every other number, and its place, to
// Number.
func TestShortInt(t *testing.T) {
	for _, c := range []struct {
		text string
		v    int64
		ok   bool
	}{
		{"0,", 0, true}, {"7}", 7, true}, {"12,", 12, true}, {"-5]", -5, true},
		{"999999999,", 999999999, true}, {"-999999999", -999999999, true},
		{"1000000000,", 0, false}, {"-0,", 0, false}, {"01,", 0, false}, {"1.5,", 0, false},
		{"1e3,", 0, false}, {"1E3,", 0, false}, {"-,", 0, false}, {"-x", 0, false}, {"", 0, false},
	} {
		d := &dec{}
		d.Data = []byte(c.text)
		v, ok := d.shortInt()
		wantPos := 0
		if c.ok {
			wantPos = strings.IndexAny(c.text+",", ",}]")
		}
		if v != c.v || ok != c.ok || d.Pos != wantPos {
			t.Errorf("shortInt(%q) = %d, %v at %d; want %d, %v at %d", c.text, v, ok, d.Pos, c.v, c.ok, wantPos)
		}
	}
}

// Short integers read in one pass report the same problems, with the number's own text, as
// the numbers left to Number; a value's number is held as read, after any spaces.
func TestDecodeShortNumbers(t *testing.T) {
	js := []byte(`{"format":"x","nodes":[{"id":-3,"type":"T","name":"A","x": 12,"y":-7,
 "properties":[{"name":"P","type":"u32","value": -5},{"name":"Q","type":"int","value":  42},
  {"name":"R","type":"float","value": 9},{"name":"S","type":"vec3f","value":[1, -2,30]}],
 "jumps":[{"node":1,"type": 256}]}]}`)
	_, err := Decode(js)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("want problems, got %v", err)
	}
	want := []string{
		"nodes[0].id: line 1:30: -3 is out of range (0 to 2147483647) @1:30",
		"nodes[0].properties[0].value: line 2:50: -5 is out of the u32 range (0 to 4294967295) @2:50",
		"nodes[0].jumps[0].type: line 4:29: 256 is out of range (0 to 255) @4:29",
	}
	var got []string
	for _, p := range pe.Problems {
		if !strings.HasSuffix(p.Msg, "missing") {
			got = append(got, p.String()+" @"+itoa(p.Line)+":"+itoa(p.Column))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	d, err := Decode([]byte(`{"format":"x","nodes":[{"id":3,"x": -12,"y":7,"properties":[{"name":"Q","type":"int","value":  -42},
  {"name":"R","type":"float","value": 9},{"name":"S","type":"vec3f","value":[1, -2,30]}]}]}`))
	if err != nil {
		t.Fatal(err) // another format: its missing members are not problems here
	}
	n := d.Nodes[0]
	if n.ID != 3 || n.X != -12 || n.Y != 7 || len(n.Properties) != 3 {
		t.Fatalf("node %d at %v,%v with %d properties", n.ID, n.X, n.Y, len(n.Properties))
	}
	if v := n.Properties[0].Value.Int; v != -42 {
		t.Errorf("int value %d, want -42", v)
	}
	if v := n.Properties[1].Value.Float; v != 9 {
		t.Errorf("float value %v, want 9", v)
	}
	if v := n.Properties[2].Value.Vec; v != [3]Float{1, -2, 30} {
		t.Errorf("vec3f value %v, want [1 -2 30]", v)
	}
}
