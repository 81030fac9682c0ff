package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/zs"
)

func check(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	zsdic := zsdicFlag(fs)
	files, ok := parseArgs(fs, args)
	if !ok || len(files) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	c, err := loadZs(*zsdic)
	if err != nil {
		say(stderr, "ainb: -zsdic: %v", err)
		return 1
	}
	defer c.Close()
	status := 0
	for _, name := range files {
		warnings, err := checkFile(c, name)
		if err != nil {
			say(stdout, "FAIL %s: %v", name, err)
			status = 1
		} else {
			say(stdout, "ok %s", name)
		}
		// What a layer accepted although it breaks a rule of its format, or stores a reference
		// that names nothing (kept as it is): not a failure.
		for _, w := range warnings {
			say(stdout, "warning %s: %s", name, w)
		}
	}
	return status
}

func checkFile(c *zs.Codec, name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	r := newReader(c, len(b))
	err = r.check(b, true)
	return r.warnings, err
}

// check checks b through every layer it can read: compression is removed (and this tool's
// encoder must give back a stream that decodes to the same bytes), the format found by magic
// must write the same bytes again from its model, and archives check their members. Data
// below a layer the tool read, in a format it cannot read, is taken as it is; a whole file
// in such a format (top) fails.
func (r *reader) check(b []byte, top bool) error {
	if r.depth == maxDepth {
		return fmt.Errorf("more than %d nested layers", maxDepth)
	}
	r.depth++
	defer func() { r.depth-- }()
	if w := wrapperOf(b); w != nil {
		inner, err := r.unwrap(w, b)
		if err != nil {
			return err
		}
		if err := r.recompress(w, b, inner); err != nil {
			return err
		}
		return r.check(inner, false)
	}
	f := formatOf(b)
	switch {
	case f != nil && f.check != nil:
		return f.check(r, b)
	case !top:
		return nil
	case f == nil:
		return fmt.Errorf("unknown format (magic %q)", b[:min(len(b), 4)])
	}
	return fmt.Errorf("this build has no %s codec", strings.ToUpper(f.name))
}

// checkSARC checks the archive byte for byte, then each member, stopping at the first that
// fails.
func checkSARC(r *reader, b []byte) error {
	a, err := sarc.Read(b)
	if err != nil {
		return err
	}
	for _, w := range a.Warnings() {
		r.warn(w.String())
	}
	out, err := a.Bytes()
	if err := sameBytes(b, out, err); err != nil {
		return err
	}
	for _, f := range a.Files {
		r.members = append(r.members, f.Name)
		err := r.check(f.Data, false)
		r.members = r.members[:len(r.members)-1]
		if err != nil {
			return fmt.Errorf("member %s: %w", f.Name, err)
		}
	}
	return nil
}

// warn records a warning about the layer being checked, named by the members it is in.
func (r *reader) warn(text string) {
	for i := len(r.members) - 1; i >= 0; i-- {
		text = "member " + r.members[i] + ": " + text
	}
	r.warnings = append(r.warnings, text)
}
