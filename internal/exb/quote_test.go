package exb

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"
)

// TestAppendQuote checks the bulk quoter against strconv.Quote on edge cases and on random
// strings of ASCII, control bytes, invalid UTF-8 and runes from all over the code space.
func TestAppendQuote(t *testing.T) {
	cases := []string{"", "a", `"`, `\`, "\x00", "\x7f", "\xff", "é", "\u00a0", "\u2028", "\ufffd",
		"\U0001F600", "\U000E0001", "a\xc3", "\xed\xa0\x80", "x\ty\nz", "日本語\x01"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range r.IntN(12) {
			switch r.IntN(5) {
			case 0:
				b = append(b, byte(r.IntN(0x80)))
			case 1:
				b = append(b, byte(r.IntN(0x100)))
			case 2:
				b = utf8.AppendRune(b, rune(r.IntN(0x3000)))
			default:
				b = utf8.AppendRune(b, rune(r.IntN(utf8.MaxRune+1)))
			}
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := string(appendQuote([]byte("p"), s)), "p"+strconv.Quote(s); got != want {
			t.Fatalf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendQuote(f *testing.F) {
	f.Add("é\x00\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendQuote(nil, s)), strconv.Quote(s); got != want {
			t.Fatalf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestIsPrint checks the cached table against strconv.IsPrint over the whole code space.
func TestIsPrint(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if isPrint(r) != strconv.IsPrint(r) {
			t.Fatalf("isPrint(%U) = %v, strconv says %v", r, isPrint(r), strconv.IsPrint(r))
		}
	}
}
