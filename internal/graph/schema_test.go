package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"ainbeditor/internal/testcorpus"
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
	for _, path := range testcorpus.AINB(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(filepath.Base(path), b)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(path, d.Encode()); err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
	}
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
