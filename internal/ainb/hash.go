package ainb

import "github.com/spaolacci/murmur3"

// Hash is the name hash the game stores beside element, attachment and file-reference names:
// 32-bit murmur3 of the UTF-8 bytes with seed 0.
func Hash(s string) uint32 { return murmur3.Sum32([]byte(s)) }
