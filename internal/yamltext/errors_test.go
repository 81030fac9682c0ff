package yamltext

import (
	"errors"
	"fmt"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseError(t *testing.T) {
	var doc yaml.Node
	err := ParseError(yaml.Unmarshal([]byte("a: 1\nb: [1, 2\nc: 3\n"), &doc))
	var e *Error
	// yaml.v3 places it at the line where the sequence began.
	if !errors.As(err, &e) || e.Line != 1 || e.Column != 0 || e.Msg != "did not find expected ',' or ']'" {
		t.Fatalf("%#v", err)
	}
	if got := err.Error(); got != "line 1: did not find expected ',' or ']'" {
		t.Errorf("text: %s", got)
	}
	// Without a line, the message as it is.
	err = ParseError(errors.New("yaml: control characters are not allowed"))
	if !errors.As(err, &e) || e.Line != 0 || err.Error() != "control characters are not allowed" {
		t.Errorf("%#v", err)
	}
	if ParseError(nil) != nil {
		t.Error("ParseError(nil) is not nil")
	}
}

func TestLocate(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb:\n  - x\n  - {c: [1, 2, bad]}\n"), &doc); err != nil {
		t.Fatal(err)
	}
	bad := doc.Content[0].Content[3].Content[1].Content[1].Content[2]
	e := Locate(NodeErrorf(bad, "not a number: %s", bad.Value), &doc)
	err := fmt.Errorf("byml: yaml: %w", e)
	if e.Path != "b/1/c/2" || e.Line != 4 || e.Column != 16 {
		t.Fatalf("%#v", e)
	}
	if got := err.Error(); got != "byml: yaml: line 4 column 16 (at b/1/c/2): not a number: bad" {
		t.Errorf("text: %s", got)
	}
	// A key is found where it is.
	key := doc.Content[0].Content[2]
	if e := Locate(NodeErrorf(key, "k"), &doc); e.Path != "b" {
		t.Errorf("key path %q", e.Path)
	}
}
