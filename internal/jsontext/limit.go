package jsontext

import (
	"slices"
	"strconv"
)

// TooLargeError is a text writer stopping at its budget: the text would be more than Limit
// bytes. Writers check the budget as they go, between the parts of a document, so a reply
// that grows far beyond its input is refused after at most Limit bytes (and one part) have
// been written, never after the whole text was built. Where names the part being written
// when the budget ran out, in the document's own vocabulary ("/root/Actors/12",
// "node 4031", "member Actor/Foo.bgyml"); it may be empty.
type TooLargeError struct {
	Limit int
	Where string
}

func (e *TooLargeError) Error() string {
	s := "the text passes its budget of " + strconv.Itoa(e.Limit) + " bytes"
	if e.Where != "" {
		s += " at " + e.Where
	}
	return s
}

// NoLimit is the budget of a writer that has none.
const NoLimit = int(^uint(0) >> 1)

// growSlack is the room Grow keeps ahead: more than any one small part of a document.
const growSlack = 4 << 10

// Grow makes room ahead in b once little is left, doubling its capacity but never by more
// than the budget leaves (plus a little): append's own growth of a large slice, a quarter
// at a time, allocated and copied a text of the budget's size five times over. Writers call
// it between parts.
func Grow(b []byte, limit int) []byte {
	if cap(b)-len(b) >= growSlack {
		return b
	}
	n := max(min(cap(b), limit-len(b)), 0) + growSlack
	return slices.Grow(b, n)
}
