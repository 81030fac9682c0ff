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

// TestAppendQuoteThreeByte covers the inline three-byte path: every rune it decodes, each
// between ASCII, and its lead bytes with boundary continuation bytes, cut short too.
func TestAppendQuoteThreeByte(t *testing.T) {
	var cases []string
	for r := rune(0x3000); r < 0xd000; r++ {
		cases = append(cases, "a"+string(r)+"b")
	}
	conts := []byte{0x00, 0x22, 0x7f, 0x80, 0xbf, 0xc0, 0xe3, 0xff}
	for c := 0xe0; c < 0xf0; c++ {
		for _, c1 := range conts {
			for _, c2 := range conts {
				for l := 1; l <= 3; l++ {
					cases = append(cases, string([]byte{byte(c), c1, c2}[:l]), string([]byte{byte(c), c1, c2}[:l])+"x")
				}
			}
		}
	}
	for _, s := range cases {
		if got, want := string(appendQuote(nil, s)), strconv.Quote(s); got != want {
			t.Fatalf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendQuoteMixed checks the kana loop, single spaces between kana taken inside it, on
// random text of kana and CJK (U+3000, which is not printable, among them), spaces, ASCII
// words and the bytes around them, at every length around the eight-byte words.
func TestAppendQuoteMixed(t *testing.T) {
	pieces := []string{" ", "  ", "a", "Event", "\"", "\\", "\n", "\x7f", "\xe3", "\xe3\x81", "\xe3\x81 ",
		"ジ", "ャ", "漢", "\u3000", "\ufffd", "\ud7ff", "\xed\xa0\x80", "\u00a0", "…", "\U0001F600"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		var b []byte
		for range r.IntN(20) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		s := string(b)
		if got, want := string(appendQuote(nil, s)), strconv.Quote(s); got != want {
			t.Fatalf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendQuote(f *testing.F) {
	f.Add("é\x00\xff")
	f.Add("ジャンプ 攻撃 Event\u3000\xe3\x81 ")
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

// unquoteWant is what the string literal reader did before unquotePrefix: strconv's two calls.
func unquoteWant(s string) (string, int, bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil || q[0] != '"' {
		return "", 0, false
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", 0, false
	}
	return v, len(q), true
}

func TestUnquotePrefix(t *testing.T) {
	cases := []string{``, `"`, `""`, `"a"`, `"a" ; x`, `"\"" x`, `"\'"`, "\"a\nb\"", `"\xff\u00ff\U0001F600\n\t\\"`,
		"\"\xff\"", "\"é\xc3\" rest", `"\400"`, `"\x4"`, "'a'", "`a`", `"abc`, `"a\"`, "\"\x00\x7f\""}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b []byte
		b = append(b, '"')
		for range r.IntN(10) {
			switch r.IntN(6) {
			case 0:
				b = append(b, byte(r.IntN(0x80)))
			case 1:
				b = append(b, byte(r.IntN(0x100)))
			case 2:
				b = append(b, '\\', "xuU01234567abtnr\"'\\"[r.IntN(19)])
			default:
				b = utf8.AppendRune(b, rune(r.IntN(utf8.MaxRune+1)))
			}
		}
		if r.IntN(4) != 0 {
			b = append(b, '"')
		}
		cases = append(cases, string(b), strconv.Quote(string(b)))
	}
	for _, s := range cases {
		v, n, ok := unquotePrefix(s, false)
		wv, wn, wok := unquoteWant(s)
		if v != wv || n != wn || ok != wok {
			t.Fatalf("unquotePrefix(%q) = %q, %d, %v; strconv gives %q, %d, %v", s, v, n, ok, wv, wn, wok)
		}
	}
}

func FuzzUnquotePrefix(f *testing.F) {
	f.Add("\"é\\x41\xff\" x")
	f.Add("\"探索 Ωμέγα\" y")
	f.Fuzz(func(t *testing.T, s string) {
		v, n, ok := unquotePrefix(s, false)
		wv, wn, wok := unquoteWant(s)
		if v != wv || n != wn || ok != wok {
			t.Fatalf("unquotePrefix(%q) = %q, %d, %v; strconv gives %q, %d, %v", s, v, n, ok, wv, wn, wok)
		}
		// Vouching for valid text changes nothing but the work.
		if utf8.ValidString(s) {
			if v2, n2, ok2 := unquotePrefix(s, true); v2 != v || n2 != n || ok2 != ok {
				t.Fatalf("unquotePrefix(%q, true) = %q, %d, %v; with the check %q, %d, %v", s, v2, n2, ok2, v, n, ok)
			}
		}
	})
}

// TestDecodeRune checks the inline decoder against utf8 on every one-, two- and three-byte
// prefix and on random longer input.
func TestDecodeRune(t *testing.T) {
	check := func(s string) {
		r, n := decodeRune(s)
		wr, wn := utf8.DecodeRuneInString(s)
		if r != wr || n != wn {
			t.Fatalf("decodeRune(%q) = %U, %d; utf8 gives %U, %d", s, r, n, wr, wn)
		}
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
			for c := 0; c < 256; c += 1 {
				check(string([]byte{byte(a), byte(b), byte(c)}))
			}
		}
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		check(string(utf8.AppendRune(nil, r)) + "x")
	}
}
