package treecodec

import (
	"bytes"
	"testing"

	"ainbeditor/internal/jsontext"
)

// texts are one small document of each codec, in YAML.
var texts = map[string]string{
	"byml": "a: 1\nb: [x, y]\n",
	// The keys are the hashes of "O" and "P": names the hash table does not know stay hashes.
	"aamp": "!io\nversion: 0\ntype: xml\nparam_root: !list\n  objects:\n    878818188: !obj\n      3110715001: 7\n  lists: {}\n",
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"byml", "aamp"} {
		if c := Lookup(name); c == nil || c.Name != name {
			t.Errorf("Lookup(%q) = %v", name, c)
		}
	}
	if c := Lookup("sarc"); c != nil {
		t.Errorf("Lookup(sarc) = %v, want nil", c.Name)
	}
}

// Every codec goes from YAML to bytes and back, through JSON, and sniffs its own bytes
// alone; a tree read from bytes writes them again in their own layout.
func TestRoundTrip(t *testing.T) {
	for _, c := range Codecs {
		tree, err := c.FromYAML([]byte(texts[c.Name]))
		if err != nil {
			t.Fatalf("%s: FromYAML: %v", c.Name, err)
		}
		b, err := tree.BytesCanonical()
		if err != nil {
			t.Fatalf("%s: BytesCanonical: %v", c.Name, err)
		}
		for _, o := range Codecs {
			if got := o.Is(b); got != (o == c) {
				t.Errorf("%s bytes: %s.Is = %v", c.Name, o.Name, got)
			}
		}
		read, err := c.Read(b)
		if err != nil {
			t.Fatalf("%s: Read: %v", c.Name, err)
		}
		if want := map[string]string{"byml": "preserved", "aamp": ""}[c.Name]; read.Layout() != want {
			t.Errorf("%s: Layout = %q, want %q", c.Name, read.Layout(), want)
		}
		again, err := read.Bytes()
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: Bytes after Read = %x, %v; want %x", c.Name, again, err, b)
		}
		js, err := read.AppendJSON(nil, jsontext.NoLimit)
		if err != nil {
			t.Fatalf("%s: AppendJSON: %v", c.Name, err)
		}
		fromJSON, err := c.FromJSON(js)
		if err != nil {
			t.Fatalf("%s: FromJSON: %v", c.Name, err)
		}
		y, err := fromJSON.YAML(jsontext.NoLimit)
		if err != nil || string(y) != texts[c.Name] {
			t.Errorf("%s: YAML = %q, %v; want %q", c.Name, y, err, texts[c.Name])
		}
		// Grafting the same content keeps the layout read.
		read.Graft(fromJSON)
		if again, err := read.Bytes(); err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: Bytes after Graft = %x, %v; want %x", c.Name, again, err, b)
		}
		if w := read.Warnings(); len(w) != 0 {
			t.Errorf("%s: Warnings = %v, want none", c.Name, w)
		}
		if _, err := read.YAML(4); err == nil {
			t.Errorf("%s: YAML within 4 bytes succeeded", c.Name)
		}
	}
}
