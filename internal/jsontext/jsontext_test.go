package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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
