// Command ainb checks, dumps and builds AINB files with the editor's own codec.
//
//	ainb check FILE...                 parse, write again, compare; "ok FILE" or "FAIL FILE: reason"
//	ainb dump [-compat] FILE           print the project's JSON, or with -compat the ainb Python library's
//	ainb build FILE.json -o OUT.ainb   build a binary from either JSON format
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"ainbeditor/internal/ainb"
)

const usage = `usage:
  ainb check FILE...                 parse each file, write it again from the model and compare
  ainb dump [-compat] FILE           print the file as the project's JSON (-compat: the ainb Python library's JSON)
  ainb build FILE.json -o OUT.ainb   build a binary from either JSON format
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
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "ainb: unknown command %q\n%s", args[0], usage)
	return 2
}

func check(files []string, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	status := 0
	for _, name := range files {
		if err := checkFile(name); err != nil {
			fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
			status = 1
			continue
		}
		fmt.Fprintf(stdout, "ok %s\n", name)
	}
	return status
}

func checkFile(name string) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	f, err := ainb.Read(b)
	if err != nil {
		return err
	}
	out, err := f.Bytes()
	if err != nil {
		return err
	}
	if !bytes.Equal(b, out) {
		return differs(b, out)
	}
	return nil
}

func differs(a, b []byte) error {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Errorf("written file differs at offset %#x (%#02x, was %#02x)", i, b[i], a[i])
		}
	}
	return fmt.Errorf("written file is %d bytes, was %d", len(b), len(a))
}

func dump(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	compat := fs.Bool("compat", false, "print the JSON format of the ainb Python library")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	b, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "ainb:", err)
		return 1
	}
	f, err := ainb.Read(b)
	if err != nil {
		fmt.Fprintf(stderr, "ainb: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	var out []byte
	if *compat {
		out, err = f.CompatJSON()
	} else {
		out, err = f.JSON()
	}
	if err != nil {
		fmt.Fprintf(stderr, "ainb: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	stdout.Write(out)
	return 0
}

func build(args []string, stderr io.Writer) int {
	// Accept -o before or after the input file.
	var in, out string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-o" && i+1 < len(args):
			out = args[i+1]
			i++
		case in == "" && a != "-o":
			in = a
		default:
			fmt.Fprint(stderr, usage)
			return 2
		}
	}
	if in == "" || out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	data, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintln(stderr, "ainb:", err)
		return 1
	}
	f, err := ainb.ReadAnyJSON(data)
	if err == nil {
		data, err = f.Bytes()
	}
	if err != nil {
		var verr *ainb.ValidationError
		if errors.As(err, &verr) {
			fmt.Fprintf(stderr, "ainb: %s: %d problems:\n", in, len(verr.Problems))
			for _, p := range verr.Problems {
				fmt.Fprintf(stderr, "  %s\n", p)
			}
			return 1
		}
		fmt.Fprintf(stderr, "ainb: %s: %v\n", in, err)
		return 1
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		fmt.Fprintln(stderr, "ainb:", err)
		return 1
	}
	return 0
}
