package byml

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Kind is the type of a node, one per BYML node type the package reads.
type Kind uint8

const (
	Null      Kind = iota // 0xFF
	String                // 0xA0, an index into the string table
	Binary                // 0xA1, length-prefixed bytes
	File                  // 0xA2, length- and alignment-prefixed bytes (v7)
	Array                 // 0xC0
	Hash                  // 0xC1, string keys from the key table, sorted
	HashMap32             // 0x20, 32-bit hashed keys, sorted (v7)
	HashMap64             // 0x21, 64-bit hashed keys, sorted (v7)
	Bool                  // 0xD0
	Int                   // 0xD1, int32
	Float                 // 0xD2, float32
	UInt                  // 0xD3, uint32
	Int64                 // 0xD4
	UInt64                // 0xD5
	Double                // 0xD6
	numKinds
)

var kindNames = [numKinds]string{
	Null: "null", String: "string", Binary: "binary", File: "file", Array: "array", Hash: "hash",
	HashMap32: "hashmap32", HashMap64: "hashmap64", Bool: "bool", Int: "int", Float: "float",
	UInt: "uint", Int64: "int64", UInt64: "uint64", Double: "double",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "invalid"
}

// nodeType is the type byte of each kind in the file.
var nodeType = [numKinds]byte{
	Null: 0xFF, String: 0xA0, Binary: 0xA1, File: 0xA2, Array: 0xC0, Hash: 0xC1,
	HashMap32: 0x20, HashMap64: 0x21, Bool: 0xD0, Int: 0xD1, Float: 0xD2, UInt: 0xD3,
	Int64: 0xD4, UInt64: 0xD5, Double: 0xD6,
}

// kindOf maps a type byte back to its kind; ok is false for bytes the package does not read.
func kindOf(t byte) (Kind, bool) {
	switch t {
	case 0xFF:
		return Null, true
	case 0xA0:
		return String, true
	case 0xA1:
		return Binary, true
	case 0xA2:
		return File, true
	case 0xC0:
		return Array, true
	case 0xC1:
		return Hash, true
	case 0x20:
		return HashMap32, true
	case 0x21:
		return HashMap64, true
	case 0xD0:
		return Bool, true
	case 0xD1:
		return Int, true
	case 0xD2:
		return Float, true
	case 0xD3:
		return UInt, true
	case 0xD4:
		return Int64, true
	case 0xD5:
		return UInt64, true
	case 0xD6:
		return Double, true
	}
	return 0, false
}

// IsContainer reports whether nodes of kind k hold other nodes.
func (k Kind) IsContainer() bool { return k == Array || k == Hash || k == HashMap32 || k == HashMap64 }

// outOfLine reports whether a node of kind k lives at its own offset, the parent holding
// only that offset: containers and the values too big for the parent's 4-byte slot.
func (k Kind) outOfLine() bool {
	return k.IsContainer() || k == Binary || k == File || k == Int64 || k == UInt64 || k == Double
}

// Node is one BYML node. Which fields mean something depends on Kind:
//
//	String           Str
//	Binary           Data
//	File             Data, and Align (the alignment word stored before the data)
//	Array            Items
//	Hash             Entries (Key), sorted by key unless KeepOrder
//	HashMap32/64     Entries (Hash), sorted by hash unless KeepOrder
//	Bool … Double    Bits: 0/1 for Bool, the two's-complement value for the integers,
//	                 the IEEE bits for Float (low 32 bits) and Double
//
// Read returns one *Node for each offset, so a subtree the file shares between several
// parents (legal, and common after deduplication) is one pointer in several places. Edit a
// shared node only when the edit is meant for every parent; otherwise put a Clone in its place.
//
// KeepOrder marks a hash (of any of the three kinds) whose entries are not sorted, or repeat
// a key, as Read found them: files written by modding tools break the rule, and the game and
// other tools still load them (the game's binary search then misses some keys). Such a hash
// keeps its entries in their order, repeats included, through every writer and text form, so
// the file comes back as it was; Warnings names each one. Get and Set search it linearly and
// take the first match, Set appends a new key at the end.
type Node struct {
	Kind      Kind
	KeepOrder bool
	// Align shares the first word with Kind and KeepOrder: a Node is a word shorter, and
	// most of what Read allocates is nodes.
	Align   uint32
	Bits    uint64
	Str     string
	Data    []byte
	Items   []*Node
	Entries []Entry
}

// Entry is one member of a Hash (Key) or of a HashMap32/64 (Hash).
type Entry struct {
	Key   string
	Hash  uint64
	Value *Node
}

// Constructors for value nodes.

func NewNull() *Node           { return &Node{Kind: Null} }
func NewString(s string) *Node { return &Node{Kind: String, Str: s} }
func NewBinary(b []byte) *Node { return &Node{Kind: Binary, Data: b} }
func NewFile(b []byte, align uint32) *Node {
	return &Node{Kind: File, Data: b, Align: align}
}
func NewBool(v bool) *Node {
	n := &Node{Kind: Bool}
	if v {
		n.Bits = 1
	}
	return n
}
func NewInt(v int32) *Node          { return &Node{Kind: Int, Bits: uint64(int64(v))} }
func NewFloat(v float32) *Node      { return &Node{Kind: Float, Bits: uint64(math.Float32bits(v))} }
func NewUInt(v uint32) *Node        { return &Node{Kind: UInt, Bits: uint64(v)} }
func NewInt64(v int64) *Node        { return &Node{Kind: Int64, Bits: uint64(v)} }
func NewUInt64(v uint64) *Node      { return &Node{Kind: UInt64, Bits: v} }
func NewDouble(v float64) *Node     { return &Node{Kind: Double, Bits: math.Float64bits(v)} }
func NewArray(items ...*Node) *Node { return &Node{Kind: Array, Items: items} }

// NewHash makes an empty hash node; add members with Set.
func NewHash() *Node { return &Node{Kind: Hash} }

// Accessors for value nodes; they return the zero value for other kinds.

func (n *Node) BoolValue() bool { return n.Kind == Bool && n.Bits != 0 }
func (n *Node) IntValue() int32 { return int32(n.Bits) }
func (n *Node) FloatValue() float32 {
	return math.Float32frombits(uint32(n.Bits))
}
func (n *Node) UIntValue() uint32    { return uint32(n.Bits) }
func (n *Node) Int64Value() int64    { return int64(n.Bits) }
func (n *Node) UInt64Value() uint64  { return n.Bits }
func (n *Node) DoubleValue() float64 { return math.Float64frombits(n.Bits) }

// Get returns the value under key in a Hash node, or nil.
func (n *Node) Get(key string) *Node {
	if i, ok := n.find(key); ok {
		return n.Entries[i].Value
	}
	return nil
}

// find binary-searches a Hash node's entries, which the file keeps sorted; a KeepOrder
// hash is searched in order (the first match, or the end).
func (n *Node) find(key string) (int, bool) {
	if n.KeepOrder {
		for i := range n.Entries {
			if n.Entries[i].Key == key {
				return i, true
			}
		}
		return len(n.Entries), false
	}
	lo, hi := 0, len(n.Entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.Entries[m].Key < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(n.Entries) && n.Entries[lo].Key == key
}

// Set puts v under key in a Hash node, keeping the entries sorted.
func (n *Node) Set(key string, v *Node) {
	i, ok := n.find(key)
	if ok {
		n.Entries[i].Value = v
		return
	}
	n.Entries = append(n.Entries, Entry{})
	copy(n.Entries[i+1:], n.Entries[i:])
	n.Entries[i] = Entry{Key: key, Value: v}
}

// Delete removes key from a Hash node and reports whether it was there.
func (n *Node) Delete(key string) bool {
	i, ok := n.find(key)
	if ok {
		n.Entries = append(n.Entries[:i], n.Entries[i+1:]...)
	}
	return ok
}

// findHash binary-searches a HashMap32/64 node's entries.
func (n *Node) findHash(h uint64) (int, bool) {
	if n.KeepOrder {
		for i := range n.Entries {
			if n.Entries[i].Hash == h {
				return i, true
			}
		}
		return len(n.Entries), false
	}
	lo, hi := 0, len(n.Entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.Entries[m].Hash < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(n.Entries) && n.Entries[lo].Hash == h
}

// GetHash returns the value under hash h in a HashMap32/64 node, or nil.
func (n *Node) GetHash(h uint64) *Node {
	if i, ok := n.findHash(h); ok {
		return n.Entries[i].Value
	}
	return nil
}

// SetHash puts v under hash h in a HashMap32/64 node, keeping the entries sorted.
func (n *Node) SetHash(h uint64, v *Node) {
	i, ok := n.findHash(h)
	if ok {
		n.Entries[i].Value = v
		return
	}
	n.Entries = append(n.Entries, Entry{})
	copy(n.Entries[i+1:], n.Entries[i:])
	n.Entries[i] = Entry{Hash: h, Value: v}
}

// Clone returns a deep copy of n that shares nothing with it. Subtrees shared inside n stay
// shared inside the copy.
func (n *Node) Clone() *Node {
	return n.clone(map[*Node]*Node{})
}

func (n *Node) clone(seen map[*Node]*Node) *Node {
	if n == nil {
		return nil
	}
	if c, ok := seen[n]; ok {
		return c
	}
	c := &Node{Kind: n.Kind, KeepOrder: n.KeepOrder, Bits: n.Bits, Str: n.Str, Align: n.Align}
	seen[n] = c
	if n.Data != nil {
		c.Data = bytes.Clone(n.Data)
	}
	if n.Items != nil {
		c.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = it.clone(seen)
		}
	}
	if n.Entries != nil {
		c.Entries = make([]Entry, len(n.Entries))
		for i, e := range n.Entries {
			c.Entries[i] = Entry{Key: e.Key, Hash: e.Hash, Value: e.Value.clone(seen)}
		}
	}
	return c
}

// Equal reports whether a and b hold the same values: same kinds, same bits (so NaN equals
// the same NaN and -0 differs from +0), same keys in the same order. Sharing is not compared,
// but it is used: a pair of containers already found equal is not compared again, so two
// heavily shared trees compare in time proportional to their nodes, not their expansion.
func Equal(a, b *Node) bool {
	return equal(a, b, map[[2]*Node]bool{})
}

func equal(a, b *Node, same map[[2]*Node]bool) bool {
	if a == b {
		return true
	}
	if a != nil && b != nil && a.Kind == b.Kind && a.Kind.IsContainer() {
		if same[[2]*Node{a, b}] {
			return true
		}
		// Recorded before the members are compared: an unequal pair ends the whole
		// comparison, so the mark never lets an unequal pair pass.
		same[[2]*Node{a, b}] = true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case String:
		return a.Str == b.Str
	case Binary:
		return bytes.Equal(a.Data, b.Data)
	case File:
		return a.Align == b.Align && bytes.Equal(a.Data, b.Data)
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !equal(a.Items[i], b.Items[i], same) {
				return false
			}
		}
		return true
	case Hash, HashMap32, HashMap64:
		if len(a.Entries) != len(b.Entries) {
			return false
		}
		for i := range a.Entries {
			ea, eb := &a.Entries[i], &b.Entries[i]
			if ea.Key != eb.Key || ea.Hash != eb.Hash || !equal(ea.Value, eb.Value, same) {
				return false
			}
		}
		return true
	case Bool:
		return (a.Bits != 0) == (b.Bits != 0)
	case Int, Float, UInt:
		return uint32(a.Bits) == uint32(b.Bits)
	}
	return a.Bits == b.Bits
}

// sorted reports whether a hash's entries are strictly in the order the format requires:
// sorted, no key twice.
func sorted(n *Node) bool {
	for i := 1; i < len(n.Entries); i++ {
		if !entryBefore(n.Kind, &n.Entries[i-1], &n.Entries[i]) {
			return false
		}
	}
	return true
}

func entryBefore(k Kind, a, b *Entry) bool {
	if k == Hash {
		return a.Key < b.Key
	}
	return a.Hash < b.Hash
}

// sortEntries sorts a hash's entries by key, or a hash map's by hash, the order the format
// requires, and rejects a key that appears twice. A KeepOrder hash is left as it is.
func sortEntries(n *Node) error {
	if n.KeepOrder {
		return nil
	}
	if n.Kind == Hash {
		slices.SortStableFunc(n.Entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	} else {
		slices.SortStableFunc(n.Entries, func(a, b Entry) int { return cmp.Compare(a.Hash, b.Hash) })
	}
	for i := 1; i < len(n.Entries); i++ {
		if a, b := n.Entries[i-1], n.Entries[i]; a.Key == b.Key && a.Hash == b.Hash {
			return fmt.Errorf("key %s appears twice", entryName(n, b))
		}
	}
	return nil
}

// quietNaN is the NaN the text forms read: they keep neither the sign nor the payload of a
// NaN (YAML and JSON write every NaN as nan), so reading gives the default quiet NaN, bits
// 0x7FF8000000000000 (0x7FC00000 as a float32). math.NaN has a payload bit set.
var quietNaN = math.Float64frombits(0x7FF8000000000000)
