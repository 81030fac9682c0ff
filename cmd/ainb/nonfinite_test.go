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
	e.Properties.Set(ainb.ParamFloat, []ainb.Property{
		{Name: "N", Value: ainb.Value{Float: ainb.F32(math.NaN())}},
		{Name: "I", Value: ainb.Value{Float: ainb.F32(math.Inf(1))}},
		{Name: "M", Value: ainb.Value{Float: ainb.F32(math.Inf(-1))}},
		{Name: "Z", Value: ainb.Value{Float: ainb.F32(math.Copysign(0, -1))}},
	})
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

	// The dump builds back, every float with its bits (Python keeps no NaN payload, so a NaN
	// comes back as the quiet NaN 0x7fc00000).
	dir := filepath.Dir(src)
	jsonPath, outPath := filepath.Join(dir, "nonfinite.json"), filepath.Join(dir, "rebuilt.ainb")
	if err := os.WriteFile(jsonPath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "build", jsonPath, "-o", outPath); code != 0 {
		t.Fatalf("build of the dump: exit %d: %s", code, errs)
	}
	rb, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ainb.Read(rb)
	if err != nil {
		t.Fatal(err)
	}
	props := g.Elements[0].Properties.Of(ainb.ParamFloat)
	want := []uint32{0x7fc00000, 0x7f800000, 0xff800000, 0x80000000}
	for i, p := range props {
		if got := math.Float32bits(float32(p.Value.Float)); i >= len(want) || got != want[i] {
			t.Errorf("rebuilt property %d (%s): bits %#08x, want %#08x", i, p.Name, got, want[i])
		}
	}
	if len(props) != len(want) {
		t.Errorf("rebuilt file has %d float properties, want %d", len(props), len(want))
	}
}
