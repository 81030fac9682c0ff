package main

import "testing"

func TestHasMember(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"format":"ainb-editor-document/2"}`:               true,
		` {"Nodes": [1, NaN], "f": -Infinity, "format": 1}`: true,
		`{"Info": {"format": 1}, "Nodes": []}`:              false, // not at the top level
		`{"\u0066ormat": 1}`:                                true,  // escaped name
		`{"Nodes": [}`:                                      false,
		`["format"]`:                                        false,
		``:                                                  false,
	} {
		if got := hasMember([]byte(doc), "format"); got != want {
			t.Errorf("hasMember(%s) = %v, want %v", doc, got, want)
		}
	}
}
