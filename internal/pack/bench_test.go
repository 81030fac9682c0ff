package pack

import (
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/sarc"
)

// The TotK packs of the corpus, as /api/pack and /api/pack/build handle them, and the archive
// inside each on its own (read with every member visited, and written), for comparison with
// other implementations that measure the archive alone.
var benchPacks = []string{"Accessory_Battery.pack.zs", "Armor_006_Upper.pack.zs"}

func BenchmarkOpenSave(b *testing.B) {
	c := codec(b)
	for _, name := range benchPacks {
		in := read(b, "sarc/"+name)
		b.Run(name+"/open", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Open(in, c, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		p, err := Open(in, c, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/save", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Save(c, zs.Fast); err != nil {
					b.Fatal(err)
				}
			}
		})
		raw := unwrap(b, c, in)
		b.Run(name+"/archive-read", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				a, err := sarc.Read(raw)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for _, f := range a.Files {
					n += len(f.Data)
				}
				if n == 0 {
					b.Fatal("no data")
				}
			}
		})
		b.Run(name+"/archive-write", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Archive.Bytes(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The largest TotK pack of the game files (Enemy_Ganondorf.pack.zs, 507 KB, dictionary 3):
// the pack the editor's users open and save most slowly.
func BenchmarkOpenSaveLargest(b *testing.B) {
	c := codec(b)
	in, err := os.ReadFile(filepath.Join(testcorpus.GameDir(b, "zstd"), "TotK__Enemy_Ganondorf.pack.zs__2d3648eba9.zs"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("open", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Open(in, c, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	p, err := Open(in, c, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, level := range []zs.Level{zs.Fast, zs.Smallest} {
		b.Run(fmt.Sprintf("save-level%d", level), func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				if out, err = p.Save(c, level); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out)), "out-bytes")
		})
	}
}

// A bare archive's save (test.sarc, 2.4 MB), as /api/pack/build writes it: into a buffer
// kept from the last save, against a fresh buffer per save.
func BenchmarkSaveBare(b *testing.B) {
	in := read(b, "sarc/test.sarc")
	p, err := Open(in, nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fresh", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Save(nil, zs.Fast); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kept", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			if buf, err = p.SaveInto(context.Background(), buf, nil, zs.Fast); err != nil {
				b.Fatal(err)
			}
		}
	})
}
