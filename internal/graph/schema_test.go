package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("document.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("document.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("document.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The document of every corpus file is valid against document.schema.json, and the schema
// rejects what the decoder rejects.
func TestSchema(t *testing.T) {
	s := compileSchema(t)
	check := func(name string, js []byte) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s.Validate(v)
	}
	eachCorpusDocument(t, func(name string, d *Document, _ []byte) {
		if err := check(name, d.Encode()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	})
	d, _ := parseFile(t, "synthetic/kitchen_sink_v407.ainb")
	good := string(d.Encode())
	for name, bad := range map[string]string{
		"unknown member":  `{"colour":1,` + good[1:],
		"wrong node type": string(bytes.Replace([]byte(good), []byte(`"type":"Sequential"`), []byte(`"type":"Sequence"`), 1)),
		"int as string":   string(bytes.Replace([]byte(good), []byte(`"version":1031`), []byte(`"version":"1031"`), 1)),
	} {
		if bad == good {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if check(name, []byte(bad)) == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
		if _, err := Decode([]byte(bad)); err == nil && name != "wrong node type" {
			t.Errorf("%s: the decoder accepts it", name)
		}
	}
}

// The decoder requires exactly the members document.schema.json requires, object by object.
func TestSchemaRequired(t *testing.T) {
	b, err := os.ReadFile("document.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	lists := map[string][]string{
		"":                                reqDocument,
		"/properties/commands/items":      reqCommand,
		"/properties/attachments/items":   reqAttachment,
		"/properties/expressions/oneOf/1": reqExpressions,
		"/properties/expressions/oneOf/1/properties/functions/items": reqFunction,
		"/properties/modules/items":                                  reqModule,
		"/properties/moduleCall":                                     reqModuleCall,
		"/properties/replacements/oneOf/1/items":                     reqReplacement,
		"/properties/enumRelocations/items":                          reqEnumRelocation,
		"/properties/section58/oneOf/1":                              reqSection58,
		"/$defs/property":                                            reqProperty,
		"/$defs/input":                                               reqInput,
		"/$defs/output":                                              reqOutput,
		"/$defs/child":                                               reqChild,
		"/$defs/jump":                                                reqJump,
		"/$defs/node":                                                reqNode,
		"/$defs/node/properties/actions/items":                       reqAction,
		"/$defs/node/properties/stateInfo":                           reqStateInfo,
		"/$defs/blackboardParam":                                     reqBlackboardParam,
	}
	seen := map[string]bool{}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			// Objects with members, not the conditions (if) that pick a value's shape by type.
			if req, ok := v["required"].([]any); ok && v["properties"] != nil && !strings.HasSuffix(path, "/if") {
				var names []string
				for _, r := range req {
					names = append(names, r.(string))
				}
				want, ok := lists[path]
				if !ok {
					t.Errorf("%s: the schema requires %v, the decoder nothing", path, names)
				} else if slices.Sort(names); !slices.Equal(names, slices.Sorted(slices.Values(want))) {
					t.Errorf("%s: the schema requires %v, the decoder %v", path, names, want)
				}
				seen[path] = true
			}
			for k, x := range v {
				walk(x, path+"/"+k)
			}
		case []any:
			for i, x := range v {
				walk(x, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(schema, "")
	for path := range lists {
		if !seen[path] {
			t.Errorf("%s: the decoder requires members the schema does not", path)
		}
	}
}

// A document without a required member is a problem at that member; one without the members
// the encoder and the browser leave out (empty lists, false flags, absent sources) is not.
func TestDecodeMissingMembers(t *testing.T) {
	d, _ := parseFile(t, "synthetic/kitchen_sink_v407.ainb")
	var doc map[string]any
	if err := json.Unmarshal(d.Encode(), &doc); err != nil {
		t.Fatal(err)
	}
	at := func(v any, path ...any) map[string]any {
		for _, p := range path {
			switch p := p.(type) {
			case string:
				v = v.(map[string]any)[p]
			case int:
				v = v.([]any)[p]
			}
		}
		return v.(map[string]any)
	}
	for _, c := range []struct {
		obj    []any
		member string
		want   string
	}{
		{nil, "hasSection6C", "hasSection6C: missing"},
		{[]any{"commands", 0}, "guid", "commands[0].guid: missing"},
		{[]any{"nodes", 3}, "name", "nodes[3].name: missing"},
		{[]any{"nodes", 3}, "y", "nodes[3].y: missing"},
		{[]any{"blackboard", 0}, "inherit", "blackboard[0].inherit: missing"},
		{[]any{"moduleCall"}, "blackboardId", "moduleCall.blackboardId: missing"},
	} {
		o := at(doc, c.obj...)
		v := o[c.member]
		delete(o, c.member)
		js, _ := json.Marshal(doc)
		o[c.member] = v
		_, err := Decode(js)
		var pe *ProblemsError
		if !errors.As(err, &pe) || len(pe.Problems) != 1 || pe.Problems[0].Path+": "+pe.Problems[0].Msg != c.want {
			t.Errorf("without %s: %v, want %q", c.want, err, c.want)
			continue
		}
		if p := pe.Problems[0]; p.Line == 0 || (c.obj != nil && c.obj[0] == "nodes") != (p.Node >= 0) {
			t.Errorf("without %s: problem at line %d, node %d", c.want, p.Line, p.Node)
		}
	}
	// A node as the browser adds it, and a child without a condition.
	nodes := doc["nodes"].([]any)
	doc["nodes"] = append(nodes, map[string]any{"id": 9999, "type": "Sequential", "name": "", "guid": "00000000-0000-4000-8000-000000000000", "x": 0, "y": 0,
		"children": []any{map[string]any{"node": 0, "name": ""}}})
	js, _ := json.Marshal(doc)
	if _, err := Decode(js); err != nil {
		t.Fatalf("a minimal node: %v", err)
	}
}

// An input whose sources were all disconnected stays a multi-input: "sources": [] in the
// JSON, and in the built file.
func TestEmptyMultiInput(t *testing.T) {
	d, _ := parseFile(t, "synthetic/params_v407.ainb")
	in := &d.Nodes[3].Inputs[inputIndex(t, d.Nodes[3].Inputs, "IMulti")]
	in.Sources = []Source{}
	if !strings.Contains(string(d.Encode()), `"name":"IMulti","type":"int","value":0,"sources":[]`) {
		t.Fatal(`the JSON lacks "sources":[]`)
	}
	d2 := viaJSON(t, d)
	if s := d2.Nodes[3].Inputs[inputIndex(t, d2.Nodes[3].Inputs, "IMulti")].Sources; s == nil || len(s) != 0 {
		t.Fatalf("decoded sources %v, want an empty list", s)
	}
	_, again := rebuild(t, d)
	if s := again.Nodes[3].Inputs[inputIndex(t, again.Nodes[3].Inputs, "IMulti")].Sources; s == nil || len(s) != 0 {
		t.Fatalf("rebuilt sources %v, want an empty list", s)
	}
}
