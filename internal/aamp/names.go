package aamp

import (
	_ "embed"
	"hash/crc32"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ./gennames -corpus ../../../shared/corpus -seeds gennames/seeds.txt -out names.txt

// names.txt is compiled by gennames: names whose CRC32 was seen in the corpus.
//
//go:embed names.txt
var namesTxt string

var defaultNames = sync.OnceValue(func() map[Name]string {
	m := make(map[Name]string, 4096)
	for line := range strings.SplitSeq(namesTxt, "\n") {
		if line != "" {
			m[NameOf(line)] = line
		}
	}
	m[RootName] = "param_root"
	return m
})

// KnownName returns the name of a hash from the built-in name list.
func KnownName(h Name) (string, bool) {
	s, ok := defaultNames()[h]
	return s, ok
}

// numberedSuffixes are the usual ways Nintendo numbers the children of a structure:
// an optional '_' and the index with at least 1, 2 or 3 digits.
var numberedSuffixes = []struct {
	underscore bool
	width      int
}{{false, 1}, {true, 1}, {false, 2}, {true, 2}, {false, 3}, {true, 3}}

// appendNumber appends a numbered suffix to b.
func appendNumber(b []byte, underscore bool, width, i int) []byte {
	if underscore {
		b = append(b, '_')
	}
	n := strconv.Itoa(i)
	for w := len(n); w < width; w++ {
		b = append(b, '0')
	}
	return append(b, n...)
}

// Namer turns hashes into names for one document: names from the built-in list, strings
// found in the document itself (values and the type string) and numbered forms of the
// parent's name guessed from a child's position. It is not safe for concurrent use.
type Namer struct {
	local   map[Name]string
	guessed map[Name]string
	bases   map[Name][]string // numbering bases derived from a parent's name
}

// NewNamer prepares a Namer for pio (which may be nil).
func NewNamer(pio *ParameterIO) *Namer {
	n := &Namer{local: map[Name]string{}, guessed: map[Name]string{}, bases: map[Name][]string{}}
	if pio == nil {
		return n
	}
	n.add(pio.Type)
	for h, s := range pio.names {
		n.local[h] = s
	}
	var walk func(l *ParameterList)
	walk = func(l *ParameterList) {
		for _, c := range l.Lists {
			walk(c)
		}
		for _, o := range l.Objects {
			for i := range o.Params {
				if s, ok := o.Params[i].Value.(string); ok {
					n.add(s)
				}
			}
		}
	}
	walk(&pio.Root)
	return n
}

func (n *Namer) add(s string) {
	if s != "" {
		n.local[NameOf(s)] = s
	}
}

// Name returns the name of hash h, the child at position index of a structure named
// parent, or "", false when no name is known.
func (n *Namer) Name(h Name, index int, parent Name) (string, bool) {
	if s, ok := defaultNames()[h]; ok {
		return s, true
	}
	if s, ok := n.local[h]; ok {
		return s, true
	}
	if s, ok := n.guessed[h]; ok {
		return s, true
	}
	bases, ok := n.bases[parent]
	if !ok {
		p, known := defaultNames()[parent]
		if !known {
			p, known = n.local[parent]
		}
		if !known {
			p, known = n.guessed[parent]
		}
		if known {
			bases = []string{p, "Children", "Child"}
			for _, cut := range []string{"s", "es", "List"} {
				if len(p) > len(cut) && strings.HasSuffix(p, cut) {
					bases = append(bases, strings.TrimSuffix(p, cut))
				}
			}
		}
		n.bases[parent] = bases
	}
	// The CRC of base+suffix continues from the CRC of base: no string is built unless a
	// candidate matches.
	var buf [16]byte
	for _, b := range bases {
		h0 := crc32.ChecksumIEEE([]byte(b))
		for _, i := range []int{index, index + 1} {
			for _, sfx := range numberedSuffixes {
				suffix := appendNumber(buf[:0], sfx.underscore, sfx.width, i)
				if Name(crc32.Update(h0, crc32.IEEETable, suffix)) == h {
					c := b + string(suffix)
					n.guessed[h] = c
					return c, true
				}
			}
		}
	}
	return "", false
}
