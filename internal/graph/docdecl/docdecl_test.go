package docdecl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const miniTypes = `package graph

const Format = "mini/1"

// Document is the whole.
type Document struct {
	Format string ` + "`json:\"format\"`" + `
	Nodes  []Node ` + "`json:\"nodes\"`" + `
}

// Node is one node.
type Node struct {
	ID    int     ` + "`json:\"id\"`" + ` // node id
	Title *string ` + "`json:\"title,omitempty\"`" + `
	Extra bool    ` + "`json:\"extra\"`" + `
}
`

const miniSchema = `{
  "title": "old",
  "description": "d",
  "type": "object",
  "properties": {
    "nodes": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/node"
      }
    },
    "format": {
      "const": "mini/1"
    }
  },
  "$defs": {
    "node": {
      "type": "object",
      "required": [
        "title"
      ],
      "properties": {
        "title": {
          "type": "string",
          "maxLength": 1e3
        },
        "id": {
          "type": "integer"
        }
      }
    }
  }
}
`

func mini(t *testing.T, types, schema string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"types.go": types, SchemaJSON: schema} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The schema's members follow the tags: order, required lists, and a first schema for a
// member it did not describe; hand-written constraints and number spellings stay.
func TestGenerateSchema(t *testing.T) {
	files, err := Generate(mini(t, miniTypes, miniSchema))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "title": "AINB editor document, format mini/1",
  "description": "d",
  "type": "object",
  "required": [
    "format",
    "nodes"
  ],
  "properties": {
    "format": {
      "const": "mini/1"
    },
    "nodes": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/node"
      }
    }
  },
  "$defs": {
    "node": {
      "type": "object",
      "required": [
        "id",
        "extra"
      ],
      "properties": {
        "id": {
          "type": "integer"
        },
        "title": {
          "type": "string",
          "maxLength": 1e3
        },
        "extra": {
          "type": "boolean"
        }
      }
    }
  }
}
`
	if got := string(files[SchemaJSON]); got != want {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}
	goFile := string(files[MembersGo])
	for _, line := range []string{`reqDocument = []string{"format", "nodes"}`, `reqNode     = []string{"id", "extra"}`} {
		if !strings.Contains(goFile, line) {
			t.Errorf("members.go lacks %s:\n%s", line, goFile)
		}
	}
	js := string(files[DocumentJS])
	for _, line := range []string{
		`export const FORMAT = "mini/1";`,
		`  Node: Object.freeze(["id", "title", "extra"]),`,
		` * @property {number} id node id`,
		` * @property {string} [title]`,
		` * @property {boolean} extra`,
	} {
		if !strings.Contains(js, line+"\n") {
			t.Errorf("document.js lacks %q:\n%s", line, js)
		}
	}
}

// A member the schema describes and no tag declares is an error that names it.
func TestGenerateRefusesUndeclared(t *testing.T) {
	schema := strings.Replace(miniSchema, `"id": {`, `"colour": {"type": "string"},
        "id": {`, 1)
	_, err := Generate(mini(t, miniTypes, schema))
	if err == nil || !strings.Contains(err.Error(), "document.nodes.colour is described but types.go's Node declares no such member") {
		t.Fatalf("err = %v", err)
	}
}

// CheckJSON accepts members in declared order, leaving out optional ones, and names the
// first undeclared or misplaced member.
func TestCheckJSON(t *testing.T) {
	d, err := Load(mini(t, miniTypes, miniSchema))
	if err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]string{
		`{"format":"mini/1","nodes":[{"id":1,"extra":true}]}`:              "",
		`{"format":"mini/1","nodes":[{"id":1,"title":"a","extra":false}]}`: "",
		`{"format":"mini/1","nodes":[{"id":1,"colour":2}]}`:                `document.nodes[0].colour: Node declares no such member after "id"`,
		`{"nodes":[],"format":"mini/1"}`:                                   `document.format: Document declares no such member after "nodes"`,
	} {
		err := d.CheckJSON([]byte(doc))
		if got := ""; err != nil {
			got = err.Error()
			if got != want {
				t.Errorf("%s: %v, want %s", doc, err, want)
			}
		} else if want != "" {
			t.Errorf("%s: accepted, want %s", doc, want)
		}
	}
}
