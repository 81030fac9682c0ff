package server

import (
	"os"
	"runtime/debug"
)

// Collector settings for a conversion server, used unless GOGC or GOMEMLIMIT say otherwise.
// A conversion allocates several times its file's size in short-lived objects (the model,
// the document, the JSON) over a live heap of a few megabytes, so at the default GOGC of 100
// the collector runs several times per request and takes a good part of the CPU. At 400 it
// runs a fifth as often, for a heap up to five times what is live; the soft memory limit
// makes it collect as often as needed again when the heap nears it.
const (
	gcPercent   = 400
	memoryLimit = 1 << 30
)

// tuneGC applies the settings above where the environment sets none, and returns a function
// that restores the previous ones.
func tuneGC() (restore func()) {
	pct, limit := -2, int64(-1)
	if os.Getenv("GOGC") == "" {
		pct = debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(memoryLimit)
	}
	return func() {
		if pct != -2 {
			debug.SetGCPercent(pct)
		}
		if limit >= 0 {
			debug.SetMemoryLimit(limit)
		}
	}
}
