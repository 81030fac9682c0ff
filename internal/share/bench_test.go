package share

import (
	"bytes"
	"context"
	"io"
	"testing"

	"ainbeditor/internal/share/pgtest"
)

// benchSizes are share sizes: a small document, the mid-size corpus file's document with a
// view (about 200 KB), and a large one.
var benchSizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"200KB", 200 << 10}, {"4MB", 4 << 20}}

// benchShare is JSON-like filler: repetitive, as documents are, so the database's
// compression sees what it would.
func benchShare(n int) []byte {
	unit := []byte(`{"id":12,"type":"UserDefined","name":"EnemyAttack","inputs":[{"name":"Speed","value":1.5}]},`)
	return bytes.Repeat(unit, n/len(unit)+1)[:n]
}

func benchStores(b *testing.B) []struct {
	name string
	s    Store
} {
	d, err := OpenDir(b.TempDir(), 64<<20)
	if err != nil {
		b.Fatal(err)
	}
	p, err := OpenPostgres(context.Background(), pgtest.Shared(b).NewDatabase(b), Limits{MaxSize: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	return []struct {
		name string
		s    Store
	}{{"dir", d}, {"postgres", p}}
}

// BenchmarkPut is the latency of creating one share, durable when Put returns (the
// directory store syncs the file and the directory; the throwaway cluster runs without
// fsync, so its figures are a floor).
func BenchmarkPut(b *testing.B) {
	ctx := context.Background()
	for _, st := range benchStores(b) {
		for _, size := range benchSizes {
			data := benchShare(size.n)
			b.Run(st.name+"/"+size.name, func(b *testing.B) {
				b.SetBytes(int64(size.n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := st.s.Put(ctx, data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkGet is the latency of reading one share whole (GET /api/shares/{id} from a store
// that cannot stream, such as PostgreSQL).
func BenchmarkGet(b *testing.B) {
	ctx := context.Background()
	for _, st := range benchStores(b) {
		for _, size := range benchSizes {
			id, err := st.s.Put(ctx, benchShare(size.n))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(st.name+"/"+size.name, func(b *testing.B) {
				b.SetBytes(int64(size.n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := st.s.Get(ctx, id); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkGetStream is the latency of reading one share through Open and a 32 KB buffer, as
// GET /api/shares/{id} does from a store that can stream (the directory).
func BenchmarkGetStream(b *testing.B) {
	ctx := context.Background()
	for _, st := range benchStores(b) {
		o, ok := st.s.(Opener)
		if !ok {
			continue
		}
		for _, size := range benchSizes {
			id, err := st.s.Put(ctx, benchShare(size.n))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(st.name+"/"+size.name, func(b *testing.B) {
				b.SetBytes(int64(size.n))
				b.ReportAllocs()
				buf := make([]byte, 32<<10)
				for b.Loop() {
					rc, _, err := o.Open(ctx, id)
					if err != nil {
						b.Fatal(err)
					}
					_, err = io.CopyBuffer(io.Discard, struct{ io.Reader }{rc}, buf)
					rc.Close()
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStat is the existence check of GET /s/{id}: the same whatever the share's size.
func BenchmarkStat(b *testing.B) {
	ctx := context.Background()
	for _, st := range benchStores(b) {
		id, err := st.s.Put(ctx, benchShare(4<<20))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(st.name+"/4MB", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := st.s.Stat(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
