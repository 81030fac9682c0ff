package pack

import (
	"ainbeditor/internal/hostile"
	"ainbeditor/internal/zs"
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"ainbeditor/internal/yaz0"
)

// ReplaceAll gives what Replace gives member by member, later replacements of a name
// winning, and names the first member missing.
func TestReplaceAll(t *testing.T) {
	in := hostile.LongNamesPack(t, 300, 100)
	byOne, err := Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	byAll, err := Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rs []Replacement
	for i := 0; i < 300; i += 7 {
		name := byOne.Archive.Files[i].Name
		rs = append(rs, Replacement{name, []byte("first")}, Replacement{name, []byte(fmt.Sprint("new ", i))})
	}
	for _, r := range rs {
		if err := byOne.Replace(r.Name, r.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := byAll.ReplaceAll(rs); err != nil {
		t.Fatal(err)
	}
	for i, f := range byAll.Archive.Files {
		if g := byOne.Archive.Files[i]; g.Name != f.Name || !bytes.Equal(g.Data, f.Data) {
			t.Fatalf("member %d: %q %q, one by one %q %q", i, f.Name, f.Data, g.Name, g.Data)
		}
	}
	err = byAll.ReplaceAll([]Replacement{{byAll.Archive.Files[0].Name, nil}, {"no/such", nil}, {"nor/this", nil}})
	if err == nil || err.Error() != `pack: no member "no/such"` {
		t.Errorf("missing member: %v", err)
	}
}

// A done context stops a save before its compression.
func TestSaveContextCancelled(t *testing.T) {
	in, err := yaz0.Compress(hostile.LongNamesPack(t, 50, 10), 0x80)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := p.SaveContext(ctx, nil, zs.Fast); !errors.Is(err, context.Canceled) || out != nil {
		t.Errorf("cancelled save: %d bytes, %v", len(out), err)
	}
	if out, err := p.SaveContext(context.Background(), nil, zs.Fast); err != nil || !bytes.Equal(out, in) {
		t.Errorf("save: %v, same bytes %v", err, bytes.Equal(out, in))
	}
}

// BenchmarkReplaceAll is the crafted request's lookups: 8,382 names among 16,383 members
// whose names differ only in their last bytes.
func BenchmarkReplaceAll(b *testing.B) {
	p, err := Open(hostile.LongNamesPack(b, 16383, 1000), nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	var rs []Replacement
	for i := range 8382 {
		rs = append(rs, Replacement{p.Archive.Files[(i*7919)%16383].Name, []byte("x")})
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := p.ReplaceAll(rs); err != nil {
			b.Fatal(err)
		}
	}
}

// An unwrapped pack is written into the buffer given when it has room, and into a new one
// when not; a wrapped pack's compressed bytes never alias it. Either way the bytes are the
// file read.
func TestSaveInto(t *testing.T) {
	in := hostile.LongNamesPack(t, 50, 10)
	p, err := Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	roomy := make([]byte, 3, len(in)+100) // the length is stale content, which must go
	out, err := p.SaveInto(context.Background(), roomy, nil, zs.Fast)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("save into room: %v, same bytes %v", err, bytes.Equal(out, in))
	}
	if &out[0] != &roomy[:1][0] {
		t.Error("an unwrapped pack with room was not written into the buffer given")
	}
	small := make([]byte, 0, 16)
	if out, err = p.SaveInto(context.Background(), small, nil, zs.Fast); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("save into a small buffer: %v, same bytes %v", err, bytes.Equal(out, in))
	}
	wrapped, err := yaz0.Compress(in, 0x80)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = Open(wrapped, nil, 0); err != nil {
		t.Fatal(err)
	}
	roomy = make([]byte, 0, 2*len(wrapped))
	if out, err = p.SaveInto(context.Background(), roomy, nil, zs.Fast); err != nil || !bytes.Equal(out, wrapped) {
		t.Fatalf("wrapped save: %v, same bytes %v", err, bytes.Equal(out, wrapped))
	}
	if &out[0] == &roomy[:1][0] {
		t.Error("a wrapped pack's bytes alias the buffer given")
	}
}
