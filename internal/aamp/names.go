package aamp

import (
	_ "embed"
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

// numberedSuffixes are the usual ways Nintendo numbers the children of a structure.
var numberedSuffixes = []string{"%d", "_%d", "%02d", "_%02d", "%03d", "_%03d"}

func numbered(base, sfx string, i int) string {
	n := strconv.Itoa(i)
	switch sfx {
	case "%02d", "_%02d":
		for len(n) < 2 {
			n = "0" + n
		}
	case "%03d", "_%03d":
		for len(n) < 3 {
			n = "0" + n
		}
	}
	if sfx[0] == '_' {
		return base + "_" + n
	}
	return base + n
}

// Namer turns hashes into names for one document: names from the built-in list, strings
// found in the document itself (values and the type string) and numbered forms of the
// parent's name guessed from a child's position. It is not safe for concurrent use.
type Namer struct {
	local   map[Name]string
	guessed map[Name]string
}

// NewNamer prepares a Namer for pio (which may be nil).
func NewNamer(pio *ParameterIO) *Namer {
	n := &Namer{local: map[Name]string{}, guessed: map[Name]string{}}
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
	p, ok := defaultNames()[parent]
	if !ok {
		p, ok = n.local[parent]
	}
	if !ok {
		p, ok = n.guessed[parent]
	}
	if !ok {
		return "", false
	}
	bases := []string{p, "Children", "Child"}
	for _, cut := range []string{"s", "es", "List"} {
		if len(p) > len(cut) && strings.HasSuffix(p, cut) {
			bases = append(bases, strings.TrimSuffix(p, cut))
		}
	}
	for _, b := range bases {
		for _, i := range []int{index, index + 1} {
			for _, sfx := range numberedSuffixes {
				if c := numbered(b, sfx, i); NameOf(c) == h {
					n.guessed[h] = c
					return c, true
				}
			}
		}
	}
	return "", false
}
