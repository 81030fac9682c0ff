// Package hostile makes, from nothing, the hostile inputs several packages' tests feed the
// codecs, the server and the command: small files whose trees, documents or texts grow far
// beyond them, and archives whose names make work grow with the square of their size. They
// are generated rather than stored, so no attack file is checked in and each test chooses
// the sizes it needs.
package hostile

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/sarc"
)

// SharedNamesAINB is an AINB file whose names (int property names, as many as names) all
// point at one string long bytes long: at its start, or, inner, at 50 successive offsets
// inside it, recorded as the layout's tails as the reader records them. The file stores the
// string once; its document repeats it names times.
func SharedNamesAINB(tb testing.TB, names, long int, inner bool) []byte {
	tb.Helper()
	s := strings.Repeat("Amplify", long/7+1)[:long]
	props := make([]ainb.Property, names)
	for i := range props {
		props[i].Name = s
		if inner {
			props[i].Name = s[1+i%50:]
		}
	}
	f := &ainb.File{Version: ainb.Version407, Filename: "Amp", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{},
		Commands:    []ainb.Command{{Name: "Walk", Root: 0, Secondary: -1}},
		Elements:    []ainb.Element{{Name: "Leaf"}}}
	if inner {
		// Without the tails a write would store each name as a string of its own.
		f.Layout = &ainb.Layout{Strings: []string{s}}
		for i := range min(names, 50) {
			f.Layout.Tails = append(f.Layout.Tails, s[1+i:])
		}
	}
	f.Elements[0].Properties.Set(ainb.ParamInt, props)
	data, err := f.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// SharedChainBYML is a BYML file (version 2, little-endian) of levels arrays, each holding
// width items that all point at the next array; the last holds width ints. Read as a tree
// it is width^levels nodes; its JSON form names each array once and refers to it elsewhere.
func SharedChainBYML(levels, width int) []byte {
	arraySize := 4 + (width+3)&^3 + 4*width
	b := make([]byte, 16, 16+levels*arraySize)
	copy(b, "YB")
	binary.LittleEndian.PutUint16(b[2:], 2)
	binary.LittleEndian.PutUint32(b[12:], 16) // the root, right after the header
	for l := range levels {
		typ, value := byte(0xC0), uint32(16+(l+1)*arraySize) // the next array
		if l == levels-1 {
			typ, value = 0xD1, 7
		}
		b = append(b, 0xC0, byte(width), byte(width>>8), byte(width>>16))
		for range width {
			b = append(b, typ)
		}
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		for range width {
			b = binary.LittleEndian.AppendUint32(b, value)
		}
	}
	return b
}

// EscapedNamesPack is a SARC archive of members empty but for their names: name bytes of
// 0x01, which JSON writes as six bytes each ("\u0001"), after the member's number to keep
// the names apart.
func EscapedNamesPack(members, nameLen int) []byte {
	const mult = 0x65
	var names []byte
	sfat := make([]byte, 0, 16*members)
	for i := range members {
		name := strconv.Itoa(i) + strings.Repeat("\x01", nameLen)
		var h uint32
		for j := 0; j < len(name); j++ {
			h = h*mult + uint32(int32(int8(name[j])))
		}
		sfat = binary.LittleEndian.AppendUint32(sfat, h)
		sfat = binary.LittleEndian.AppendUint32(sfat, 0x01000000|uint32(len(names)/4))
		sfat = binary.LittleEndian.AppendUint64(sfat, 0) // no data
		names = append(names, name...)
		names = append(names, 0)
		for len(names)%4 != 0 {
			names = append(names, 0)
		}
	}
	dataOffset := 0x14 + 0xC + len(sfat) + 8 + len(names)
	b := make([]byte, 0, dataOffset)
	b = append(b, "SARC"...)
	b = binary.LittleEndian.AppendUint16(b, 0x14)
	b = append(b, 0xFF, 0xFE)
	b = binary.LittleEndian.AppendUint32(b, uint32(dataOffset))
	b = binary.LittleEndian.AppendUint32(b, uint32(dataOffset))
	b = binary.LittleEndian.AppendUint16(b, 0x0100)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = append(b, "SFAT"...)
	b = binary.LittleEndian.AppendUint16(b, 0xC)
	b = binary.LittleEndian.AppendUint16(b, uint16(members))
	b = binary.LittleEndian.AppendUint32(b, mult)
	b = append(b, sfat...)
	b = append(b, "SFNT"...)
	b = binary.LittleEndian.AppendUint16(b, 8)
	b = binary.LittleEndian.AppendUint16(b, 0)
	return append(b, names...)
}

// ManyNodesAINB is an AINB file of n identical nodes with nothing in them: some 60 bytes of
// file each, and a few hundred of document.
func ManyNodesAINB(tb testing.TB, n int) []byte {
	tb.Helper()
	f := &ainb.File{Version: ainb.Version407, Filename: "Many", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{},
		Commands:    []ainb.Command{{Name: "Walk", Root: 0, Secondary: -1}},
		Elements:    make([]ainb.Element, n)}
	for i := range f.Elements {
		f.Elements[i].Name = "Leaf"
	}
	data, err := f.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Zstd compresses data as a zstd frame without a dictionary, quickly: the inputs are
// tens of megabytes of repetition.
func Zstd(tb testing.TB, data []byte) []byte {
	tb.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		tb.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// PaddedNamesAINB is an AINB file whose names all point at one string of nameLen bytes,
// padded to size bytes: the padding raises the reader's text budget (a multiple
// of the file) and compresses to nothing, so a few hundred bytes of zstd make a document
// of names times nameLen bytes.
func PaddedNamesAINB(tb testing.TB, names, nameLen, size int) []byte {
	tb.Helper()
	long := strings.Repeat("Amplify", nameLen/7+1)[:nameLen]
	props := make([]ainb.Property, names)
	for i := range props {
		props[i].Name = long
	}
	f := &ainb.File{Version: ainb.Version407, Filename: "Amp", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{},
		Commands:    []ainb.Command{{Name: "Walk", Root: 0, Secondary: -1}},
		Elements:    []ainb.Element{{Name: "Leaf"}}}
	f.Elements[0].Properties.Set(ainb.ParamInt, props)
	data, err := f.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	// The string pool runs to the end of the file: the padding is one more string there.
	return append(append(data, strings.Repeat("P", size-len(data)-1)...), 0)
}

// LongNamesPack is a bare SARC archive of n one-byte members whose names share a prefix of
// about nameLen bytes, so telling two names apart reads most of both.
func LongNamesPack(tb testing.TB, n, nameLen int) []byte {
	tb.Helper()
	prefix := strings.Repeat("d/", nameLen/2)
	a := &sarc.Archive{}
	for i := range n {
		a.Files = append(a.Files, sarc.File{Name: fmt.Sprintf("%s%06d", prefix, i), Data: []byte{byte(i)}})
	}
	b, err := a.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
