// Command docdecl writes the declarations of the editor document that internal/graph/types.go
// implies (see package docdecl). Run by go generate in internal/graph.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"ainbeditor/internal/graph/docdecl"
)

func main() {
	files, err := docdecl.Generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "docdecl:", err)
		os.Exit(1)
	}
	for path, data := range files {
		if err := os.WriteFile(filepath.FromSlash(path), data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "docdecl:", err)
			os.Exit(1)
		}
	}
}
