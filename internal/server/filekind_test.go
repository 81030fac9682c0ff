package server

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

func TestFileKind(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "a PNG image"},
		{"jpeg", []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F'}, "a JPEG image"},
		{"gif", []byte("GIF89a\x01\x00\x01\x00"), "a GIF image"},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00"), "a ZIP archive"},
		{"empty zip", []byte("PK\x05\x06" + string(make([]byte, 18))), "a ZIP archive"},
		{"pdf", []byte("%PDF-1.7\n"), "a PDF document"},
		{"sarc", []byte("SARC\x14\x00\xff\xfe"), "a SARC archive (a pack)"},
		{"yaz0", []byte("Yaz0\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"), "a Yaz0-compressed file"},
		{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00}, "a zstd-compressed file"},
		{"zstd dictionary", []byte{0x37, 0xa4, 0x30, 0xec, 1, 0, 0, 0}, "a zstd dictionary"},
		{"byml", []byte("YB\x07\x00\x10\x00\x00\x00"), "a BYML file"},
		{"big-endian byml", []byte("BY\x00\x03\x00\x00\x00\x10"), "a BYML file"},
		{"aamp", []byte("AAMP\x02\x00\x00\x00"), "an AAMP parameter file"},
		{"ainb", []byte("AIB \x07\x04\x00\x00"), "an AINB file"},
		{"json object", []byte(" {\"format\": \"ainb-editor-document/2\", \"nodes\": []}\n"), "JSON text"},
		{"json array", []byte("[1, 2, 3]"), "JSON text"},
		{"text like json", []byte("{ this is not JSON }"), "plain text"},
		{"text", []byte("Root:\n\tNodes: 3\r\n"), "plain text"},
		{"utf-8 text", []byte("ドラゴンの行動"), "plain text"},
		// A character cut by the 4 KiB window is still text.
		{"utf-8 cut at 4 KiB", []byte("a" + repeat("é", 3000)), "plain text"},
		{"binary", []byte{0x01, 0x02, 0x03, 0x04, 0xfe}, ""},
		{"text with NUL", []byte("abc\x00def"), ""},
		{"invalid utf-8", []byte("abc\xff\xfedef"), ""},
		{"empty", nil, ""},
	} {
		if got := fileKind(c.data); got != c.want {
			t.Errorf("%s: fileKind = %q, want %q", c.name, got, c.want)
		}
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// Every AINB file of the corpus reads as whole; every one of them cut short at any of a
// dozen places reads as truncated.
func TestAINBTruncated(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), "ainb", "*", "*.ainb"))
	if err != nil || len(paths) < 50 {
		t.Fatalf("%d corpus files (%v)", len(paths), err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if ainbTruncated(data) {
			t.Errorf("%s: whole, yet called truncated", p)
		}
		for k := 1; k <= 12; k++ {
			n := len(data) - len(data)*k/13 - 1
			if ainbTruncated(data[:n]) {
				continue
			}
			// A cut that ends on a NUL inside the pool is a file the reader checks alone.
			if _, err := ainb.Read(data[:n]); err == nil {
				t.Errorf("%s cut to %d bytes reads without error", p, n)
			}
		}
	}
}

func TestOpenError(t *testing.T) {
	reader := errors.New("ainb: header at offset 0x0: file is 12 bytes, shorter than the 0x74-byte header")
	for _, c := range []struct {
		name     string
		data     []byte
		unpacked bool
		want     string
	}{
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\r"), false, "this is a PNG image, not an AINB file"},
		{"sarc in zstd", []byte("SARC\x14\x00\xff\xfe"), true, "this file decompresses to a SARC archive (a pack), not an AINB file"},
		{"unknown", []byte{1, 2, 3, 4}, false, `this is not an AINB file: an AINB file starts with the bytes "AIB "`},
		{"short ainb", []byte("AIB \x07\x04\x00\x00\x00\x00\x00\x00"), false, "this file is truncated at byte 12: an AINB file ends with its string pool, and this one stops before its end"},
		{"short ainb in zstd", []byte("AIB \x07\x04\x00\x00\x00\x00\x00\x00"), true, "the decompressed file is truncated at byte 12: an AINB file ends with its string pool, and this one stops before its end"},
	} {
		err := openError(c.data, c.unpacked, reader)
		var ae *apiError
		if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || ae.Message != c.want {
			t.Errorf("%s: %v, want 422 %q", c.name, err, c.want)
			continue
		}
		if d, _ := ae.Detail.(map[string]any); d == nil || d["reason"] != reader.Error() {
			t.Errorf("%s: detail %v does not keep the reader's error", c.name, ae.Detail)
		}
	}
	// A whole AINB file the reader refuses keeps the reader's error, with its section.
	data := corpusFile(t, midFile)
	fe := &ainb.FormatError{Section: "node table", Offset: 0x80, Msg: "something wrong"}
	err := openError(data, false, fe)
	var ae *apiError
	if !errors.As(err, &ae) || ae.Message != fe.Error() {
		t.Errorf("whole file: %v, want the reader's %q", err, fe.Error())
	}
}
