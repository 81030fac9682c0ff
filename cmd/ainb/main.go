// Command ainb checks, dumps and builds the game files the editor's codecs read: AINB, AAMP,
// BYML and SARC (and TotK's zstd dictionaries), plain or wrapped in Yaz0 or TotK's zstd, each
// recognized by its magic.
//
//	ainb check FILE...                parse, write again, compare; "ok FILE" or "FAIL FILE: reason"
//	ainb dump [-compat] FILE          AINB as the editor document, AAMP and BYML as YAML, SARC as a file list
//	ainb build FILE -o OUT            build a binary from AINB JSON, AAMP YAML or BYML YAML
//	ainb exprs [-check] FILE...       expressions as readable code; -check: they compile back exactly
//	ainb unpack PACK DIR              write a SARC's files under DIR
//	ainb pack DIR -o PACK             build a SARC from DIR's files
//	ainb diff [-json] A B             what changed from A to B (AINB by meaning, packs member by member)
//	ainb merge BASE OURS THEIRS -o OUT  three-way merge of AINB files or packs
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  ainb check [-zsdic PATH] FILE...    parse each file, write it again from the model and compare
  ainb dump [-compat] [-zsdic PATH] FILE
                                      print AINB as the editor document (-compat: the ainb Python
                                      library's JSON), AAMP and BYML as YAML, SARC as a list of
                                      its files
  ainb build [-yaz0] [-byml-version N] [-be] [-zsdic PATH] FILE -o OUT
                                      build a binary from AINB JSON (the editor document or the
                                      community JSON), AAMP YAML
                                      (tagged !io) or BYML YAML (any other YAML; -byml-version 1
                                      to 7, default 2, and -be for big endian say how to write it);
                                      OUT ending in .zs is zstd-compressed with the game's
                                      dictionary for that name, OUT ending in .szs or another .s*
                                      name (not .sarc), or -yaz0, is Yaz0-compressed
  ainb exprs [-zsdic PATH] FILE      print every expression function of an AINB file as readable code
  ainb exprs -check [-zsdic PATH] FILE...
                                      decompile and compile every function; "ok FILE" or
                                      "FAIL FILE: function N: reason"
  ainb unpack [-zsdic PATH] PACK DIR  write every file of a SARC (plain, Yaz0 or .zs) under DIR,
                                      with DIR/.sarc.yml recording the archive's layout
  ainb pack [-yaz0] [-zsdic PATH] DIR -o PACK
                                      build a SARC from every file under DIR (compressed as build)
  ainb diff [-json] [-zsdic PATH] A B list what changed from A to B, one change a line (-json:
                                      as JSON): AINB files by meaning (nodes matched by GUID
                                      or place), packs member by member; exit 0 without
                                      changes, 1 with, 2 on trouble
  ainb merge [-prefer ours|theirs] [-zsdic PATH] BASE OURS THEIRS -o OUT
                                      three-way merge of AINB files or packs: changes of
                                      either side combine; conflicts are listed and nothing is
                                      written (exit 1) unless -prefer settles them; OUT is
                                      compressed as build's, a pack keeps OURS's wrapping

Files wrapped in Yaz0 or zstd are recognized by magic and unwrapped. Files compressed with
TotK's dictionaries need -zsdic PATH (or the environment variable AINB_ZSDIC) naming the
game's Pack/ZsDic.pack.zs.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdout, stderr)
	case "dump":
		return dump(args[1:], stdout, stderr)
	case "build":
		return build(args[1:], stderr)
	case "exprs":
		return exprs(args[1:], stdout, stderr)
	case "unpack":
		return unpack(args[1:], stderr)
	case "pack":
		return pack(args[1:], stderr)
	case "diff":
		return diffCommand(args[1:], stdout, stderr)
	case "merge":
		return mergeCommand(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	say(stderr, "ainb: unknown command %q", args[0])
	fmt.Fprint(stderr, usage)
	return 2
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return fs
}

func zsdicFlag(fs *flag.FlagSet) *string {
	return fs.String("zsdic", "", "path of the game's ZsDic.pack.zs (default $AINB_ZSDIC)")
}

// parseArgs parses flags placed anywhere among the arguments (build always took -o before
// or after its input) and returns the other arguments.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, bool) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, true
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// isSet reports whether the flag was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
