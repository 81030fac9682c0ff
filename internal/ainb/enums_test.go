package ainb

import (
	"strconv"
	"testing"
)

// Every enum's String and Parse are inverse over the names, and String names values without a
// name by their type and number.
func TestEnumNames(t *testing.T) {
	check := func(name string, n int, str func(int) string, parse func(string) (int, bool), want []string) {
		t.Helper()
		for i := range n {
			s := str(i)
			if i < len(want) && s != want[i] {
				t.Errorf("%s(%d).String() = %q, want %q", name, i, s, want[i])
			}
			if back, ok := parse(s); !ok || back != i {
				t.Errorf("Parse%s(%q) = %d, %v; want %d", name, s, back, ok, i)
			}
		}
		if s := str(n); s != name+"("+strconv.Itoa(n)+")" {
			t.Errorf("%s(%d).String() = %q", name, n, s)
		}
		if _, ok := parse(name + "(" + strconv.Itoa(n) + ")"); ok {
			t.Errorf("Parse%s accepts the name of an unnamed value", name)
		}
	}
	check("ParamType", int(NumParamTypes), func(i int) string { return ParamType(i).String() },
		func(s string) (int, bool) { v, ok := ParseParamType(s); return int(v), ok },
		[]string{"Int", "Bool", "Float", "String", "Vector3F", "Pointer"})
	check("PlugKind", plugTables, func(i int) string { return PlugKind(i).String() },
		func(s string) (int, bool) { v, ok := ParsePlugKind(s); return int(v), ok },
		[]string{"Generic", "_01", "Child", "Transition", "String", "Int", "_06", "_07", "_08", "_09"})
	check("BlackboardType", int(NumBlackboardTypes), func(i int) string { return BlackboardType(i).String() },
		func(s string) (int, bool) { v, ok := ParseBlackboardType(s); return int(v), ok },
		[]string{"String", "S32", "U32", "F32", "Bool", "Vec3f", "VoidPtr"})
	check("InheritMode", 3, func(i int) string { return InheritMode(i).String() },
		func(s string) (int, bool) { v, ok := ParseInheritMode(s); return int(v), ok },
		[]string{"InheritFromRoot", "InheritFromParent", "DontInherit"})
	check("ReplacementType", 3, func(i int) string { return ReplacementType(i).String() },
		func(s string) (int, bool) { v, ok := ParseReplacementType(s); return int(v), ok },
		[]string{"RemoveChild", "ReplaceChild", "RemoveAttachment"})

	types := ElementTypes()
	if len(types) != 27 || types[0] != UserDefined || types[26] != SplitTiming {
		t.Fatalf("ElementTypes() = %v", types)
	}
	for _, et := range types {
		if back, ok := ParseElementType(et.String()); !ok || back != et || !et.Known() {
			t.Errorf("%d: %q parses as %d, %v", et, et.String(), back, ok)
		}
	}
	if got := ModuleIFOutputVec3f.String(); got != "Element_ModuleIF_Output_Vec3f" {
		t.Errorf("ModuleIFOutputVec3f.String() = %q", got)
	}
	if got := ElementType(11).String(); got != "ElementType(11)" || ElementType(11).Known() {
		t.Errorf("ElementType(11): %q", got)
	}
	types[0] = Fork // a copy: the package's table is not changed
	if ElementTypes()[0] != UserDefined {
		t.Error("ElementTypes hands out its table")
	}

	for i, c := range []string{"AI", "Logic", "Sequence", "UniqueSequence", "UniqueSequenceSPL"} {
		if id, ok := CategoryID(c); !ok || id != uint32(i) {
			t.Errorf("CategoryID(%q) = %d, %v", c, id, ok)
		}
	}
	if _, ok := CategoryID("ai"); ok {
		t.Error("CategoryID accepts a lower-case name")
	}
}
