// Command gennames compiles the aamp package's name list (names.txt): candidate names
// harvested from the shared test corpus (identifier-like runs of bytes in its uncompressed
// files, with CamelCase and '_'-separated parts and common numbered forms) plus the
// hand-curated seeds.txt, keeping only names whose CRC32 is a name hash that occurs in the
// corpus's AAMP files. Run it with `go generate ./internal/aamp/` on a machine that has
// the corpus; the output holds only names, no corpus data.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

func main() {
	corpus := flag.String("corpus", "../../../shared/corpus", "shared test corpus directory")
	seeds := flag.String("seeds", "gennames/seeds.txt", "hand-curated candidates")
	out := flag.String("out", "names.txt", "output file")
	flag.Parse()

	hashes := map[uint32]bool{}
	cands := map[string]bool{}
	err := filepath.WalkDir(*corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if skipFile(p) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.HasPrefix(data, []byte("AAMP")) {
			collectHashes(data, hashes)
		}
		for _, tok := range tokens(data) {
			cands[tok] = true
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	var formats []string
	f, err := os.Open(*seeds)
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.Contains(line, "%") {
			formats = append(formats, line)
		} else {
			cands[line] = true
		}
	}
	f.Close()

	found := map[uint32]string{}
	try := func(s string) bool {
		h := crc32.ChecksumIEEE([]byte(s))
		if !hashes[h] {
			return false
		}
		if old, ok := found[h]; !ok || s < old {
			found[h] = s
		}
		return true
	}
	// With ~500k candidates and ~9k hashes about one chance CRC32 match is expected;
	// hash-like tokens (8 hex digits, e.g. TotK's hashed names) are the likeliest source
	// and are never real AAMP key names, so they are skipped.
	for c := range cands {
		if !hashLike(c) {
			try(c)
		}
	}
	// Numbered forms are tried only for names already proven to be keys, so the number of
	// guesses (and of chance CRC32 collisions) stays small.
	suffixes := []string{"%d", "_%d", "%02d", "_%02d", "%03d", "_%03d"}
	var bases []string
	for _, n := range found {
		bases = append(bases, n)
		for _, cut := range []string{"s", "es", "List"} {
			if strings.HasSuffix(n, cut) && len(n) > len(cut) {
				bases = append(bases, strings.TrimSuffix(n, cut))
			}
		}
	}
	for _, b := range bases {
		for _, sfx := range suffixes {
			for i := 0; i < 200; i++ {
				try(b + fmt.Sprintf(sfx, i))
			}
		}
	}
	for _, fm := range formats {
		for i := 0; i < 200; i++ {
			try(fmt.Sprintf(fm, i))
		}
	}
	names := make([]string, 0, len(found))
	for _, n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, n := range names {
		buf.WriteString(n)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d distinct name hashes in the corpus, %d named (%d candidates)", len(hashes), len(names), len(cands))
}

// hashLike reports whether s holds a run of 8 lowercase hex digits with a digit in it.
func hashLike(s string) bool {
	run, digit := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			run, digit = run+1, true
		case c >= 'a' && c <= 'f':
			run++
		default:
			run, digit = 0, false
		}
		if run >= 8 && digit {
			return true
		}
	}
	return false
}

// skipFile leaves out compressed files: their bytes are noise, not names.
func skipFile(p string) bool {
	for _, ext := range []string{".zs", ".sbyml", ".szs", ".yaz0"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return strings.Contains(p, string(filepath.Separator)+"zstd"+string(filepath.Separator)) ||
		strings.Contains(p, string(filepath.Separator)+"yaz0"+string(filepath.Separator))
}

// tokens returns identifier-like runs and their CamelCase / '_' / '.' parts.
func tokens(data []byte) []string {
	var out []string
	isID := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(data); {
		if !isID(data[i]) {
			i++
			continue
		}
		j := i
		for j < len(data) && isID(data[j]) && j-i < 96 {
			j++
		}
		if j-i >= 2 {
			tok := string(data[i:j])
			out = append(out, tok)
			out = append(out, parts(tok)...)
		}
		i = j
	}
	return out
}

// parts splits "Foo_BarBaz2" at '_' and lower-to-upper changes and returns every run of
// consecutive words as it is spelled in tok (Foo, Foo_Bar, Foo_BarBaz2, Bar, BarBaz2,
// Baz2, and FooBar, FooBarBaz2 without the '_'), so that names embedded in longer
// strings are found.
func parts(tok string) []string {
	var starts, ends []int
	inWord := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		boundary := c == '_' || i > 0 && unicode.IsUpper(rune(c)) && !unicode.IsUpper(rune(tok[i-1])) && tok[i-1] != '_'
		if boundary && inWord {
			ends = append(ends, i)
			inWord = false
		}
		if c != '_' && !inWord {
			starts = append(starts, i)
			inWord = true
		}
	}
	if inWord {
		ends = append(ends, len(tok))
	}
	if len(starts) > 8 {
		starts, ends = starts[:8], ends[:8]
	}
	var out []string
	for a := range starts {
		for b := a; b < len(ends); b++ {
			sub := tok[starts[a]:ends[b]]
			out = append(out, sub)
			// Names are also spelled without the separators of a longer string
			// (Demo_Name holds DemoName).
			if j := strings.ReplaceAll(sub, "_", ""); j != sub {
				out = append(out, j)
			}
		}
	}
	return out
}

// collectHashes adds every list, object and parameter name hash of an AAMP file. It
// trusts the file only as far as bounds checks allow.
func collectHashes(data []byte, hashes map[uint32]bool) {
	le := binary.LittleEndian
	if len(data) < 0x30 {
		return
	}
	var list func(off uint32, depth int)
	obj := func(off uint32) {
		if int(off)+8 > len(data) {
			return
		}
		hashes[le.Uint32(data[off:])] = true
		pb := off + 4*uint32(le.Uint16(data[off+4:]))
		for i := uint32(0); i < uint32(le.Uint16(data[off+6:])); i++ {
			p := pb + 8*i
			if int(p)+8 > len(data) {
				return
			}
			hashes[le.Uint32(data[p:])] = true
		}
	}
	list = func(off uint32, depth int) {
		if int(off)+12 > len(data) || depth > 64 {
			return
		}
		hashes[le.Uint32(data[off:])] = true
		lb := off + 4*uint32(le.Uint16(data[off+4:]))
		for i := uint32(0); i < uint32(le.Uint16(data[off+6:])); i++ {
			list(lb+12*i, depth+1)
		}
		ob := off + 4*uint32(le.Uint16(data[off+8:]))
		for i := uint32(0); i < uint32(le.Uint16(data[off+10:])); i++ {
			obj(ob + 8*i)
		}
	}
	list(0x30+le.Uint32(data[0x14:]), 0)
}
