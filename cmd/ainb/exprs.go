package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
	"ainbeditor/internal/zs"
)

// exprs prints the expressions of an AINB file as readable code, or with -check proves
// for each file that every function's readable text compiles back to its very bytes.
func exprs(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("exprs", stderr)
	checkMode := fs.Bool("check", false, "decompile and compile every function; print ok FILE or FAIL FILE: function N: reason")
	zsdic := zsdicFlag(fs)
	files, ok := parseArgs(fs, args)
	if !ok || len(files) == 0 || !*checkMode && len(files) != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	c, err := loadZs(*zsdic)
	if err != nil {
		say(stderr, "ainb: -zsdic: %v", err)
		return 1
	}
	defer c.Close()
	if !*checkMode {
		m, err := readExpressions(c, files[0])
		if err == nil {
			err = printExprs(stdout, m)
		}
		if err != nil {
			say(stderr, "ainb: %s: %v", files[0], err)
			return 1
		}
		return 0
	}
	status := 0
	for _, name := range files {
		m, err := readExpressions(c, name)
		if err == nil {
			err = checkExprs(m)
		}
		if err != nil {
			say(stdout, "FAIL %s: %v", name, err)
			status = 1
			continue
		}
		say(stdout, "ok %s", name)
	}
	return status
}

// readExpressions reads an AINB file (plain or compressed) and returns its expression
// module, nil when it has none.
func readExpressions(c *zs.Codec, name string) (*exb.Module, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	inner, _, err := newReader(c, len(b)).unwrapAll(b)
	if err != nil {
		return nil, err
	}
	if f := formatOf(inner); f == nil || f.name != "ainb" {
		return nil, fmt.Errorf("not an AINB file")
	}
	f, err := ainb.Read(inner)
	if err != nil {
		return nil, err
	}
	return f.Expressions, nil
}

func printExprs(w io.Writer, m *exb.Module) error {
	if m == nil {
		return nil
	}
	texts, err := m.FunctionSources()
	if err != nil {
		return err
	}
	for i, t := range texts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		// A signature is the game's name for a function, printed as the file spells it.
		fmt.Fprintf(w, "// function %d\n%s", i, termSafeText([]byte(t)))
	}
	return nil
}

// checkExprs sets every function to its own readable text and checks that nothing about
// the function changed: its table entry, its instructions and the tables it refers to.
func checkExprs(m *exb.Module) error {
	if m == nil {
		return nil
	}
	orig, err := m.AppendBinary(nil)
	if err != nil {
		return err
	}
	for i := range m.Functions {
		text, err := m.FunctionSource(i)
		if err != nil {
			// The decompiler's error names the function already; the line names it once.
			return fmt.Errorf("function %d: %s", i, strings.TrimPrefix(err.Error(), fmt.Sprintf("exb: function %d: ", i)))
		}
		before := snapshot(m, i)
		if err := m.SetFunctionSource(i, text); err != nil {
			return fmt.Errorf("function %d: its text does not compile: %v", i, err)
		}
		if after := snapshot(m, i); after != before {
			return fmt.Errorf("function %d: its text compiles to other instructions", i)
		}
	}
	out, err := m.AppendBinary(nil)
	if err != nil || !bytes.Equal(out, orig) {
		return fmt.Errorf("the expression section's bytes changed (%v)", err)
	}
	return nil
}

// snapshot is function i as stored: its entry, its blocks' instructions and the sizes of
// the tables an edit could grow.
func snapshot(m *exb.Module, i int) string {
	f := m.Functions[i]
	var b strings.Builder
	fmt.Fprintf(&b, "%+v %d %d %d %d;", f, len(m.Instructions), len(m.Params.Entries), len(m.Strings.Strings), len(m.Signatures))
	for _, blk := range [2]exb.Block{f.Setup, f.Main} {
		if blk.Present() && int(blk.Base)+int(blk.Count) <= len(m.Instructions) {
			fmt.Fprintf(&b, "%v;", slices.Clone(m.Instructions[blk.Base:int(blk.Base)+int(blk.Count)]))
		}
	}
	return b.String()
}
