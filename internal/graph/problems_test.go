package graph

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// problems builds d and returns its problems as "path: message" lines.
func problems(t *testing.T, d *Document) []string {
	t.Helper()
	d2, err := Decode(d.Encode())
	if err == nil {
		_, err = d2.Build()
	}
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("want problems, got %v", err)
	}
	var out []string
	for _, p := range pe.Problems {
		out = append(out, p.String())
	}
	return out
}

func TestProblems(t *testing.T) {
	base, _ := parseFile(t, "random/random_s29_v407_n369.ainb")
	// Indices of a few useful nodes.
	withInput, withChild, withJump := -1, -1, -1
	for i := range base.Nodes {
		n := &base.Nodes[i]
		if withInput < 0 && len(n.Inputs) > 3 {
			withInput = i
		}
		if withChild < 0 && len(n.Children) > 0 && n.Type == "Sequential" {
			withChild = i
		}
		if withJump < 0 && len(n.Jumps) > 0 {
			withJump = i
		}
	}
	if withInput < 0 || withChild < 0 || withJump < 0 {
		t.Fatal("the test file lacks a node with inputs, children or jumps")
	}
	intParam := addParam(base, BlackboardParam{Name: "Count", Type: "int", Inherit: "root"})
	n4000, minus := 4000, -1
	for _, c := range []struct {
		name string
		edit func(d *Document)
		want []string
	}{
		{"dangling source", func(d *Document) {
			d.Nodes[withInput].Inputs[3].Source = &Source{Node: &n4000}
			d.Nodes[withInput].Inputs[3].Sources = nil
		}, []string{itoaPath("nodes[%d].inputs[3].source.node: no node with id 4000", withInput)}},
		{"output of another type", func(d *Document) {
			in := &d.Nodes[withInput].Inputs[0]
			for i := range d.Nodes {
				for j, o := range d.Nodes[i].Outputs {
					if o.Type != in.Type {
						id := d.Nodes[i].ID
						in.Source = &Source{Node: &id, Output: j}
						return
					}
				}
			}
		}, []string{"nodes[@].inputs[0].source.output: output"}},
		{"component of a non-vec3f parameter", func(d *Document) {
			for k := range d.Nodes[withInput].Inputs {
				if d.Nodes[withInput].Inputs[k].Type == "float" {
					d.Nodes[withInput].Inputs[k].Source = &Source{Blackboard: &intParam, Component: "y"}
					return
				}
			}
		}, []string{"nodes[@].inputs[", "is int; a float value with a component reads a vec3f parameter"}},
		{"duplicate id", func(d *Document) { d.Nodes[2].ID = d.Nodes[1].ID }, []string{"nodes[2].id: id 1 is also the id of nodes[1]"}},
		{"dangling child and jump", func(d *Document) {
			d.Nodes[withChild].Children[0].Node = 4000
			d.Nodes[withJump].Jumps[0].Node = 4001
		}, []string{itoaPath("nodes[%d].children[0].node: no node with id 4000", withChild), itoaPath("nodes[%d].jumps[0].node: no node with id 4001", withJump)}},
		{"int out of range", func(d *Document) {
			d.Nodes[0].Properties = append(d.Nodes[0].Properties, Property{Name: "X", Type: "int", Value: Value{Int: 1 << 31}})
		}, []string{"nodes[0].properties[", "].value: line 1:", ": 2147483648 is out of the int range"}},
		{"u32 in a 0x407 file", func(d *Document) {
			d.Blackboard = append(d.Blackboard, BlackboardParam{Name: "U", Type: "u32", Inherit: "root"})
		}, []string{"].type: u32 parameters need version 1032 (0x408)"}},
		{"secondary root", func(d *Document) { d.Commands[0].Secondary = minus - 1 }, []string{"commands[0].secondary: line 1:", ": -2 is out of range (-1 to 2147483647)"}},
		{"unknown node type", func(d *Document) { d.Nodes[1].Type = "Teleport" }, []string{`nodes[1].type: unknown node type "Teleport"`}},
		{"tampered layout", func(d *Document) { d.Layout = d.Layout[:len(d.Layout)-2] + "AA" }, []string{"layout: checksum mismatch"}},
		{"condition on a sequence", func(d *Document) {
			v := int32(3)
			d.Nodes[withChild].Children[0].Condition = &Condition{Int: &v}
		}, []string{itoaPath("nodes[%d].children[0].condition: children of Sequential nodes have no condition", withChild)}},
		{"bad expression text", func(d *Document) {
			if d.Expressions == nil {
				d.Expressions = &Expressions{Version: 2}
			}
			d.Expressions.Functions = append(d.Expressions.Functions, Function{Text: ".main\nfrobnicate\n"})
		}, []string{"expressions.functions[", "].text: line 2:1: unknown opcode"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := viaJSON(t, base)
			c.edit(d)
			got := problems(t, d)
			joined := strings.Join(got, "\n")
			if len(got) != len(c.want) && !strings.Contains(c.want[0], "[") {
				t.Fatalf("problems:\n%s\nwant %d", joined, len(c.want))
			}
			for _, w := range c.want {
				w = strings.ReplaceAll(w, "@", itoa(withInput))
				if !strings.Contains(joined, w) {
					t.Errorf("problems:\n%s\nwant one with %q", joined, w)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func itoaPath(format string, i int) string { return strings.Replace(format, "%d", itoa(i), 1) }

// Shape problems: every one reported, with its path, line and column.
func TestDecodeProblems(t *testing.T) {
	js := []byte(`{"format":"ainb-editor-document/2","version":"1031","nodes":[
  {"id":0,"type":"UserDefined","name":"A","guid":"nope","x":1e18,"y":-1e308,"colour":1,
   "properties":[{"name":"P","type":"int","value":"seven"}],
   "jumps":[{"node":1,"type":300}]}],
 "blackboard":[{"name":"B","type":"float","inherit":"root","value":1e40}],
 "extra":true}`)
	_, err := Decode(js)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("want problems, got %v", err)
	}
	want := []string{
		"version: line 1:46: want a number, found a string @1:46",
		"nodes[0].guid: line 2:50: want a GUID like \"01234567-89ab-cdef-0123-456789abcdef\", found \"nope\" @2:50",
		"nodes[0].x: line 2:61: 1e18 is out of range (positions lie within ±1e9) @2:61",
		"nodes[0].y: line 2:70: -1e308 is out of range (positions lie within ±1e9) @2:70",
		"nodes[0].colour: line 2:77: unknown member @2:77",
		"nodes[0].properties[0].value: line 3:51: want an integer (type int), found a string @3:51",
		"nodes[0].jumps[0].type: line 4:30: 300 is out of range (0 to 255) @4:30",
		"blackboard[0].value: line 5:68: 1e40 is out of the float range (32 bits) @5:68",
		"extra: line 6:2: unknown member @6:2",
	}
	// The document lacks required members: each is a problem at the closing brace.
	for _, m := range []string{"name", "filename", "category", "commands", "attachments", "expressions", "modules",
		"moduleCall", "replacements", "enumRelocations", "section58", "hasSection6C"} {
		want = append(want, m+": line 6:14: missing @6:14")
	}
	var got []string
	for _, p := range pe.Problems {
		got = append(got, p.String()+" @"+itoa(p.Line)+":"+itoa(p.Column))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if pe.Problems[1].Node != 0 || pe.Problems[0].Node != -1 {
		t.Fatalf("node indices %d, %d", pe.Problems[1].Node, pe.Problems[0].Node)
	}

	var se *SyntaxError
	if _, err := Decode([]byte("{\"format\": \"x\",\n  \"name\": tru}")); !errors.As(err, &se) || se.Line != 2 || se.Column != 14 || se.Reason != "invalid literal: want true, found '}'" {
		t.Fatalf("syntax error: %v", err)
	}
	_, err = Decode([]byte(`{"nodes": [{"id": 0}, {"id": 1, "name": "a\q"}]}`))
	if !errors.As(err, &se) || se.Path != "nodes[1].name" || se.Offset != 43 || se.Reason != `invalid escape \q in a string` {
		t.Fatalf("syntax error in a node: %#v", err)
	}
	if got, want := err.Error(), `invalid JSON at line 1, column 44 (in nodes[1].name): invalid escape \q in a string`; got != want {
		t.Fatalf("syntax error in a node:\n got %s\nwant %s", got, want)
	}
}

// FuzzDecode: whatever the JSON, decoding and building never panic, and a built file always
// reads back.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"synthetic/kitchen_sink_v404.ainb", "synthetic/kitchen_sink_v407.ainb", "synthetic/kitchen_sink_v408.ainb",
		"synthetic/expressions_v407.ainb", "random/random_s13_v404_n45.ainb", "random/random_s40_v404_n35.ainb", "real/totkbits_ChemicalBall.Prepare_23f6000.ainb"} {
		b, err := os.ReadFile(testcorpus.Dir(f) + "/ainb/" + name)
		if err != nil {
			f.Fatal(err)
		}
		d, err := Parse(name, b)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(d.Encode())
	}
	f.Add(nodeExprSeed(f).Encode()) // node outputs through expressions
	f.Add([]byte(`{"format":"ainb-editor-document/2","name":"","version":1031,"filename":"","category":"AI",` +
		`"nodes":[{"id":0,"type":"Sequential","name":"","guid":"00000000-0000-0000-0000-000000000000","x":0,"y":0}],` +
		`"commands":[{"name":"R","guid":"00000000-0000-0000-0000-000000000000","root":0,"secondary":-1}],` +
		`"attachments":[],"blackboard":[],"expressions":null,"modules":[],"moduleCall":{"blackboardId":0,"parentBlackboardId":0},` +
		`"replacements":[],"enumRelocations":[],"section58":null,"hasSection6C":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			d   *Document
			out []byte
			err error
		)
		n := testalloc.Bytes(func() {
			if d, err = Decode(data); err != nil {
				return
			}
			Layout(d)
			out, err = d.Build()
		})
		checkBounded(t, "decode and build", len(data), len(out), n)
		if err != nil {
			return
		}
		if _, err := ainb.Read(out); err != nil {
			t.Fatalf("built a file ainb.Read rejects: %v", err)
		}
		if again, err := Parse("x", out); err != nil {
			t.Fatalf("built a file Parse rejects: %v", err)
		} else if b2, err := again.Build(); err != nil || !bytes.Equal(b2, out) {
			t.Fatalf("the built file does not build itself again: %v", err)
		}
	})
}

// Strict JSON: a member named twice, and bytes that are not UTF-8 (in a name, a value, an
// escaped string and a member name), are each a problem at their path.
func TestDecodeStrict(t *testing.T) {
	d, err := Parse("x.ainb", readCorpus(t, "synthetic/minimal_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	js := string(d.Encode())
	for _, c := range []struct{ from, to, want string }{
		{`"name":"x.ainb"`, `"name":"x.ainb","name":"y.ainb"`, `name: line 1:52: a second member of this name (member names must be unique)`},
		{`"commands":[`, `"commands":[],"commands":[`, `commands: line 1:128: a second member of this name (member names must be unique)`},
		{`"name":"x.ainb"`, "\"name\":\"x\xff.ainb\"", `name: line 1:45: byte 1 of this string, 0xff, is not UTF-8 (documents are UTF-8 text)`},
		{`"name":"x.ainb"`, "\"name\":\"\\n\xe3\x81.ainb\"", `name: line 1:44: byte 1 of this string, 0xe3, is not UTF-8 (documents are UTF-8 text)`},
		{`"nodes":[{`, "\"nodes\":[{\"\xc0\xafname\":1,", "nodes[0]: line 1:224: byte 0 of this string, 0xc0, is not UTF-8 (documents are UTF-8 text)|nodes[0].\xc0\xafname: line 1:223: unknown member"},
		{`"name":"x.ainb"`, `"Name":"x.ainb","name":"x.ainb"`, `Name: line 1:36: unknown member`},
		// A member name with an escape is read as any string: this one is "name" again.
		{`"name":"x.ainb"`, `"name":"x.ainb","n\u0061me":"y.ainb"`, `name: line 1:52: a second member of this name (member names must be unique)`},
		// A member no object requires, named twice; and required ones named again after
		// every required one was read, where names go without a search of the required list.
		{`"residentInit":true`, `"residentInit":true,"residentInit":true`, `nodes[0].residentInit: line 1:343: a second member of this name (member names must be unique)`},
		{`"residentInit":true`, `"residentInit":true,"pinned":true,"id":0`, `nodes[0].id: line 1:357: a second member of this name (member names must be unique)`},
		{`"hasSection6C":true`, `"hasSection6C":true,"format":"x"`, `format: line 1:553: a second member of this name (member names must be unique)`},
	} {
		if !strings.Contains(js, c.from) {
			t.Fatalf("no %s in the document", c.from)
		}
		_, err := Decode([]byte(strings.Replace(js, c.from, c.to, 1)))
		var pe *ProblemsError
		var got []string
		if errors.As(err, &pe) {
			for _, p := range pe.Problems {
				got = append(got, p.String())
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %v, want %s", c.to, err, c.want)
		}
	}
	// Valid UTF-8 in every script reads as it is.
	back, err := Decode([]byte(strings.Replace(js, `"name":"x.ainb"`, `"name":"探索 Ωμέγα \u00e9\ud83d\ude00 😀"`, 1)))
	if err != nil || back.Name != "探索 Ωμέγα é😀 😀" {
		t.Fatalf("got %q, %v", back.Name, err)
	}
}
