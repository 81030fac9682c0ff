package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
)

// dump -compat writes non-finite floats as Python's json module does.
func TestDumpCompatNonFinite(t *testing.T) {
	f := &ainb.File{Version: ainb.Version407, Filename: "NonFinite", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{}}
	f.Commands = []ainb.Command{{Name: "Main", Root: 0, Secondary: -1}}
	e := ainb.Element{Name: "Leaf"}
	e.Properties[ainb.ParamFloat] = []ainb.Property{
		{Name: "N", Value: ainb.Value{Float: ainb.F32(math.NaN())}},
		{Name: "I", Value: ainb.Value{Float: ainb.F32(math.Inf(1))}},
		{Name: "M", Value: ainb.Value{Float: ainb.F32(math.Inf(-1))}},
		{Name: "Z", Value: ainb.Value{Float: ainb.F32(math.Copysign(0, -1))}},
	}
	f.Elements = []ainb.Element{e}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "nonfinite.ainb")
	if err := os.WriteFile(src, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "dump", "-compat", src)
	if code != 0 {
		t.Fatalf("dump -compat: exit %d: %s", code, errs)
	}
	for _, s := range []string{`"Default Value": NaN,`, `"Default Value": Infinity,`, `"Default Value": -Infinity,`, `"Default Value": -0.0,`} {
		if !strings.Contains(out, s) {
			t.Errorf("dump lacks %q:\n%s", s, out)
		}
	}
}
