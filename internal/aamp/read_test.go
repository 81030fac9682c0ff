package aamp

import (
	"errors"
	"strings"
	"testing"
)

// tiny builds a valid one-object, one-parameter file to corrupt.
func tiny(t testing.TB) []byte {
	t.Helper()
	pio := &ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{
		{Name: 1, Params: []Parameter{{2, TypeBufferInt, []int32{1, 2, 3}}, {3, TypeStringRef, "abc"}}},
	}}}
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Layout of tiny: header 0x30, "xml\0" 0x30, root list 0x34, object 0x40, params 0x48
// and 0x50, data 0x58 (count 3 + 3 ints), strings 0x68.
func TestReadMalformed(t *testing.T) {
	good := tiny(t)
	if _, err := Read(good); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		patch func(b []byte) []byte
		want  string
	}{
		{"short", func(b []byte) []byte { return b[:0x20] }, "shorter than the 48-byte header"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "magic"},
		{"version", func(b []byte) []byte { le.PutUint32(b[4:], 1); return b }, "version 1"},
		{"big endian", func(b []byte) []byte { le.PutUint32(b[8:], 2); return b }, "big-endian"},
		{"file size", func(b []byte) []byte { return b[:len(b)-4] }, "header file size"},
		{"huge counts", func(b []byte) []byte { le.PutUint32(b[0x20:], 1<<30); return b }, "header counts"},
		{"count mismatch", func(b []byte) []byte { le.PutUint32(b[0x20:], 1); return b }, "more"},
		{"root offset", func(b []byte) []byte { le.PutUint32(b[0x14:], 0xffff); return b }, "past the end"},
		{"type not terminated", func(b []byte) []byte { b[0x33] = 'x'; return b }, "not NUL-terminated"},
		{"root name", func(b []byte) []byte { le.PutUint32(b[0x34:], 7); return b }, "not param_root"},
		{"self cycle", func(b []byte) []byte {
			le.PutUint16(b[0x34+4:], 0) // one child list at relative offset 0: itself
			le.PutUint16(b[0x34+6:], 1)
			le.PutUint32(b[0x18:], 2)
			return b
		}, "points back at its parent"},
		{"objects past end", func(b []byte) []byte { le.PutUint16(b[0x34+8:], 0x7fff); return b }, "run past the end"},
		{"param type", func(b []byte) []byte { b[0x48+7] = 99; return b }, "unknown parameter type 99"},
		{"data offset", func(b []byte) []byte { le.PutUint32(b[0x48+4:], uint32(TypeBufferInt)<<24|0xfffff); return b }, "file ends"},
		{"huge buffer count", func(b []byte) []byte { le.PutUint32(b[0x58:], 0x40000000); return b }, "file ends"},
		{"string not terminated", func(b []byte) []byte {
			for i := 0x68; i < len(b); i++ {
				b[i] = 'a'
			}
			return b
		}, "not NUL-terminated"},
		{"bool value", func(b []byte) []byte { b[0x48+7] = byte(TypeBool); le.PutUint32(b[0x5c:], 7); return b }, "bool parameter holds 7"},
	}
	// Where each error says the file goes wrong: the field read, or for a bad offset the
	// byte it points at.
	wantAt := map[string]uint32{
		"short": 0x0, "magic": 0x0, "version": 0x4, "big endian": 0x8, "file size": 0xc,
		"huge counts": 0x18, "count mismatch": 0x40, "root offset": 0x14,
		"type not terminated": 0x30, "root name": 0x34, "self cycle": 0x34,
		"objects past end": 0x34, "param type": 0x48, "data offset": 0x400040,
		"huge buffer count": 0x5c, "string not terminated": 0x68, "bool value": 0x5c,
	}
	for _, c := range cases {
		b := c.patch(append([]byte{}, good...))
		pio, err := Read(b)
		if err == nil {
			t.Errorf("%s: accepted: %+v", c.name, pio)
			continue
		}
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want ErrFormat mentioning %q", c.name, err, c.want)
		}
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %#v, want a *FormatError", c.name, err)
		} else if fe.Offset != wantAt[c.name] {
			t.Errorf("%s: error at %#x, want %#x", c.name, fe.Offset, wantAt[c.name])
		}
	}
}

// TestReadSharedDataBudget: many parameters pointing at one big buffer must be refused
// before decoding allocates far more than the file size.
func TestReadSharedDataBudget(t *testing.T) {
	const n = 2000
	params := make([]Parameter, n)
	big := make([]byte, 4000)
	for i := range params {
		params[i] = Parameter{Name(i), TypeBufferBinary, big}
	}
	pio := &ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{{Name: 1, Params: params}}}}
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// Canonical dedup stores the buffer once: ~20 KB of file, 8 MB of decoded values.
	if len(out) > 25000 {
		t.Fatalf("file is %d bytes; dedup did not share the buffer", len(out))
	}
	if _, err := Read(out); err == nil || !strings.Contains(err.Error(), "decoding budget") {
		t.Fatalf("err = %v, want the decoding budget error", err)
	}
}

// TestReadSharedValues: parameters whose values the writer stored once each get the value,
// and an edit of one of them reaches only that parameter.
func TestReadSharedValues(t *testing.T) {
	v3 := Vec3{1, 2, 3}
	params := []Parameter{
		{1, TypeF32, float32(1.5)}, {2, TypeStringRef, "abc"}, {3, TypeVec3, v3},
		{4, TypeF32, float32(1.5)}, {5, TypeStringRef, "abc"}, {6, TypeVec3, v3},
		{7, TypeInt, int32(70000)}, {8, TypeInt, int32(70000)}, {9, TypeBool, true}, {10, TypeBool, true},
	}
	pio := &ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{{Name: 1, Params: params}}}}
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// The value each parameter record points at (params from 0x48, 8 bytes each).
	at := func(i int) uint32 {
		rec := uint32(0x48 + 8*i)
		return rec + 4*(le.Uint32(out[rec+4:])&0xffffff)
	}
	for _, pair := range [][2]int{{0, 3}, {1, 4}, {2, 5}, {6, 7}} {
		if at(pair[0]) != at(pair[1]) {
			t.Fatalf("parameters %d and %d are stored apart (%#x, %#x): the test needs them shared", pair[0], pair[1], at(pair[0]), at(pair[1]))
		}
	}
	got, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	read := got.Root.Objects[0].Params
	for i := range params {
		if read[i] != params[i] {
			t.Errorf("parameter %d = %#v, want %#v", i, read[i], params[i])
		}
	}
	read[3].Value = float32(2.5)
	read[5].Value = Vec3{4, 5, 6}
	again, err := got.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(again)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]Parameter(nil), params...)
	want[3].Value, want[5].Value = float32(2.5), Vec3{4, 5, 6}
	for i, p := range back.Root.Objects[0].Params {
		if p != want[i] {
			t.Errorf("after the edit, parameter %d = %#v, want %#v", i, p, want[i])
		}
	}
}

// TestReadSameBytesTwoTypes: bytes one parameter reads as f32 and another as int give each
// parameter its own type's value.
func TestReadSameBytesTwoTypes(t *testing.T) {
	pio := &ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{
		{Name: 1, Params: []Parameter{{1, TypeF32, float32(1)}, {2, TypeInt, int32(5)}, {3, TypeF32, float32(1)}}},
	}}}
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// Point the int (record at 0x50) at the float's value (record 0x48's).
	w0, w1 := le.Uint32(out[0x48+4:]), le.Uint32(out[0x50+4:])
	value := 0x48 + 4*(w0&0xffffff)
	le.PutUint32(out[0x50+4:], w1&0xff000000|(value-0x50)/4)
	got, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Parameter{{1, TypeF32, float32(1)}, {2, TypeInt, int32(0x3f800000)}, {3, TypeF32, float32(1)}}
	for i, p := range got.Root.Objects[0].Params {
		if p != want[i] {
			t.Errorf("parameter %d = %#v, want %#v", i, p, want[i])
		}
	}
}
