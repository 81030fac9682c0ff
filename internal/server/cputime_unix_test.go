//go:build unix

package server

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, user and system: the load test divides it
// by the requests served, a figure that other jobs on the machine do not distort.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
