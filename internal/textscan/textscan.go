// Package textscan finds, eight bytes at a time, the runs of text that quoting copies as
// they are, for the quoters of JSON strings and of expression string literals: names and
// strings are mostly plain ASCII, and a byte-at-a-time table walk was most of their cost.
// It only measures runs; what a quoter does with the other bytes is its own business.
package textscan

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// hasByte reports whether any byte of w is b.
func hasByte(w uint64, b byte) bool {
	v := w ^ (ones * uint64(b))
	return (v-ones)&^v&highs != 0
}

// PlainRun returns the end of the run starting at i of bytes from 0x20 to 0x7e other than
// '"' and '\\' (or to 0x7f when del is true, as JSON allows). s[i:] is returned whole when it
// is all such bytes.
func PlainRun(s string, i int, del bool) int {
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x20 borrows into its high bit; one of 0x80 or more has it set.
		if (w-ones*0x20)&^w&highs != 0 || w&highs != 0 || hasByte(w, '"') || hasByte(w, '\\') ||
			!del && hasByte(w, 0x7f) {
			break
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7f || c == '"' || c == '\\' || c == 0x7f && !del {
			break
		}
	}
	return i
}
