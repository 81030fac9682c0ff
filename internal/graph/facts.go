package graph

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"unsafe"

	"github.com/spaolacci/murmur3"

	"ainbeditor/internal/ainb"
)

// Layout facts: what the binary a document was parsed from stored that the document does not
// express and the canonical derivation does not give. They travel in Document.Layout as an
// opaque string and make an unedited document build the very bytes it came from. They never
// hold the input bytes: each fact is a measured difference from the canonical derivation, and
// most files have none.
//
// Each fact is keyed to what it describes and applies while that still exists, whatever else
// the edit changed; an edit therefore changes the built file only where it changed what the
// file says:
//
//   - Node facts are kept by node id (attachment facts by attachment index); the facts of a node
//     whose id is gone are dropped.
//   - A word fact describes one value: a property, an input, one source of a multi-input, a
//     child, a jump, or the node's own flag byte and Reserved10. It carries a check word, a hash
//     of that value's kind: a property's or input's type, whether the input is a multi-input
//     and, for facts about flag words and source words, the kind of its source (immediate, node
//     output, node output through an expression, blackboard parameter or expression; not which
//     one); a child's node type and
//     whether its condition reads a blackboard parameter. A fact applies while the value at its
//     position (the index in the node's flat list) exists and has that kind, independent of
//     other edits on the node: changing a value, a default, a name or the node's children keeps
//     the facts of every other value, and the value's own facts as long as its kind stays.
//     Changing a source's kind (connecting, disconnecting, immediate to blackboard...) drops its
//     flag and source word facts. A flag or condition word a fact changes must moreover still
//     read back as the document's source (a stored out-of-range blackboard index must not
//     become a real reference once the blackboard grew) and must pass ainb's validation (no
//     expression index past the last function); otherwise the fact is dropped. Source word facts
//     (the raw node and output words of a source that is not a node output) never apply to a
//     node source.
//   - Mirror plugs (the stored Generic/String/Int plug lists, which the canonical derivation
//     makes from the inputs) carry a fingerprint of exactly what they are derived from: the node
//     type and each input's name, type and source (node id and output, blackboard parameter and
//     component, expression; a multi-input's whole source list). They apply while that is
//     unchanged and every node id they name exists: editing a property, a value, a default,
//     the node's name, children, jumps or anything else keeps them; changing, connecting or
//     disconnecting an input's source, renaming, retyping, adding or removing an input, or
//     changing the node type drops them, and the node gets the canonical mirror plugs.
//
// Nodes a document adds have no facts and are canonical.

// Kinds of word facts. a and b index the node's (or attachment's) flat lists.
const (
	fkFlags      = iota + 1 // element flag bits the document has no name for (the whole byte, XOR)
	fkReserved10            // Element.Reserved10
	fkPropFlags             // property a: ParamFlags XOR the derived word
	fkPropWord              // property a: a bool stored as a word other than 0 or 1
	fkInFlags               // input a: ParamFlags XOR the derived word (a multi-input's own word)
	fkInWord                // input a: bool word other than 0/1, or a pointer input's value word
	fkInRaw                 // input a: node and output words (u16 each) the source does not give
	fkSrcFlags              // input a, source b: ParamFlags XOR the derived word
	fkSrcRaw                // input a, source b: node and output words
	fkChildWord             // child a: first extra word XOR the derived one
	fkChildMax              // child a: F32 range max word XOR the derived one
	fkChildRes              // child a, reserved word b of an F32 range
	fkJump                  // jump a: the reserved bits of its table entry
	fkLinks                 // ainb.ElementKept.Links: a derived, v stored
	fkExprSize              // ainb.ElementKept.ExpressionIOSize: a derived, v stored
	fkEmptyEnd              // ainb.Attachment.EmptyEnd: a derived, v stored
	fkNameHash              // ainb.ElementKept.NameHash or ainb.Attachment.NameHash: a derived, v stored
	numFactKinds
)

type fact struct {
	kind uint8
	a, b int
	v    uint32
	chk  uint32 // word facts of a node or attachment: what the fact describes (valueChk, childChk)
}

// plugFact is a stored mirror plug: Node is a node id, or with raw the number as stored (it
// named no node when parsed).
type plugFact struct {
	node   int
	raw    bool
	vector bool // ainb.Plug.Vector, with vec the bits of its floats
	vec    [3]uint32
	name   string
	word   uint32
	int    int32
	float  uint32
	string string
}

// ownerFacts are the facts of one node or attachment.
type ownerFacts struct {
	key    int    // node id or attachment index
	fp     uint64 // with mirror: mirrorFingerprint of the node
	words  []fact
	mirror *[3][]plugFact // Generic, String, Int as stored
}

func (o *ownerFacts) add(kind uint8, a, b int, v, chk uint32) {
	o.words = append(o.words, fact{kind, a, b, v, chk})
}

// mirrorKinds are the plug lists whose stored contents the mirror facts hold.
var mirrorKinds = [3]ainb.PlugKind{ainb.PlugGeneric, ainb.PlugString, ainb.PlugInt}

// fileFacts are all facts of a document.
type fileFacts struct {
	strings    []string // the string pool in file order; nil when canonical
	hasStrings bool
	tails      []string // ainb.Layout.Tails: strings the file referenced inside a longer one
	// queryOrder is ainb.Layout.QueryOrder as node ids: the order of the nodes' ranges in the
	// query id table, when it is not node order.
	queryOrder []int
	section6C  uint32
	header54   uint32
	categoryID *uint32
	// exbListing is the expression binary as a listing, used while the function texts hash to
	// exbTexts; empty when the canonical rebuild from the texts gives the stored bytes.
	exbListing string
	// exbTexts is textsHash of the function texts as parsed, with a listing or a module of
	// two or more functions (0 otherwise): a build checks the parsed texts the editor sends
	// back for changed functions (Function.ParsedText) against it.
	exbTexts uint64
	replProc uint8
	replNew  []fact // replacement a: its New word
	relocs   []fact // enum relocation a: the offset it points at (no target)
	bbWords  []fact // blackboard parameter a: a bool stored as a word other than 0 or 1
	// kept are the file's counts stored otherwise than derived (ainb.Kept): kind is one of
	// the keptX below, a the derived value, v the stored one.
	kept  []fact
	nodes []*ownerFacts
	atts  []*ownerFacts
}

func (f *fileFacts) empty() bool {
	return !f.hasStrings && len(f.tails) == 0 && len(f.queryOrder) == 0 && f.section6C == 0 && f.header54 == 0 && f.categoryID == nil &&
		f.exbListing == "" && f.exbTexts == 0 && f.replProc == 0 && len(f.replNew) == 0 && len(f.relocs) == 0 &&
		len(f.bbWords) == 0 && len(f.nodes) == 0 && len(f.atts) == 0 && len(f.kept) == 0
}

// Kinds of file-level kept counts (fileFacts.kept).
const (
	keptQueries = iota + 1
	keptModuleOutputs
	keptReplacedElements
	keptReplacedAttachments
	keptMultiByElement // ainb.Layout.MultiByElement, v 1
	keptExpressionInstances
	keptQueryShared // ainb.Layout.QueryShared, v 1
	keptQueryAlign8 // ainb.Layout.QueryAlign8, v 1
	numKept
)

// keptOf lists the file's kept counts as facts.
func keptOf(l *ainb.Layout) []fact {
	var fs []fact
	for kind, k := range [...]ainb.Kept{keptQueries: l.Queries, keptModuleOutputs: l.ModuleOutputs,
		keptReplacedElements: l.ReplacedElements, keptReplacedAttachments: l.ReplacedAttachments,
		keptExpressionInstances: l.ExpressionInstances} {
		if k != (ainb.Kept{}) {
			fs = append(fs, fact{kind: uint8(kind), a: int(k.Derived), v: k.Stored})
		}
	}
	for kind, set := range map[uint8]bool{keptMultiByElement: l.MultiByElement, keptQueryShared: l.QueryShared, keptQueryAlign8: l.QueryAlign8} {
		if set {
			fs = append(fs, fact{kind: kind, v: 1})
		}
	}
	slices.SortFunc(fs, func(a, b fact) int { return int(a.kind) - int(b.kind) })
	return fs
}

// setKept puts kept count facts back into a layout.
func setKept(l *ainb.Layout, fs []fact) {
	for _, f := range fs {
		k := ainb.Kept{Derived: uint32(f.a), Stored: f.v}
		switch f.kind {
		case keptQueries:
			l.Queries = k
		case keptModuleOutputs:
			l.ModuleOutputs = k
		case keptReplacedElements:
			l.ReplacedElements = k
		case keptReplacedAttachments:
			l.ReplacedAttachments = k
		case keptMultiByElement:
			l.MultiByElement = f.v == 1
		case keptExpressionInstances:
			l.ExpressionInstances = k
		case keptQueryShared:
			l.QueryShared = f.v == 1
		case keptQueryAlign8:
			l.QueryAlign8 = f.v == 1
		}
	}
}

// Layout versions: 2 keys node facts to what they describe (check words, mirror
// fingerprints) and records string pool tails. A version 1 layout (whole-node fingerprints)
// is still read for its file facts; its node and attachment facts are dropped, leaving those
// canonical.
const (
	layoutMagic   = 'L'
	layoutVersion = 2
)

// varints appends unsigned and signed varints, and strings after their length: what the
// layout is written in, and what fingerprints and check words hash.
type varints struct{ b []byte }

func (w *varints) u(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *varints) i(v int64)  { w.b = binary.AppendVarint(w.b, v) }
func (w *varints) s(v string) {
	w.u(uint64(len(v)))
	w.b = append(w.b, v...)
}

// lw writes the layout.
type lw struct{ varints }

func (w *lw) facts(fs []fact, chk bool) {
	w.u(uint64(len(fs)))
	for _, f := range fs {
		w.u(uint64(f.kind))
		w.u(uint64(f.a))
		w.u(uint64(f.b))
		w.u(uint64(f.v))
		if chk {
			w.u(uint64(f.chk))
		}
	}
}

func (w *lw) owners(os []*ownerFacts) {
	w.u(uint64(len(os)))
	for _, o := range os {
		w.u(uint64(o.key))
		w.b = binary.LittleEndian.AppendUint64(w.b, o.fp)
		w.facts(o.words, true)
		if o.mirror == nil {
			w.u(0)
			continue
		}
		w.u(1)
		for _, ps := range o.mirror {
			w.u(uint64(len(ps)))
			for _, p := range ps {
				// Bit 0 says raw, bit 1 vector (whose floats follow the string): layouts written
				// before vectors have only 0 and 1 here.
				bits := uint64(0)
				if p.raw {
					bits |= 1
				}
				if p.vector {
					bits |= 2
				}
				w.u(bits)
				w.i(int64(p.node))
				w.s(p.name)
				w.u(uint64(p.word))
				w.i(int64(p.int))
				w.u(uint64(p.float))
				w.s(p.string)
				if p.vector {
					for _, v := range p.vec {
						w.u(uint64(v))
					}
				}
			}
		}
	}
}

// encodeLayout writes the facts as the layout string: base64 (URL alphabet, no padding) of
// a magic byte, a version, the facts as varints and a CRC-32 of all that.
func encodeLayout(f *fileFacts) string {
	if f.empty() {
		return ""
	}
	w := &lw{varints{b: []byte{layoutMagic, layoutVersion}}}
	var bits uint64
	if f.hasStrings {
		bits |= 1
	}
	if f.categoryID != nil {
		bits |= 2
	}
	if len(f.tails) > 0 {
		bits |= 4
	}
	if len(f.queryOrder) > 0 {
		bits |= 8
	}
	if len(f.kept) > 0 {
		bits |= 16
	}
	w.u(bits)
	if f.hasStrings {
		w.u(uint64(len(f.strings)))
		for _, s := range f.strings {
			w.s(s)
		}
	}
	if len(f.tails) > 0 {
		w.u(uint64(len(f.tails)))
		for _, s := range f.tails {
			w.s(s)
		}
	}
	if len(f.queryOrder) > 0 {
		w.u(uint64(len(f.queryOrder)))
		for _, id := range f.queryOrder {
			w.u(uint64(id))
		}
	}
	if f.categoryID != nil {
		w.u(uint64(*f.categoryID))
	}
	w.u(uint64(f.section6C))
	w.u(uint64(f.header54))
	w.s(f.exbListing)
	w.u(f.exbTexts)
	w.u(uint64(f.replProc))
	w.facts(f.replNew, false)
	w.facts(f.relocs, false)
	w.facts(f.bbWords, false)
	w.owners(f.nodes)
	w.owners(f.atts)
	if len(f.kept) > 0 {
		w.facts(f.kept, false)
	}
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b))
	return base64.RawURLEncoding.EncodeToString(w.b)
}

type lr struct {
	b   []byte
	err error
}

var errLayoutShort = errors.New("ends early")

func (r *lr) u(max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errLayoutShort
		return 0
	}
	if v > max {
		r.err = fmt.Errorf("value %d out of range", v)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *lr) i(lo, hi int64) int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errLayoutShort
		return 0
	}
	if v < lo || v > hi {
		r.err = fmt.Errorf("value %d out of range", v)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *lr) s() string {
	n := r.u(uint64(len(r.b)))
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// count reads a list length, bounded by what the remaining bytes can hold.
func (r *lr) count(minSize int) int {
	return int(r.u(uint64(len(r.b) / minSize)))
}

func (r *lr) facts(chk bool) []fact {
	size := 4
	if chk {
		size = 5
	}
	n := r.count(size)
	if n == 0 {
		return nil
	}
	fs := make([]fact, n)
	for i := range fs {
		fs[i] = fact{kind: uint8(r.u(numFactKinds - 1)), a: int(r.u(math.MaxUint32)), b: int(r.u(math.MaxInt32)), v: uint32(r.u(math.MaxUint32))}
		if chk {
			fs[i].chk = uint32(r.u(math.MaxUint32))
		}
	}
	return fs
}

// owners reads node or attachment facts; chk says the word facts have check words (version 2).
func (r *lr) owners(chk bool) []*ownerFacts {
	n := r.count(11)
	os := make([]*ownerFacts, n)
	all := make([]ownerFacts, n)
	var mirrors [][3][]plugFact // one for each owner with mirror facts, made at the first
	for i := range os {
		o := &all[i]
		*o = ownerFacts{key: int(r.u(math.MaxInt32))}
		os[i] = o
		if r.err == nil && len(r.b) < 8 {
			r.err = errLayoutShort
		}
		if r.err != nil {
			return nil
		}
		o.fp = binary.LittleEndian.Uint64(r.b)
		r.b = r.b[8:]
		o.words = r.facts(chk)
		if r.u(1) == 1 {
			if mirrors == nil {
				mirrors = make([][3][]plugFact, 0, n-i) // never regrown: owners point into it
			}
			mirrors = append(mirrors, [3][]plugFact{})
			m := &mirrors[len(mirrors)-1]
			for k := range m {
				ps := make([]plugFact, r.count(7))
				for j := range ps {
					p := &ps[j]
					bits := r.u(3)
					p.raw, p.vector = bits&1 != 0, bits&2 != 0
					p.node = int(r.i(math.MinInt32, math.MaxInt32))
					p.name = r.s()
					p.word = uint32(r.u(math.MaxUint32))
					p.int = int32(r.i(math.MinInt32, math.MaxInt32))
					p.float = uint32(r.u(math.MaxUint32))
					p.string = r.s()
					if p.vector {
						for v := range p.vec {
							p.vec[v] = uint32(r.u(math.MaxUint32))
						}
					}
				}
				m[k] = ps
			}
			o.mirror = m
		}
	}
	return os
}

// decodeLayout reads a layout string, checking that it is one this package wrote.
func decodeLayout(s string) (*fileFacts, error) {
	f := &fileFacts{}
	if s == "" {
		return f, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 6 || b[0] != layoutMagic {
		return nil, errors.New("not a layout this editor wrote: send back the layout /api/parse gave, unchanged, or leave it out")
	}
	if b[1] != layoutVersion && b[1] != 1 {
		return nil, fmt.Errorf("layout version %d, want %d", b[1], layoutVersion)
	}
	v2 := b[1] == layoutVersion
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch: the layout was changed; send it back as /api/parse gave it, or leave it out")
	}
	r := &lr{b: body[2:]}
	bits := r.u(31)
	if bits&1 != 0 {
		f.hasStrings = true
		f.strings = make([]string, r.count(1))
		for i := range f.strings {
			f.strings[i] = r.s()
		}
	}
	if bits&4 != 0 {
		f.tails = make([]string, r.count(1))
		for i := range f.tails {
			f.tails[i] = r.s()
		}
	}
	if bits&8 != 0 {
		f.queryOrder = make([]int, r.count(1))
		for i := range f.queryOrder {
			f.queryOrder[i] = int(r.u(math.MaxInt32))
		}
	}
	if bits&2 != 0 {
		v := uint32(r.u(math.MaxUint32))
		f.categoryID = &v
	}
	f.section6C = uint32(r.u(math.MaxUint32))
	f.header54 = uint32(r.u(math.MaxUint32))
	f.exbListing = r.s()
	f.exbTexts = r.u(math.MaxUint64)
	f.replProc = uint8(r.u(255))
	f.replNew = r.facts(false)
	f.relocs = r.facts(false)
	f.bbWords = r.facts(false)
	f.nodes = r.owners(v2)
	f.atts = r.owners(v2)
	if bits&16 != 0 {
		f.kept = r.facts(false)
		for _, k := range f.kept {
			if k.kind >= numKept || k.a > math.MaxUint32 {
				r.err = fmt.Errorf("kept count kind %d out of range", k.kind)
			}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("has trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("layout %v", r.err)
	}
	if !v2 {
		f.nodes, f.atts = nil, nil
	}
	return f, nil
}

// Fingerprints and check words: hashes of what a fact describes.

type hasher struct{ varints }

func (h *hasher) bool(v bool) {
	if v {
		h.b = append(h.b, 1)
	} else {
		h.b = append(h.b, 0)
	}
}
func (h *hasher) opt(p *int) {
	if p == nil {
		h.b = append(h.b, 0)
		return
	}
	h.b = append(h.b, 1)
	h.i(int64(*p))
}

// source hashes where a value comes from, its flags (isOutput, usesDefault) left out: they do
// not go into the mirror plugs.
func (h *hasher) source(s *Source) {
	if s == nil {
		h.b = append(h.b, 0)
		return
	}
	h.b = append(h.b, 1)
	h.opt(s.Node)
	h.i(int64(s.Output))
	h.opt(s.Blackboard)
	h.s(s.Component)
	h.opt(s.Expression)
}

func (h *hasher) sum() uint64 { return murmur3.Sum64(h.b) }

// mirrorFingerprint hashes what a node's mirror plugs are derived from: its type and each
// input's name, type and source (a multi-input's whole source list).
func mirrorFingerprint(h *hasher, n *Node) uint64 {
	h.b = h.b[:0]
	h.s(string(n.Type))
	h.u(uint64(len(n.Inputs)))
	for k := range n.Inputs {
		in := &n.Inputs[k]
		h.s(in.Name)
		h.s(string(in.Type))
		if in.Sources == nil {
			h.b = append(h.b, 0)
			h.source(in.Source)
			continue
		}
		h.b = append(h.b, 1)
		h.u(uint64(len(in.Sources)))
		for m := range in.Sources {
			h.source(&in.Sources[m])
		}
	}
	return h.sum()
}

// Source kinds, as check words tell them apart. A node output through an expression is a
// kind of its own: adding or removing the expression changes the flag word's source bits,
// so the facts of the one kind must not apply to the other. (Documents written before the
// document could say it have such sources as plain node outputs with a fact holding the
// expression bits; that fact keeps applying to the plain node output, which therefore still
// builds as it was stored.)
const (
	kindImmediate = iota
	kindNode
	kindBlackboard
	kindExpression
	kindNodeExpression
)

func sourceKind(s *Source) uint64 {
	switch {
	case s == nil:
	case s.Node != nil && s.Expression != nil:
		return kindNodeExpression
	case s.Node != nil:
		return kindNode
	case s.Blackboard != nil:
		return kindBlackboard
	case s.Expression != nil:
		return kindExpression
	}
	return kindImmediate
}

// valueChk is the check word of a word fact about a property (multi false), an input, or with
// multi and src one source of a multi-input: the fact's kind, the value's type, whether it is
// a multi-input and, but for facts about a stored value word (fkPropWord, fkInWord), the kind
// of its source.
func valueChk(h *hasher, kind uint8, typ ValueType, multi bool, src *Source) uint32 {
	h.b = h.b[:0]
	h.u(uint64(kind))
	h.s(string(typ))
	h.bool(multi)
	if kind != fkPropWord && kind != fkInWord {
		h.u(sourceKind(src))
	}
	return murmur3.Sum32(h.b)
}

// childChk is the check word of a word fact about a child: the fact's kind, the node type (it
// decides the plug layout) and whether the condition word the fact is about reads a
// blackboard parameter.
func childChk(h *hasher, kind uint8, typ NodeType, blackboard bool) uint32 {
	h.b = h.b[:0]
	h.u(uint64(kind))
	h.s(string(typ))
	h.bool(blackboard)
	return murmur3.Sum32(h.b)
}

// textsHash identifies the expression function texts as parsed: the ones an EXB listing fact
// goes with, or that a module of several functions assembles to. It is the murmur3 hash of
// the count and each text after its length, as a hasher writes them, streamed: the texts
// (tens of kilobytes) are not copied into one buffer first.
func textsHash(texts []string) uint64 {
	d := murmur3.New64()
	var n [binary.MaxVarintLen64]byte
	d.Write(binary.AppendUvarint(n[:0], uint64(len(texts))))
	for _, t := range texts {
		d.Write(binary.AppendUvarint(n[:0], uint64(len(t))))
		d.Write(unsafe.Slice(unsafe.StringData(t), len(t))) // read only: Write copies what it keeps
	}
	return d.Sum64()
}
