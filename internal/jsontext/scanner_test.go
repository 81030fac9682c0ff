package jsontext

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// token is one thing a walk of a whole text met, printed for comparing.
func walk(s *Scanner, out *[]string) {
	switch c := s.Peek(); {
	case s.Err != nil:
	case c == '{':
		s.Open('{')
		*out = append(*out, "{")
		for n := 0; s.More('}', n); n++ {
			k, _ := s.Key(nil)
			if s.Err != nil {
				return
			}
			*out = append(*out, "key "+string(k))
			walk(s, out)
		}
		*out = append(*out, "}")
	case c == '[':
		s.Open('[')
		*out = append(*out, "[")
		for n := 0; s.More(']', n); n++ {
			walk(s, out)
		}
		*out = append(*out, "]")
	case c == '"':
		v, esc := s.String(nil)
		tag := "str "
		if esc {
			tag = "esc "
		}
		*out = append(*out, tag+string(v))
	case c == 't' || c == 'f':
		v, _ := s.Bool()
		if v {
			*out = append(*out, "true")
		} else {
			*out = append(*out, "false")
		}
	case c == 'n':
		s.Literal("null")
		*out = append(*out, "null")
	case s.IsNumber(c):
		*out = append(*out, "num "+string(s.Number()))
	default:
		s.Skip() // records the error
	}
}

func tokens(text string, nonFinite bool) ([]string, *SyntaxError) {
	s := &Scanner{Data: []byte(text), NonFinite: nonFinite}
	var out []string
	walk(s, &out)
	s.End()
	return out, s.Err
}

func TestScannerTokens(t *testing.T) {
	got, err := tokens(` {"a": [1, -2.5e+3, 0, true, false, null, "x"], "b\u00e9": {}, "c": []} `, false)
	if err != nil {
		t.Fatal(err)
	}
	want := "{|key a|[|num 1|num -2.5e+3|num 0|true|false|null|str x|]|key bé|{|}|key c|[|]|}"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("tokens:\n got %s\nwant %s", s, want)
	}
}

func TestScannerEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, "a\"b\\c/d\be\ff\ng\rh\ti"},
		{`"\u0041\u00e9\u4e2d"`, "Aé中"},
		{`"\ud83d\ude00"`, "😀"},             // a surrogate pair
		{`"\ud83d"`, "\uFFFD"},              // a lone high surrogate
		{`"\ude00x"`, "\uFFFDx"},            // a lone low surrogate
		{`"\ud83d\u0041"`, "\uFFFDA"},       // a high surrogate and no low one: the escape after is read on its own
		{`"\ud83d\ud83d\ude00"`, "\uFFFD😀"}, // two highs, then a low
		{`"日本語\n"`, "日本語\n"},
	} {
		s := &Scanner{Data: []byte(tc.in)}
		v, _ := s.String(nil)
		if s.Err != nil || string(v) != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.in, v, s.Err, tc.want)
		}
		// The same through a reused buffer.
		buf := make([]byte, 0, 4)
		s = &Scanner{Data: []byte(tc.in)}
		if v, _ = s.String(buf); string(v) != tc.want {
			t.Errorf("%s with a buffer: got %q", tc.in, v)
		}
		// encoding/json agrees.
		var std string
		if err := json.Unmarshal([]byte(tc.in), &std); err != nil || std != tc.want {
			t.Errorf("%s: encoding/json reads %q, %v", tc.in, std, err)
		}
	}
}

// TestScannerErrors checks the reason, offset, line and column of every kind of error.
func TestScannerErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		reason string
		offset int
		line   int
		col    int
	}{
		{``, "the text ends where a value belongs", 0, 1, 1},
		{`{"a":1,}`, "a comma before } (trailing commas are not JSON)", 6, 1, 7},
		{`[1 2]`, "want , or ] after an array element, found a number", 3, 1, 4},
		{"{\n  \"a\" 1}", "want : after a member name", 8, 2, 7},
		{`{1:2}`, "want a member name in double quotes, found a number", 1, 1, 2},
		{`"abc`, "a string is not closed", 4, 1, 5},
		{"\"a\nb\"", "a control character in a string must be escaped", 2, 1, 3},
		{`"a\x"`, `invalid escape \x in a string`, 3, 1, 4},
		{`"\u12G4"`, `a \u escape needs four hex digits`, 3, 1, 4},
		{`"\u12"`, `a \u escape needs four hex digits`, 3, 1, 4},
		{"\"ab\xffc\"", "byte 2 of this string, 0xff, is not UTF-8", 3, 1, 4},
		{"\"\\n\xc3\"", "byte 1 of this string, 0xc3, is not UTF-8", 1, 1, 2},
		{`01`, "text after the document: '1'", 1, 1, 2},
		{`-`, "invalid number: want a digit, found the end of the text", 1, 1, 2},
		{`1.`, "invalid number: want a digit after the decimal point, found the end of the text", 2, 1, 3},
		{`1e+x`, "invalid number: want a digit in the exponent, found 'x'", 3, 1, 4},
		{`tru`, "invalid literal: want true, found the end of the text", 3, 1, 4},
		{`[nul,`, "invalid literal: want null, found ','", 4, 1, 5},
		{`NaN`, "want a value, found 'N'", 0, 1, 1},
		{"[\n\n  @]", "want a value, found '@'", 5, 3, 3},
		{`[1] x`, "text after the document: 'x'", 4, 1, 5},
		{"[1]\x00", "text after the document: byte 0x00", 3, 1, 4},
		{"\xef\xbb\xbf[]", "want a value, found byte 0xef", 0, 1, 1},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), "nested too deeply (more than 64 levels)", 64, 1, 65},
	} {
		_, err := tokens(tc.in, false)
		if err == nil {
			t.Errorf("%q: no error", tc.in)
			continue
		}
		if err.Reason != tc.reason || err.Offset != tc.offset || err.Line != tc.line || err.Column != tc.col {
			t.Errorf("%q: got %q at %d (%d:%d), want %q at %d (%d:%d)", tc.in, err.Reason, err.Offset, err.Line, err.Column,
				tc.reason, tc.offset, tc.line, tc.col)
		}
	}
}

func TestScannerDepth(t *testing.T) {
	ok := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	if _, err := tokens(ok, false); err != nil {
		t.Errorf("64 levels: %v", err)
	}
	s := &Scanner{Data: []byte(`[[[1]]]`), MaxDepth: 2}
	s.Skip()
	if s.Err == nil || s.Err.Reason != "nested too deeply (more than 2 levels)" || s.Err.Offset != 2 {
		t.Errorf("MaxDepth 2: %v", s.Err)
	}
	// Skip of a hostile text stops at the limit, without recursing further.
	deep := strings.Repeat(`{"a":`, 1_000_000)
	s = &Scanner{Data: []byte(deep)}
	s.Skip()
	if s.Err == nil || s.Err.Offset != 64*5 {
		t.Errorf("deep objects: %v", s.Err)
	}
}

func TestScannerNonFinite(t *testing.T) {
	got, err := tokens(`[NaN, Infinity, -Infinity, 1]`, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, "|"); s != "[|num NaN|num Infinity|num -Infinity|num 1|]" {
		t.Errorf("tokens: %s", s)
	}
	for _, tc := range []struct {
		in, reason string
		off        int
	}{
		{`-NaN`, "invalid number: want a digit, found 'N'", 1},
		{`Inf`, "invalid literal: want Infinity, found the end of the text", 3},
		{`nan`, "invalid literal: want null, found 'a'", 1},
		{`+Infinity`, "want a value, found '+'", 0},
		{`-Infinit`, "invalid literal: want Infinity, found the end of the text", 8},
	} {
		_, err := tokens(tc.in, true)
		if err == nil || err.Reason != tc.reason || err.Offset != tc.off {
			t.Errorf("%s: %v, want %q at %d", tc.in, err, tc.reason, tc.off)
		}
	}
	for text, want := range map[string]float64{"Infinity": math.Inf(1), "-Infinity": math.Inf(-1), "1.5": 1.5, "-0": 0} {
		if f, err := ParseFloat([]byte(text), 64); err != nil || f != want {
			t.Errorf("ParseFloat(%s) = %v, %v", text, f, err)
		}
	}
	if f, _ := ParseFloat([]byte("NaN"), 32); !math.IsNaN(f) {
		t.Errorf("ParseFloat(NaN) = %v", f)
	}
	if _, err := ParseFloat([]byte("1e40"), 32); err == nil {
		t.Error("ParseFloat(1e40, 32): no error")
	}
}

func TestParseInt(t *testing.T) {
	for text, want := range map[string]int64{"0": 0, "-7": -7, "123456789012345678": 123456789012345678} {
		if v, ok := ParseInt([]byte(text)); !ok || v != want {
			t.Errorf("ParseInt(%s) = %d, %v", text, v, ok)
		}
	}
	for _, text := range []string{"", "-", "1.5", "1e3", "1234567890123456789", "NaN"} {
		if _, ok := ParseInt([]byte(text)); ok {
			t.Errorf("ParseInt(%s) ok", text)
		}
	}
}

func TestSyntaxErrorText(t *testing.T) {
	s := &Scanner{Data: []byte("{\"a\": [1,\n x]}")}
	s.Path = func() string { return "a[1]" }
	s.Skip()
	if got, want := s.Err.Error(), "invalid JSON at line 2, column 2 (in a[1]): want a value, found 'x'"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestBadUTF8Callback(t *testing.T) {
	s := &Scanner{Data: []byte("[\"ok\xfe\", \"\\t\xfe\"]")}
	var got []int
	s.BadUTF8 = func(at, i int, c byte) { got = append(got, at, i, int(c)) }
	s.Skip()
	if s.Err != nil || len(got) != 6 || got[0] != 4 || got[1] != 2 || got[2] != 0xfe || got[3] != 9 || got[4] != 1 {
		t.Errorf("got %v, %v", got, s.Err)
	}
}

// FuzzScanner checks that the scanner accepts exactly what encoding/json accepts (without
// NaN), never panics, and reads the same strings and numbers.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e3,"x\u00e9\ud83d\ude00"],"b":null}`, `[true,false]`, `"\ud800"`, `-0.0`, `{"a":{"b":{}}}`, "\"\xff\"", `[NaN]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Scanner{Data: data}
		s.Skip()
		s.End()
		valid := json.Valid(data)
		if (s.Err == nil) != valid {
			// encoding/json has no depth limit below 10,000 and takes strings that are not
			// UTF-8.
			if !(valid && s.Err != nil && (strings.HasPrefix(s.Err.Reason, "nested too deeply") || !utf8.Valid(data))) {
				t.Fatalf("%q: scanner says %v, encoding/json says valid=%v", data, s.Err, valid)
			}
		}
		if s.Err != nil && (s.Err.Offset < 0 || s.Err.Offset > len(data) || s.Err.Line < 1 || s.Err.Column < 1) {
			t.Fatalf("%q: bad position %+v", data, s.Err)
		}
		// Strings read alike.
		if len(data) > 0 && data[0] == '"' && valid && utf8.Valid(data) {
			var std string
			json.Unmarshal(data, &std)
			s := &Scanner{Data: data}
			v, _ := s.String(nil)
			if string(v) != std {
				t.Fatalf("%q: scanner reads %q, encoding/json %q", data, v, std)
			}
		}
		// With NonFinite it accepts at least as much.
		n := &Scanner{Data: data, NonFinite: true}
		n.Skip()
		n.End()
		if s.Err == nil && n.Err != nil {
			t.Fatalf("%q: NonFinite refuses what plain JSON takes: %v", data, n.Err)
		}
	})
}

// validUTF8 takes the CJK leads inline: it must still refuse what utf8.Valid refuses around
// them (overlong E0, surrogates after ED, short or broken sequences) at every alignment.
func TestValidUTF8(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"", true},
		{"plain ascii text, longer than a word", true},
		{"GMem[0x0] = In == \"ジャンプ 攻撃 氷\"", true},
		{"\xe3\x81", false},
		{"abc\xe3\x81", false},
		{"\xe3\x41\x81", false},
		{"\xe0\x80\xaf", false},
		{"\xed\xa0\x80", false},
		{"\xf0\x9f\x98\x80 emoji", true},
		{"\xec\xbf\xbf\xed\x9f\xbf", true},
		{"ジャ\xe3\x81", false},
		{"ジャ\xe3\x41\x81 ", false},
		{"ジャ\xe0\x80\xaf", false},
	} {
		if got := validUTF8([]byte(tc.s)); got != tc.want {
			t.Errorf("validUTF8(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	// Every three bytes after an ASCII prefix of each length below a word, and after a run
	// of kana.
	bytes := []byte{0x00, 0x41, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xe3, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5, 0xff}
	prefixes := []string{"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "ジ", "ジャ", "aジャ"}
	for _, pre := range prefixes {
		for _, a := range bytes {
			for _, b := range bytes {
				for _, c := range bytes {
					s := append([]byte(pre), a, b, c)
					if got, want := validUTF8(s), utf8.Valid(s); got != want {
						t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", s, got, want)
					}
				}
			}
		}
	}
}

// TestPosition compares Position with lines counted from the start, for offsets asked in
// increasing order, in decreasing order and back and forth, and checks that it allocates
// nothing, even on a text of blank lines.
func TestPosition(t *testing.T) {
	text := []byte("{\n  \"a\": 1,\n\n\"b\"\r\n:[\n]}\n\n")
	want := func(off int) (int, int) {
		line, start := 1, 0
		for i := 0; i < off && i < len(text); i++ {
			if text[i] == '\n' {
				line, start = line+1, i+1
			}
		}
		return line, off - start + 1
	}
	var orders [][]int
	up := make([]int, len(text)+1)
	for i := range up {
		up[i] = i
	}
	down := slices.Clone(up)
	slices.Reverse(down)
	orders = append(orders, up, down, []int{20, 3, 25, 0, 11, 11, 12, 1, len(text)})
	for _, order := range orders {
		s := NewScanner(text)
		for _, off := range order {
			line, col := s.Position(off)
			if wl, wc := want(off); line != wl || col != wc {
				t.Fatalf("order %v: Position(%d) = %d:%d, want %d:%d", order, off, line, col, wl, wc)
			}
		}
	}
	blank := bytes.Repeat([]byte("\n"), 100_000)
	if n := testing.AllocsPerRun(5, func() {
		s := Scanner{Data: blank}
		if line, col := s.Position(100_000); line != 100_001 || col != 1 {
			t.Fatalf("end of 100,000 newlines at %d:%d", line, col)
		}
		s.Position(0)
	}); n != 0 {
		t.Fatalf("Position allocated %v times", n)
	}
}
