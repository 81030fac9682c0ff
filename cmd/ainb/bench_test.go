package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// Benchmarks of check (read, write again, compare, members and re-compression included) and
// of the SARC listing on the largest corpus archives.
func BenchmarkCheck(b *testing.B) {
	dir := testcorpus.Dir(b)
	dic, err := os.ReadFile(filepath.Join(dir, "zstd", zs.ZsDicName))
	if err != nil {
		b.Fatal(err)
	}
	c, err := zs.LoadZsDic(dic)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for _, name := range []string{"sarc/test.sarc", "yaz0/Demo344_1.sbeventpack", "sarc/Armor_006_Upper.pack.zs"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("check/"+filepath.Base(name), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := newReader(c, len(data)).check(data, true); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("dump/"+filepath.Base(name), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				out, err := dumpData(newReader(c, len(data)), data, dumpOptions{})
				if err != nil {
					b.Fatal(err)
				}
				io.Discard.Write(out)
			}
		})
	}
}
