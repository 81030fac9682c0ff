//go:build !unix

package server

import "time"

func cpuTime() time.Duration { return 0 }
