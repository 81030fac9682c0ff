//go:build !unix

package pgtest

import (
	"os"
	"os/exec"
)

func own(string) error        { return nil }
func asServerUser(*exec.Cmd)  {}
func interrupt(p *os.Process) { p.Kill() }
