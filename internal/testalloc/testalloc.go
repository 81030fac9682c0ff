// Package testalloc measures what a piece of code allocates, for tests and fuzz targets that
// hold work to a fixed multiple of the input. It must never be imported by non-test code.
package testalloc

import "runtime"

// Bytes is how many bytes f allocates, all goroutines counted (a fuzzing worker runs one
// input at a time, so what it allocates is f's).
func Bytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Least is the least of runs measures of f by Bytes: for bounds of a few kilobytes, where
// an allocation of another goroutine now and then (the runtime's, the test runner's) would
// be counted as f's.
func Least(runs int, f func()) uint64 {
	least := Bytes(f)
	for range runs - 1 {
		least = min(least, Bytes(f))
	}
	return least
}
