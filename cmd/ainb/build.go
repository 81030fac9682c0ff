package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

func build(args []string, stderr io.Writer) int {
	fs := newFlags("build", stderr)
	out := fs.String("o", "", "output file")
	fs.Bool("yaz0", false, "Yaz0-compress the output (default: when OUT ends in .szs or another .s* name but .sarc)")
	zsdic := zsdicFlag(fs)
	bymlVersion := fs.Uint("byml-version", 2, "BYML: the version to write from YAML, 1 to 7 (Super Mario Odyssey, Splatoon 2: 1 or 3; Breath of the Wild: 2; Tears of the Kingdom: 7)")
	bigEndian := fs.Bool("be", false, "BYML: write big endian (Wii U)")
	files, ok := parseArgs(fs, args)
	if !ok || len(files) != 1 || *out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	in := files[0]
	data, err := os.ReadFile(in)
	if err != nil {
		say(stderr, "ainb: %v", err)
		return 1
	}
	var f *format
	for _, g := range formats {
		if g.text != nil && g.text(data) {
			f = g
			break
		}
	}
	if *bymlVersion < 1 || *bymlVersion > 7 {
		say(stderr, "ainb: -byml-version %d: BYML is written in versions 1 to 7", *bymlVersion)
		return 2
	}
	bin, err := f.fromText(data, buildOptions{bymlVersion: uint16(*bymlVersion), bigEndian: *bigEndian})
	if err != nil {
		var verr *ainb.ValidationError
		if errors.As(err, &verr) {
			printProblems(stderr, in, verr.Problems)
			return 1
		}
		var perr *graph.ProblemsError
		if errors.As(err, &perr) {
			printProblems(stderr, in, perr.Problems)
			return 1
		}
		say(stderr, "ainb: %s: %v", in, err)
		return 1
	}
	return writeOutput(fs, *out, bin, 0, *zsdic, stderr)
}

// printProblems lists a document's problems, one a line, each with its path.
func printProblems[P fmt.Stringer](w io.Writer, in string, problems []P) {
	say(w, "ainb: %s: %d problems:", in, len(problems))
	for _, p := range problems {
		say(w, "  %s", p)
	}
}

// writeOutput compresses data as the output's name asks (or -yaz0 says) and writes it.
// yaz0Align goes into a Yaz0 header.
func writeOutput(fs *flag.FlagSet, out string, data []byte, yaz0Align uint32, zsdic string, stderr io.Writer) int {
	wantYaz0 := isYaz0Name(out)
	if isSet(fs, "yaz0") {
		wantYaz0 = fs.Lookup("yaz0").Value.(flag.Getter).Get().(bool)
	}
	var err error
	// A new .zs file has no frame yet to name its dictionary: its name says which the game
	// expects.
	dict, isZs := zs.DictFor(filepath.Base(out))
	switch {
	case isZs && isSet(fs, "yaz0") && wantYaz0:
		say(stderr, "ainb: %s: -yaz0 and a .zs name ask for two compressions", out)
		return 2
	case isZs:
		var c *zs.Codec
		if c, err = loadZs(zsdic); err != nil {
			say(stderr, "ainb: -zsdic: %v", err)
			return 1
		}
		data, err = c.Compress(dict, data, zs.Smallest)
		c.Close()
		if errors.Is(err, zs.ErrMissingDict) {
			err = fmt.Errorf("%w; give its path with -zsdic PATH or AINB_ZSDIC", err)
		}
	case wantYaz0:
		data, err = yaz0.Compress(data, yaz0Align)
	}
	if err == nil {
		err = os.WriteFile(out, data, 0o644)
	}
	if err != nil {
		say(stderr, "ainb: %v", err)
		return 1
	}
	return 0
}

// isYaz0Name reports whether a file of this name is Yaz0-compressed in the games: .szs and
// the other "s" + extension names (.sbyml, .sbactorpack, .sbeventpack, .shknm2, ...), but
// not .sarc, which is a plain archive.
func isYaz0Name(name string) bool {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	return len(ext) >= 3 && ext[0] == 's' && ext != "sarc"
}
