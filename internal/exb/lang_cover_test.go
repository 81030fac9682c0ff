package exb

import (
	"slices"
	"strings"
	"testing"
)

// The hand-written cases (sourceCases and longPoolCase) together use every opcode, every operand source and
// every instruction type, so each is decompiled and compiled back at least once by hand.
func TestSourceCasesCover(t *testing.T) {
	ops := map[Opcode]bool{}
	srcs := map[Source]bool{}
	types := map[DataType]bool{}
	for _, tc := range append(slices.Clone(sourceCases), longPoolCase()) {
		m := &Module{Version: tc.version}
		if _, err := m.AppendFunction(".input INT\n.output INT\n.main\n" + strings.TrimPrefix(tc.listing, "\n") + "\n"); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, in := range m.Instructions {
			ops[in.Op] = true
			types[in.Type] = true
			switch in.Op.form() {
			case formEnd, formCall, formJump:
			default:
				srcs[in.LHS.Src] = true
				if in.Op.form() != formUnary {
					srcs[in.RHS.Src] = true
				}
			}
		}
	}
	var missing []string
	for op := OpTerminator; op <= OpJump; op++ {
		if !ops[op] {
			missing = append(missing, op.String())
		}
	}
	for s := SrcImmediate; s <= maxSource; s++ {
		if !srcs[s] {
			missing = append(missing, "source "+sourceNames[s])
		}
	}
	for ty := TypeNone; ty <= maxDataType; ty++ {
		if !types[ty] {
			missing = append(missing, "type "+ty.String())
		}
	}
	if len(missing) > 0 {
		t.Errorf("no hand-written case has %s", strings.Join(missing, ", "))
	}
}
