package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/wrap"
)

// manifestName is the file unpack writes beside the archive's files with the layout facts a
// rebuilt archive needs to come out byte for byte; pack reads it and leaves it out.
const manifestName = ".sarc.yml"

type manifest struct {
	BigEndian      bool   `yaml:"big_endian"`
	HashMultiplier uint32 `yaml:"hash_multiplier"`
	MinAlignment   uint32 `yaml:"min_alignment"`
	Yaz0Alignment  uint32 `yaml:"yaz0_alignment"`
}

func unpack(args []string, stderr io.Writer) int {
	fset := newFlags("unpack", stderr)
	zsdic := zsdicFlag(fset)
	files, ok := parseArgs(fset, args)
	if !ok || len(files) != 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	src, dir := files[0], files[1]
	if err := unpackFile(src, dir, *zsdic); err != nil {
		say(stderr, "ainb: %s: %v", src, err)
		return 1
	}
	return 0
}

func unpackFile(src, dir, zsdic string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	c, err := loadZs(zsdic)
	if err != nil {
		return fmt.Errorf("-zsdic: %w", err)
	}
	defer c.Close()
	a, _, err := newReader(c, len(b)).archive(b)
	if err != nil {
		return err
	}
	// Refuse before writing anything.
	names := make(map[string]bool, len(a.Files))
	dirs := make(map[string]bool)
	for _, f := range a.Files {
		if err := checkMemberName(f.Name); err != nil {
			return fmt.Errorf("member %q: %v", f.Name, err)
		}
		if names[f.Name] {
			return fmt.Errorf("member %q: name occurs twice", f.Name)
		}
		names[f.Name] = true
		for i := range len(f.Name) {
			if f.Name[i] == '/' {
				dirs[f.Name[:i]] = true
			}
		}
	}
	for _, f := range a.Files {
		if dirs[f.Name] {
			return fmt.Errorf("member %q: another member's name uses it as a directory", f.Name)
		}
	}
	if names[manifestName] {
		return fmt.Errorf("member %q: the name unpack keeps for the archive's layout", manifestName)
	}

	m := manifest{BigEndian: a.BigEndian, HashMultiplier: a.HashMultiplier, MinAlignment: a.MinAlignment}
	if w := wrap.Of(b); w.Kind == wrap.Yaz0 {
		m.Yaz0Alignment = w.Yaz0Alignment
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The root keeps every write inside dir even through symbolic links already there.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range a.Files {
		if i := strings.LastIndexByte(f.Name, '/'); i >= 0 {
			if err := root.MkdirAll(f.Name[:i], 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(f.Name, f.Data, 0o644); err != nil {
			return err
		}
	}
	text := fmt.Sprintf("# Written by ainb unpack; ainb pack reads it to lay the archive out as it was.\n"+
		"big_endian: %t\nhash_multiplier: %d\nmin_alignment: %d\nyaz0_alignment: %d\n",
		m.BigEndian, m.HashMultiplier, m.MinAlignment, m.Yaz0Alignment)
	return root.WriteFile(manifestName, []byte(text), 0o644)
}

// checkMemberName refuses names that would not land inside the output directory as one
// file of that very name.
func checkMemberName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case strings.HasPrefix(name, "/"), filepath.IsAbs(name):
		return fmt.Errorf("absolute path")
	case strings.ContainsRune(name, '\\'):
		return fmt.Errorf("backslash in name")
	}
	for part := range strings.SplitSeq(name, "/") {
		switch part {
		case "..":
			return fmt.Errorf(`".." in path`)
		case "", ".":
			return fmt.Errorf("empty or \".\" path element")
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return fmt.Errorf("not a local path")
	}
	return nil
}

func pack(args []string, stderr io.Writer) int {
	fset := newFlags("pack", stderr)
	out := fset.String("o", "", "output archive")
	fset.Bool("yaz0", false, "Yaz0-compress the output (default: when PACK ends in .szs or another .s* name but .sarc)")
	zsdic := zsdicFlag(fset)
	files, ok := parseArgs(fset, args)
	if !ok || len(files) != 1 || *out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	dir := files[0]
	data, yaz0Align, err := packDir(dir)
	if err != nil {
		say(stderr, "ainb: %s: %v", dir, err)
		return 1
	}
	return writeOutput(fset, *out, data, yaz0Align, *zsdic, stderr)
}

// packDir builds an archive of every regular file under dir, laid out by dir's manifest if
// it has one.
func packDir(dir string) ([]byte, uint32, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	m := manifest{HashMultiplier: 0x65, MinAlignment: 4}
	if text, err := root.ReadFile(manifestName); err == nil {
		dec := yaml.NewDecoder(bytes.NewReader(text))
		dec.KnownFields(true)
		if err := dec.Decode(&m); err != nil {
			return nil, 0, fmt.Errorf("%s: %v", manifestName, err)
		}
	} else if !os.IsNotExist(err) {
		return nil, 0, err
	}
	a := &sarc.Archive{BigEndian: m.BigEndian, HashMultiplier: m.HashMultiplier, MinAlignment: m.MinAlignment}
	err = fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() || name == manifestName:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", name)
		}
		data, err := root.ReadFile(name)
		if err != nil {
			return err
		}
		return a.Add(name, data)
	})
	if err != nil {
		return nil, 0, err
	}
	data, err := a.Bytes()
	return data, m.Yaz0Alignment, err
}
