package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
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
