package main

import (
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// FuzzCheck runs check and dump on arbitrary bytes: they must return (no panic, no hang),
// never decode past the reader's budget, and dump must print within a fixed multiple of the
// bytes it read (input plus everything decompressed).
func FuzzCheck(f *testing.F) {
	dir := testcorpus.Dir(f)
	dic, err := os.ReadFile(filepath.Join(dir, "zstd", zs.ZsDicName))
	if err != nil {
		f.Fatal(err)
	}
	c, err := zs.LoadZsDic(dic)
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()
	for _, p := range []string{
		"sarc/ActorObserverByActorTagTag.sarc", "zstd/ZsDic.pack.zs",
		"yaz0/0-0.shknm2", "aamp/Horse.blifecondition", "ainb/synthetic/minimal_v407.ainb",
	} {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Self-made: archives within archives within compression, long and odd names.
	aamp := []byte("AAMP\x02\x00\x00\x00")
	inner := sarc.Archive{HashMultiplier: 0x65}
	inner.Add("a.bxml", aamp)
	inner.Add("deep/"+string(make([]byte, 100)), []byte("YB\x07\x00"))
	ib, _ := inner.Bytes()
	yz, _ := yaz0.Compress(ib, 0x80)
	outer := sarc.Archive{HashMultiplier: 0x65}
	outer.Add("in.ssarc", yz)
	outer.Add("x", []byte("Yaz0\x00\x00\x10\x00"))
	ob, _ := outer.Bytes()
	z, _ := c.Compress(zs.DictPack, ob, zs.Smallest)
	for _, b := range [][]byte{ib, yz, ob, z, []byte("Yaz0"), {0x28, 0xb5, 0x2f, 0xfd}, []byte("SARC"), aamp, []byte("AIB \x07\x04")} {
		f.Add(b)
	}

	f.Fuzz(func(t *testing.T, b []byte) {
		r := newReader(c, len(b))
		full := r.budget
		r.check(b, true)
		if r.budget < 0 {
			t.Fatalf("check decoded %d bytes, %d past its budget", full-r.budget, -r.budget)
		}
		r = newReader(c, len(b))
		out, err := dumpData(r, b, dumpOptions{})
		if r.budget < 0 {
			t.Fatalf("dump decoded %d bytes, %d past its budget", full-r.budget, -r.budget)
		}
		if read := int64(len(b)) + full - r.budget; err == nil && int64(len(out)) > 256*read+4096 {
			t.Fatalf("dump printed %d bytes from %d read", len(out), read)
		}
	})
}
