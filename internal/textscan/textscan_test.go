package textscan

import (
	"math/rand/v2"
	"testing"
)

// plainByte is the byte-at-a-time definition PlainRun must agree with.
func plainByte(c byte, del bool) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' || c == 0x7f && del
}

func slowRun(s string, i int, del bool) int {
	for i < len(s) && plainByte(s[i], del) {
		i++
	}
	return i
}

// TestPlainRunEveryByte puts each of the 256 byte values at each position of a plain run
// of every length up to 24, so that every lane of a word meets every byte.
func TestPlainRunEveryByte(t *testing.T) {
	for _, del := range []bool{false, true} {
		for n := 0; n <= 24; n++ {
			for at := 0; at <= n; at++ {
				for c := 0; c < 256; c++ {
					b := make([]byte, n+1)
					for k := range b {
						b[k] = 'a' + byte(k%26)
					}
					b[at] = byte(c)
					s := string(b[:n]) // at == n: the byte lies past the end
					for start := 0; start <= min(n, 3); start++ {
						if got, want := PlainRun(s, start, del), slowRun(s, start, del); got != want {
							t.Fatalf("del=%v s=%q start %d: got %d, want %d", del, s, start, got, want)
						}
					}
				}
			}
		}
	}
}

// TestPlainRunRandom compares with the definition on random text rich in the boundary bytes.
func TestPlainRunRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := []byte{0x1f, 0x20, 0x21, 0x22, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xe3, 0xff, 0x00, 'x'}
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for k := range b {
			if r.IntN(4) == 0 {
				b[k] = pick[r.IntN(len(pick))]
			} else {
				b[k] = byte(0x20 + r.IntN(0x5f))
			}
		}
		s := string(b)
		for _, del := range []bool{false, true} {
			start := 0
			if len(s) > 0 {
				start = r.IntN(len(s) + 1)
			}
			if got, want := PlainRun(s, start, del), slowRun(s, start, del); got != want {
				t.Fatalf("del=%v s=%q start %d: got %d, want %d", del, s, start, got, want)
			}
		}
	}
}

func BenchmarkPlainRun(b *testing.B) {
	s := "Attack Wind Bow Search Light Escape Distance Combo Glide Heal Search Mode Arrow"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		PlainRun(s, 0, false)
	}
}
