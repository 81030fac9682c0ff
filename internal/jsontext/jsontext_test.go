package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"ainbeditor/internal/textscan"
)

func TestAppendString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"Walk", `"Walk"`},
		{"a\"b\\c", `"a\"b\\c"`},
		{"\n\r\t\x01\x1f", `"\n\r\t\u0001\u001f"`},
		{"<&>", `"<&>"`},
		{"歩く", `"歩く"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"a\xffb", `"a\ufffdb"`},
		{"…→\u2027\u202a", "\"…→\u2027\u202a\""},
		{"x\u2028y\u2029\x01", `"x\u2028y\u2029\u0001"`},
		{"\u2028\xff", `"\u2028\ufffd"`},
	} {
		if got := string(AppendString(nil, c.in)); got != c.want {
			t.Errorf("AppendString(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Whatever the string, the text is JSON that reads back as the string (invalid UTF-8 aside).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "x", "\"\\\n", "歩く\u2028", "a\xffb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendString([]byte("x"), s)
		if out[0] != 'x' {
			t.Fatal("prefix lost")
		}
		for _, c := range out[1:] {
			if c < 0x20 {
				t.Fatalf("AppendString(%q) = %q holds a control byte", s, out[1:])
			}
		}
		if bytes.Contains(out, []byte("\u2028")) || bytes.Contains(out, []byte("\u2029")) {
			t.Fatalf("AppendString(%q) = %q holds a raw line separator", s, out[1:])
		}
		var back string
		if err := json.Unmarshal(out[1:], &back); err != nil {
			t.Fatalf("AppendString(%q) = %s: %v", s, out[1:], err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && !strings.ContainsRune(s, '\ufffd') {
			// ToValidUTF8 folds a run of bad bytes into one U+FFFD; AppendString writes one per byte.
			if strings.ReplaceAll(back, "\ufffd", "") != strings.ReplaceAll(want, "\ufffd", "") {
				t.Fatalf("AppendString(%q) reads back as %q", s, back)
			}
		}
	})
}

// sequenceLen agrees with utf8.DecodeRuneInString on every two-, three- and four-byte
// prefix shape that matters: all lead bytes with boundary continuation bytes.
func TestSequenceLen(t *testing.T) {
	conts := []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for c := 0x80; c < 0x100; c++ {
		for _, c1 := range conts {
			for _, c2 := range conts {
				for _, c3 := range conts {
					for l := 1; l <= 4; l++ {
						s := string([]byte{byte(c), c1, c2, c3}[:l])
						r, n := utf8.DecodeRuneInString(s)
						want := n
						if r == utf8.RuneError && n == 1 {
							want = 0
						}
						if got := sequenceLen(s); got != want {
							t.Fatalf("sequenceLen(% x) = %d, want %d", s, got, want)
						}
					}
				}
			}
		}
	}
}

// slowAppend is AppendString's definition, a rune at a time.
func slowAppend(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case r < 0x20 || r == '"' || r == '\\':
			b = appendEscape(b, byte(r))
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, "89"[r&1])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// Every lead byte with boundary continuation bytes, cut short at every length and followed
// by ASCII, a multi-byte rune or nothing, gives the definition's text: this covers the
// inline three-byte path and the lead bytes it leaves to sequenceLen.
func TestAppendStringSequences(t *testing.T) {
	conts := []byte{0x00, 0x22, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xa8, 0xa9, 0xbf, 0xc0, 0xe3, 0xff}
	for c := 0x80; c < 0x100; c++ {
		for _, c1 := range conts {
			for _, c2 := range conts {
				for l := 1; l <= 3; l++ {
					for _, after := range []string{"", "a", "歩", "\n"} {
						s := string([]byte{byte(c), c1, c2}[:l]) + after
						if got, want := AppendString(nil, s), slowAppend(nil, s); !bytes.Equal(got, want) {
							t.Fatalf("AppendString(% x) = %q, want %q", s, got, want)
						}
					}
				}
			}
		}
	}
}

// oldAppendString is AppendString as it was before its single-loop rewrite, kept as the
// oracle the rewrite must match byte for byte.
func oldAppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				// Scanned a word at a time only from here: called at every rune, the scan
				// cost more than it saved on text that mixes scripts.
				i = textscan.PlainRun(s, i+1, true)
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		if textscan.IsCJK3(s, i) {
			i += 3
			continue
		}
		n := sequenceLen(s[i:])
		switch {
		case n == 0:
			b = append(b, s[start:i]...)
			b = append(b, "\\ufffd"...)
			i++
			start = i
			continue
		case c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', "89"[s[i+2]&1])
			start = i + 3
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// TestAppendStringMatchesOld compares with the old quoter on random text rich in kana, CJK,
// the three-byte leads with rules (E0, E2, ED), bad bytes and the bytes that need escapes,
// at every length around the eight-byte words.
func TestAppendStringMatchesOld(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", " ", "\"", "\\", "\n", "\x00", "\x7f", "\x80", "\xff", "\xe3", "\xe3\x81", "ジ",
		"漢", "\u2028", "\u2029", "…", "\xe0\xa0\x80", "\xe0\x9f\x80", "\xed\x9f\xbf", "\xed\xa0\x80",
		"é", "\U0001F600", "\xf4\x90\x80\x80", "GMem[0x0] = In == "}
	for range 50000 {
		var sb strings.Builder
		for range r.IntN(24) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		if got, want := string(AppendString([]byte("x"), s)), string(oldAppendString([]byte("x"), s)); got != want {
			t.Fatalf("AppendString(%q) = %s, the old quoter gives %s", s, got, want)
		}
	}
}

func FuzzAppendStringMatchesOld(f *testing.F) {
	for _, s := range []string{"", "歩く\u2028", "a\xffb", "ジャンプ 攻撃 Event\n\"x\"", "\xe3\x81"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), string(oldAppendString(nil, s)); got != want {
			t.Fatalf("AppendString(%q) = %s, the old quoter gives %s", s, got, want)
		}
	})
}
