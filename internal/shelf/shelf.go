// Package shelf keeps a few scratch values (buffers, arenas) from one conversion to the next.
//
// sync.Pool loses them in the common case of one conversion at a time: the converting
// goroutine moves between Ps while the collector's workers run, a value Put on one P waits
// in that P's private slot, which a Get on another P cannot take, and two collections later
// the value is dropped. The decompiler then grew its arenas again on most parses of an
// expression-heavy file, a sixth of the parse's CPU.
//
// A shelf never empties on its own: what it holds stays allocated for the life of the
// process. It must only hold values whose size the caller has capped, and never a value
// still in use.
package shelf

import "sync/atomic"

// Slots is how many values a shelf holds: enough for the conversions a server runs at once
// on a few cores; a value put on a full shelf is left to the collector.
const Slots = 4

// Of holds up to Slots values of type *T. The zero value is an empty shelf, safe for
// concurrent use.
type Of[T any] struct {
	slots [Slots]atomic.Pointer[T]
}

// Get takes a value off the shelf, or returns nil when it is empty.
func (s *Of[T]) Get() *T {
	for i := range s.slots {
		if v := s.slots[i].Swap(nil); v != nil {
			return v
		}
	}
	return nil
}

// Put puts v on the shelf, if there is room; the caller must not use v afterwards.
func (s *Of[T]) Put(v *T) {
	if v == nil {
		return
	}
	for i := range s.slots {
		if s.slots[i].CompareAndSwap(nil, v) {
			return
		}
	}
}
