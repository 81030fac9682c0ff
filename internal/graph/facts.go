package graph

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/spaolacci/murmur3"

	"ainbeditor/internal/ainb"
)

// Layout facts: what the binary a document was parsed from stored that the document does not
// express and the canonical derivation does not give. They travel in Document.Layout as an
// opaque string and make an unedited document build the very bytes it came from. They never
// hold the input bytes: each fact is a measured difference from the canonical derivation, and
// most files have none.
//
// Facts about a node (or an attachment) carry a fingerprint of its document content at parse
// time; a build applies them only while the fingerprint still matches and the node ids they
// mention still exist. An edited node therefore becomes canonical and an untouched one keeps
// its bytes, whatever happens elsewhere.

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
	numFactKinds
)

type fact struct {
	kind uint8
	a, b int
	v    uint32
}

// plugFact is a stored mirror plug: Node is a node id, or with raw the number as stored (it
// named no node when parsed).
type plugFact struct {
	node   int
	raw    bool
	name   string
	word   uint32
	int    int32
	float  uint32
	string string
}

// ownerFacts are the facts of one node or attachment.
type ownerFacts struct {
	key    int // node id or attachment index
	fp     uint64
	words  []fact
	mirror *[3][]plugFact // Generic, String, Int as stored
}

func (o *ownerFacts) add(kind uint8, a, b int, v uint32) {
	o.words = append(o.words, fact{kind, a, b, v})
}

// mirrorKinds are the plug lists whose stored contents the mirror facts hold.
var mirrorKinds = [3]ainb.PlugKind{ainb.PlugGeneric, ainb.PlugString, ainb.PlugInt}

// fileFacts are all facts of a document.
type fileFacts struct {
	strings    []string // the string pool in file order; nil when canonical
	hasStrings bool
	section6C  uint32
	header54   uint32
	categoryID *uint32
	// exbListing is the expression binary as a listing, used while the function texts hash to
	// exbTexts; empty when the canonical rebuild from the texts gives the stored bytes.
	exbListing string
	exbTexts   uint64
	replProc   uint8
	replNew    []fact // replacement a: its New word
	relocs     []fact // enum relocation a: the offset it points at (no target)
	bbWords    []fact // blackboard parameter a: a bool stored as a word other than 0 or 1
	nodes      []*ownerFacts
	atts       []*ownerFacts
}

func (f *fileFacts) empty() bool {
	return !f.hasStrings && f.section6C == 0 && f.header54 == 0 && f.categoryID == nil &&
		f.exbListing == "" && f.replProc == 0 && len(f.replNew) == 0 && len(f.relocs) == 0 &&
		len(f.bbWords) == 0 && len(f.nodes) == 0 && len(f.atts) == 0
}

const (
	layoutMagic   = 'L'
	layoutVersion = 1
)

type lw struct{ b []byte }

func (w *lw) u(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *lw) i(v int64)  { w.b = binary.AppendVarint(w.b, v) }
func (w *lw) s(v string) {
	w.u(uint64(len(v)))
	w.b = append(w.b, v...)
}

func (w *lw) facts(fs []fact) {
	w.u(uint64(len(fs)))
	for _, f := range fs {
		w.u(uint64(f.kind))
		w.u(uint64(f.a))
		w.u(uint64(f.b))
		w.u(uint64(f.v))
	}
}

func (w *lw) owners(os []*ownerFacts) {
	w.u(uint64(len(os)))
	for _, o := range os {
		w.u(uint64(o.key))
		w.b = binary.LittleEndian.AppendUint64(w.b, o.fp)
		w.facts(o.words)
		if o.mirror == nil {
			w.u(0)
			continue
		}
		w.u(1)
		for _, ps := range o.mirror {
			w.u(uint64(len(ps)))
			for _, p := range ps {
				if p.raw {
					w.u(1)
				} else {
					w.u(0)
				}
				w.i(int64(p.node))
				w.s(p.name)
				w.u(uint64(p.word))
				w.i(int64(p.int))
				w.u(uint64(p.float))
				w.s(p.string)
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
	w := &lw{b: []byte{layoutMagic, layoutVersion}}
	var bits uint64
	if f.hasStrings {
		bits |= 1
	}
	if f.categoryID != nil {
		bits |= 2
	}
	w.u(bits)
	if f.hasStrings {
		w.u(uint64(len(f.strings)))
		for _, s := range f.strings {
			w.s(s)
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
	w.facts(f.replNew)
	w.facts(f.relocs)
	w.facts(f.bbWords)
	w.owners(f.nodes)
	w.owners(f.atts)
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

func (r *lr) facts() []fact {
	n := r.count(4)
	if n == 0 {
		return nil
	}
	fs := make([]fact, n)
	for i := range fs {
		fs[i] = fact{uint8(r.u(numFactKinds - 1)), int(r.u(math.MaxInt32)), int(r.u(math.MaxInt32)), uint32(r.u(math.MaxUint32))}
	}
	return fs
}

func (r *lr) owners() []*ownerFacts {
	n := r.count(11)
	os := make([]*ownerFacts, n)
	for i := range os {
		o := &ownerFacts{key: int(r.u(math.MaxInt32))}
		if r.err == nil && len(r.b) < 8 {
			r.err = errLayoutShort
		}
		if r.err != nil {
			return nil
		}
		o.fp = binary.LittleEndian.Uint64(r.b)
		r.b = r.b[8:]
		o.words = r.facts()
		if r.u(1) == 1 {
			var m [3][]plugFact
			for k := range m {
				ps := make([]plugFact, r.count(7))
				for j := range ps {
					p := &ps[j]
					p.raw = r.u(1) == 1
					p.node = int(r.i(math.MinInt32, math.MaxInt32))
					p.name = r.s()
					p.word = uint32(r.u(math.MaxUint32))
					p.int = int32(r.i(math.MinInt32, math.MaxInt32))
					p.float = uint32(r.u(math.MaxUint32))
					p.string = r.s()
				}
				m[k] = ps
			}
			o.mirror = &m
		}
		os[i] = o
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
	if b[1] != layoutVersion {
		return nil, fmt.Errorf("layout version %d, want %d", b[1], layoutVersion)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch: the layout was changed; send it back as /api/parse gave it, or leave it out")
	}
	r := &lr{b: body[2:]}
	bits := r.u(3)
	if bits&1 != 0 {
		f.hasStrings = true
		f.strings = make([]string, r.count(1))
		for i := range f.strings {
			f.strings[i] = r.s()
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
	f.replNew = r.facts()
	f.relocs = r.facts()
	f.bbWords = r.facts()
	f.nodes = r.owners()
	f.atts = r.owners()
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("has trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("layout %v", r.err)
	}
	return f, nil
}

// Fingerprints: a hash of a node's document content, positions left out.

type hasher struct{ b []byte }

func (h *hasher) u(v uint64) { h.b = binary.AppendUvarint(h.b, v) }
func (h *hasher) i(v int64)  { h.b = binary.AppendVarint(h.b, v) }
func (h *hasher) s(v string) {
	h.u(uint64(len(v)))
	h.b = append(h.b, v...)
}
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
func (h *hasher) optBool(p *bool) {
	switch {
	case p == nil:
		h.b = append(h.b, 2)
	case *p:
		h.b = append(h.b, 1)
	default:
		h.b = append(h.b, 0)
	}
}
func (h *hasher) float(f Float) { h.u(uint64(math.Float32bits(float32(f)))) }
func (h *hasher) optFloat(f *Float) {
	if f == nil {
		h.b = append(h.b, 0)
		return
	}
	h.b = append(h.b, 1)
	h.float(*f)
}

func (h *hasher) value(v *Value) {
	h.i(v.Int)
	h.float(v.Float)
	for _, c := range v.Vec {
		h.float(c)
	}
	h.s(v.String)
}

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
	h.bool(s.IsOutput)
	h.optBool(s.UsesDefault)
}

func (h *hasher) properties(ps []Property) {
	h.u(uint64(len(ps)))
	for i := range ps {
		p := &ps[i]
		h.s(p.Name)
		h.s(string(p.Type))
		h.s(p.ClassName)
		h.value(&p.Value)
		h.source(p.Source)
		h.bool(p.IsOutput)
		h.optBool(p.UsesDefault)
	}
}

func (h *hasher) sum() uint64 { return murmur3.Sum64(h.b) }

// nodeFingerprint hashes everything of a node but its position.
func nodeFingerprint(h *hasher, n *Node) uint64 {
	h.b = h.b[:0]
	h.i(int64(n.ID))
	h.s(string(n.Type))
	h.s(n.Name)
	h.b = append(h.b, n.GUID[:]...)
	h.bool(n.Query)
	h.bool(n.ModuleCaller)
	h.bool(n.ResidentInit)
	h.bool(n.MultiParamV2)
	h.properties(n.Properties)
	h.u(uint64(len(n.Inputs)))
	for i := range n.Inputs {
		in := &n.Inputs[i]
		h.s(in.Name)
		h.s(string(in.Type))
		h.s(in.ClassName)
		h.value(&in.Value)
		h.source(in.Source)
		if in.Sources == nil {
			h.b = append(h.b, 0)
		} else {
			h.b = append(h.b, 1)
			h.u(uint64(len(in.Sources)))
			for k := range in.Sources {
				h.source(&in.Sources[k])
			}
		}
		h.bool(in.SetBlackboard)
		h.bool(in.IsOutput)
		h.optBool(in.UsesDefault)
	}
	h.u(uint64(len(n.Outputs)))
	for _, o := range n.Outputs {
		h.s(o.Name)
		h.s(string(o.Type))
		h.s(o.ClassName)
		h.bool(o.Connected)
	}
	h.u(uint64(len(n.Children)))
	for _, c := range n.Children {
		h.i(int64(c.Node))
		h.s(c.Name)
		if c.Condition == nil {
			h.b = append(h.b, 0)
		} else {
			k := c.Condition
			h.b = append(h.b, 1)
			if k.Int == nil {
				h.b = append(h.b, 0)
			} else {
				h.b = append(h.b, 1)
				h.i(int64(*k.Int))
			}
			if k.String == nil {
				h.b = append(h.b, 0)
			} else {
				h.b = append(h.b, 1)
				h.s(*k.String)
			}
			h.optFloat(k.Weight)
			h.optFloat(k.Min)
			h.optFloat(k.Max)
			h.opt(k.Blackboard)
			h.opt(k.MinBlackboard)
			h.opt(k.MaxBlackboard)
		}
	}
	h.u(uint64(len(n.Jumps)))
	for _, j := range n.Jumps {
		h.i(int64(j.Node))
		h.i(int64(j.Type))
		h.s(j.Command)
		h.bool(j.PostCalc)
	}
	h.u(uint64(len(n.Queries)))
	for _, q := range n.Queries {
		h.i(int64(q))
	}
	h.u(uint64(len(n.Attachments)))
	for _, a := range n.Attachments {
		h.i(int64(a))
	}
	h.u(uint64(len(n.Actions)))
	for _, a := range n.Actions {
		h.s(a.Slot)
		h.s(a.Action)
	}
	if s := n.StateInfo; s == nil {
		h.b = append(h.b, 0)
	} else {
		h.b = append(h.b, 1)
		h.s(s.DesiredState)
		for _, u := range s.Unknown {
			h.u(uint64(u))
		}
	}
	return h.sum()
}

func attachmentFingerprint(h *hasher, a *Attachment) uint64 {
	h.b = h.b[:0]
	h.s(a.Name)
	h.u(uint64(a.Debug))
	h.properties(a.Properties)
	return h.sum()
}

// textsHash identifies the expression function texts an EXB listing fact goes with.
func textsHash(fs []Function) uint64 {
	h := &hasher{}
	h.u(uint64(len(fs)))
	for _, f := range fs {
		h.s(f.Text)
	}
	return h.sum()
}
