package sarc

import (
	"encoding/binary"
	"path"
	"strings"
)

// extAlignment lists data alignments by extension, as the public tools' writers apply them
// (oead's SarcWriter, from the aglenv resource table of BotW and from observed archives).
var extAlignment = map[string]uint32{
	// agl environment resources (text and binary extensions)
	"aglenv": 8, "baglenv": 8, "aglenvset": 8, "baglenvset": 8, "aglblm": 8, "baglblm": 8,
	"agldof": 8, "bagldof": 8, "aglccr": 8, "baglccr": 8, "agllmap": 8, "bagllmap": 8,
	"gsdw": 8, "bgsdw": 8, "aglshpp": 8, "baglshpp": 8, "glght": 8, "bglght": 8,
	"pref": 8, "bpref": 8, "aglfila": 8, "baglfila": 8, "aglatex": 8, "baglatex": 8,
	"aglsky": 8, "baglsky": 8, "aglclwd": 8, "baglclwd": 8, "aglvolm": 8, "baglvolm": 8,
	"aglcube": 8, "baglcube": 8, "glpbm": 8, "bglpbm": 8, "glpbd": 8, "bglpbd": 8,
	"fmd": 0x2000, "ftx": 0x2000, "genvres": 0x2000, "ofx": 0x2000, "bofx": 0x2000,
	// BotW postfx sky parameters, terrain, shader archives, layout filters
	"ksky": 8, "bksky": 8, "gtx": 0x2000, "sharcb": 0x1000, "sharc": 0x1000, "baglmf": 0x80,
}

// ruleAlignment is the alignment the public tools give a new file: the archive's minimum,
// the extension's requirement, the alignment an nn::util::BinaryFileHeader declares, and for
// big-endian archives a Wii U FLIM texture's footer alignment. All are powers of two, so
// the largest is their least common multiple.
func (a *Archive) ruleAlignment(name string, data []byte) uint32 {
	al := a.MinAlignment
	if al == 0 {
		al = 4
	}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	al = max(al, extAlignment[ext])
	if ext == "bffnt" {
		if a.BigEndian {
			al = max(al, 0x2000)
		} else {
			al = max(al, 0x1000)
		}
	}
	al = max(al, binaryFileHeaderAlignment(data))
	if a.BigEndian {
		al = max(al, flimAlignment(data))
	}
	return al
}

// maxHeaderAlignment caps what a file's own header may ask for: 0x2000 is the largest
// alignment any known archive or tool uses, and without a cap a hostile header byte could
// ask for 2 GiB of padding.
const maxHeaderAlignment = 0x2000

// binaryFileHeaderAlignment reads the alignment from an nn::util::BinaryFileHeader (byte
// order mark at 0xC, log2 alignment at 0xE, file size at 0x1C); 1 when data has none or
// asks for more than maxHeaderAlignment.
func binaryFileHeaderAlignment(data []byte) uint32 {
	if len(data) <= 0x20 {
		return 1
	}
	var bo binary.ByteOrder
	switch {
	case data[0xC] == 0xFE && data[0xD] == 0xFF:
		bo = binary.BigEndian
	case data[0xC] == 0xFF && data[0xD] == 0xFE:
		bo = binary.LittleEndian
	default:
		return 1
	}
	if uint64(bo.Uint32(data[0x1C:])) != uint64(len(data)) || data[0xE] > 13 { // 1<<13 == maxHeaderAlignment
		return 1
	}
	return 1 << data[0xE]
}

// flimAlignment reads a Wii U FLIM footer's alignment field (big endian, 8 bytes from the end).
func flimAlignment(data []byte) uint32 {
	if len(data) <= 0x28 || string(data[len(data)-0x28:len(data)-0x24]) != "FLIM" {
		return 1
	}
	al := uint32(binary.BigEndian.Uint16(data[len(data)-8:]))
	if al == 0 || al&(al-1) != 0 || al > maxHeaderAlignment {
		return 1
	}
	return al
}

func alignUp(x, a uint32) uint32 { return (x + a - 1) &^ (a - 1) }

// inferAlign finds how a writer got from prevEnd to begin: want (the alignment our rules
// would give) if that explains it, else the explaining power of two nearest to want. It
// returns pad != 0 when no alignment explains the gap.
func inferAlign(prevEnd, begin, want uint32) (align, pad uint32) {
	if alignUp(prevEnd, want) == begin {
		return want, 0
	}
	// Powers of two a with begin%a == 0 and begin-prevEnd < a explain the gap.
	gap := begin - prevEnd
	hi := begin & -begin
	if begin == 0 {
		hi = 1 << 31
	}
	lo := uint32(1)
	for lo <= gap && lo < hi {
		lo <<= 1
	}
	if lo > gap && lo <= hi {
		return min(max(want, lo), hi), 0
	}
	return 1, gap
}
