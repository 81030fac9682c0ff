package graph

import (
	"strconv"
	"testing"
)

// The type words go out as quoting gives them; any other type is quoted in full.
func TestAppendValueType(t *testing.T) {
	for _, vt := range []ValueType{"int", "bool", "float", "string", "vec3f", "pointer", "u32", "", "in\"t", "ints", "vec3"} {
		if got, want := string(appendValueType(nil, vt)), strconv.Quote(string(vt)); got != want {
			t.Errorf("appendValueType(%q) = %s, want %s", vt, got, want)
		}
	}
}
