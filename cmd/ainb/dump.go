package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/sarc"
)

type dumpOptions struct {
	compat bool   // AINB: the ainb Python library's JSON
	name   string // the file's name, which an editor document carries
}

func dump(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("dump", stderr)
	var opt dumpOptions
	fs.BoolVar(&opt.compat, "compat", false, "print AINB in the JSON format of the ainb Python library")
	zsdic := zsdicFlag(fs)
	files, ok := parseArgs(fs, args)
	if !ok || len(files) != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name := files[0]
	opt.name = filepath.Base(name)
	b, err := os.ReadFile(name)
	if err != nil {
		say(stderr, "ainb: %v", err)
		return 1
	}
	c, err := loadZs(*zsdic)
	if err != nil {
		say(stderr, "ainb: -zsdic: %v", err)
		return 1
	}
	defer c.Close()
	r := newReader(c, len(b))
	out, err := dumpData(r, b, opt)
	// Warnings go to stderr, so that the dump on stdout stays the file's text alone.
	for _, w := range r.warnings {
		say(stderr, "ainb: %s: warning: %s", name, w)
	}
	if err != nil {
		say(stderr, "ainb: %s: %v", name, err)
		return 1
	}
	stdout.Write(termSafeText(out))
	return 0
}

func dumpData(r *reader, b []byte, opt dumpOptions) ([]byte, error) {
	inner, ws, err := r.unwrapAll(b)
	if err != nil {
		return nil, err
	}
	f := formatOf(inner)
	switch {
	case f == nil:
		return nil, fmt.Errorf("unknown format (%s)", describeInner(inner, ws))
	case f.dump == nil:
		return nil, fmt.Errorf("this build has no %s codec", strings.ToUpper(f.name))
	case opt.compat && f.name != "ainb":
		return nil, fmt.Errorf("-compat applies to AINB only, this is %s", describeInner(inner, ws))
	}
	return f.dump(r, inner, opt)
}

func dumpAINB(r *reader, b []byte, opt dumpOptions) ([]byte, error) {
	f, err := ainb.Read(b)
	if err != nil {
		return nil, err
	}
	for _, p := range f.Warnings() {
		r.warn(p.String())
	}
	if opt.compat {
		return f.CompatJSON()
	}
	// The editor's own document, which /api/parse answers: what the file means, and in
	// "layout" what an unedited document needs to build the same bytes.
	d, err := graph.FromFile(opt.name, f, b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, d.Encode(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// buildAINB builds an AINB file from the editor document (it has "format") or from the
// community JSON (it has "Nodes").
func buildAINB(doc []byte, _ buildOptions) ([]byte, error) {
	if !hasMember(doc, "format") {
		f, err := ainb.ReadCompatJSON(doc)
		if err != nil {
			return nil, err
		}
		return f.Bytes()
	}
	d, err := graph.Decode(doc)
	if err != nil {
		return nil, err
	}
	if err := d.CheckFormat(); err != nil {
		return nil, err
	}
	return d.Build()
}

// hasMember reports whether the JSON object doc has a member named name at its top level.
// The community JSON may hold NaN and Infinity, which the scanner skips like any value.
func hasMember(doc []byte, name string) bool {
	s := jsontext.Scanner{Data: doc, NonFinite: true}
	if !s.Open('{') {
		return false
	}
	var buf [64]byte
	for n := 0; s.More('}', n); n++ {
		if k, _ := s.Key(buf[:0]); s.Err == nil && string(k) == name {
			return true
		}
		s.Skip()
	}
	return false
}

// dumpSARC lists the archive's files in SFAT order: name, size and format (with the
// compression layers around it, as in "zstd+byml").
func dumpSARC(r *reader, b []byte, _ dumpOptions) ([]byte, error) {
	a, err := sarc.Read(b)
	if err != nil {
		return nil, err
	}
	// Names pad to a column of at most maxNameColumn bytes: one long name among many
	// short ones must not pad every line to its length.
	const maxNameColumn = 64
	// The names are the archive's, printed for a terminal: escaped (termSafe).
	names := make([]string, len(a.Files))
	nameW, sizeW := 0, 0
	for i, f := range a.Files {
		names[i] = termSafe(f.Name)
		nameW = min(max(nameW, len(names[i])), maxNameColumn)
		sizeW = max(sizeW, len(fmt.Sprint(len(f.Data))))
	}
	var out []byte
	for i, f := range a.Files {
		out = fmt.Appendf(out, "%-*s  %*d  %s\n", nameW, names[i], sizeW, len(f.Data), r.describe(f.Data))
	}
	return out, nil
}

// describe names b's format and compression layers, outermost first: "sarc", "yaz0+sarc",
// `unknown "FRES"`; a layer it cannot decode ends the list with "?".
func (r *reader) describe(b []byte) string {
	var ws []*wrapper
	for w := wrapperOf(b); w != nil; w = wrapperOf(b) {
		ws = append(ws, w)
		inner, err := r.unwrap(w, b)
		if err != nil || len(ws) > maxDepth {
			return layers(ws) + "?"
		}
		b = inner
	}
	return describeInner(b, ws)
}

func describeInner(b []byte, ws []*wrapper) string {
	if f := formatOf(b); f != nil {
		return layers(ws) + f.name
	}
	magic := b[:min(len(b), 4)]
	if strings.IndexFunc(string(magic), func(c rune) bool { return c > unicode.MaxASCII || !unicode.IsPrint(c) }) >= 0 || len(magic) == 0 {
		return layers(ws) + "unknown"
	}
	return layers(ws) + fmt.Sprintf("unknown %q", magic)
}

func layers(ws []*wrapper) string {
	var s string
	for _, w := range ws {
		s += w.Kind + "+"
	}
	return s
}
