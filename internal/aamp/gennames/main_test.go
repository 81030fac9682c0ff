package main

import (
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
)

func TestParts(t *testing.T) {
	got := parts("Foo_BarBaz2")
	want := []string{"Foo", "Foo_Bar", "FooBar", "Foo_BarBaz2", "FooBarBaz2", "Bar", "BarBaz2", "Baz2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parts = %q, want %q", got, want)
	}
	toks := tokens([]byte("\x00ab\x01Cd_Ef\xffx"))
	wantToks := []string{"ab", "ab", "Cd_Ef", "Cd", "Cd_Ef", "CdEf", "Ef"}
	if !reflect.DeepEqual(toks, wantToks) {
		t.Errorf("tokens = %q, want %q", toks, wantToks)
	}
}

// TestCollectHashes walks a hand-made file: root list with one object holding one
// parameter, and ignores records that point past the end.
func TestCollectHashes(t *testing.T) {
	b := make([]byte, 0x30+4+12+8+8)
	le := binary.LittleEndian
	le.PutUint32(b[0x14:], 4)
	root := 0x34
	le.PutUint32(b[root:], crc32.ChecksumIEEE([]byte("param_root")))
	le.PutUint16(b[root+8:], 3) // objects 12 bytes later
	le.PutUint16(b[root+10:], 1)
	obj := root + 12
	le.PutUint32(b[obj:], 111)
	le.PutUint16(b[obj+4:], 2)
	le.PutUint16(b[obj+6:], 2) // the second parameter record is past the end
	le.PutUint32(b[obj+8:], 222)
	h := map[uint32]bool{}
	collectHashes(b, h)
	want := map[uint32]bool{crc32.ChecksumIEEE([]byte("param_root")): true, 111: true, 222: true}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("hashes = %v, want %v", h, want)
	}
}

func TestHashLike(t *testing.T) {
	for s, want := range map[string]bool{"8f74d127_Far": true, "Far_0a1b2c3d": true, "deadbeefcafe": false, "ModelData": false, "Item_012345": false} {
		if hashLike(s) != want {
			t.Errorf("hashLike(%q) = %v", s, !want)
		}
	}
}
