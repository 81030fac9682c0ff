package pgtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// Pause stops the cluster's processes with SIGSTOP, the server and every backend, as a
// network partition or a hung host would look to its clients: connections stay open and
// nothing answers. It returns a function that resumes them (SIGCONT); the cluster is resumed
// when t's test ends in any case, so it can be shut down.
func (c *Cluster) Pause(t testing.TB) (resume func()) {
	t.Helper()
	pids := append([]int{c.cmd.Process.Pid}, descendants(c.cmd.Process.Pid)...)
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatalf("pgtest: stopping process %d: %v", pid, err)
		}
	}
	resumed := false
	resume = func() {
		if resumed {
			return
		}
		resumed = true
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	}
	t.Cleanup(resume)
	return resume
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so the fields
		// are counted from the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(string(f[1])); err == nil {
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for a := parent[p]; a > 1; a = parent[a] {
			if a == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
