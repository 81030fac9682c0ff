// Package chunk hands out short slices carved from shared arrays. A model read from a file or
// a document has thousands of short lists (a node's properties, inputs, plugs, ids); one
// allocation per array instead of one per list saves most of the allocator's and the
// collector's work.
//
// A slice it hands out never overlaps another and its capacity is its length, so appending
// to it later copies it out of the shared array instead of writing into a neighbour. It never
// hands out nil, since some empty lists mean something (an input whose sources were all
// disconnected stays a multi-input).
package chunk

// Len is the length of a shared array; a list of a quarter of it or more gets its own.
const Len = 64

// Of hands out slices of T. The zero value is ready to use.
type Of[T any] struct{ free []T }

// Reserve makes the next shared array exactly n long, for a caller that knows how many
// values all its lists hold.
func (c *Of[T]) Reserve(n int) { c.free = make([]T, n) }

// Take returns a slice of n zero values.
func (c *Of[T]) Take(n int) []T {
	if n == 0 {
		return []T{}
	}
	if n > len(c.free) {
		if n >= Len/4 {
			return make([]T, n)
		}
		c.free = make([]T, Len)
	}
	s := c.free[:n:n]
	c.free = c.free[n:]
	return s
}

// New returns a pointer to a new zero value.
func (c *Of[T]) New() *T { return &c.Take(1)[0] }

// Clone returns a copy of s, or nil when s is empty.
func Clone[T any](c *Of[T], s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := c.Take(len(s))
	copy(out, s)
	return out
}
