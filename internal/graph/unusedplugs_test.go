package graph

import (
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
)

// Package ainb reads plugs of the kinds no known file uses as raw words; the editor document
// has no place for them, so a file with any is refused rather than written back without.
func TestUnusedPlugKindsRefused(t *testing.T) {
	for name, set := range map[string]func(e *ainb.Element){
		"kind 1": func(e *ainb.Element) { e.Plugs.Set(1, []ainb.Plug{{Node: 0, Word: 1}}) },
		"kind 8": func(e *ainb.Element) { e.UnusedPlugs = &ainb.UnusedPlugs{2: {{Node: 0, Word: 8}}} },
	} {
		f := &ainb.File{Version: ainb.Version407, Filename: "F", Category: "AI", Replacement: &ainb.ReplacementTable{}}
		f.Commands = []ainb.Command{{Name: "Main", Secondary: -1}}
		f.Elements = []ainb.Element{{Type: ainb.Sequential}}
		set(&f.Elements[0])
		b, err := f.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = Parse("f.ainb", b)
		if err == nil || !strings.Contains(err.Error(), "node 0 has plugs of a kind no known file uses") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
