//go:build !linux

package pgtest

import "testing"

// Pause stops the cluster's processes; it finds them through /proc, so only on Linux.
func (c *Cluster) Pause(t testing.TB) (resume func()) {
	t.Helper()
	t.Fatal("pgtest: Pause finds the server's processes through Linux's /proc")
	return nil
}
