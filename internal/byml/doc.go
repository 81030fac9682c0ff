// Package byml reads and writes BYML ("binary YAML"), the tree format of Nintendo's EPD games
// (Breath of the Wild, Tears of the Kingdom and their relatives), in versions 1 to 7 and both
// byte orders, and converts documents to and from YAML (in the conventions of the oead and
// roead libraries) and a tagged JSON form for the editor.
//
// # Model
//
// A Document holds the version, the byte order and the root Node. A Node is one plain struct
// whose Kind says which fields mean something (see Node). Hash entries are sorted by key and
// HashMap32/HashMap64 entries by hash, as the game binary-searches them (the writers refuse
// other trees), except in a hash marked KeepOrder (below). Read returns a subtree that the file
// shares between parents (two offsets pointing at one node) as one *Node in both places.
//
// Files written by modding tools may hold a hash whose keys are not sorted or repeat. The
// game loads them (its binary search then misses keys), so Read takes them: such a hash is
// marked KeepOrder and keeps its entries as they are, repeats included, through every writer
// and text form (YAML tags !unsorted, !h-unsorted, !h64-unsorted; JSON "unsorted": true).
// Warnings lists them, for the editor to show, and a key table out of order or holding a key
// twice, which Read also takes (a hash's order is then read from its keys, not their indices).
//
// Node types 0x20 and 0x21 (version 7) are hash maps whose keys are 32-bit and 64-bit hashes:
// count, then (hash, value) pairs of 8 or 12 bytes, then one type byte per entry, as
// BymlLibrary and Nintendo's own builders lay them out (roead reads 0x21 as value, hash and
// an extra word instead; no corpus file has one). 0xA2 is binary data preceded by its size
// and an alignment word, the data starting on that alignment. Version 1's path nodes and the
// remapped and mono-typed containers (0x30, 0x31, 0xC4, 0xC8) are not read.
//
// # Writing
//
// Every version 1 to 7 is written, in either byte order. Version 1 (Super Mario Odyssey,
// Splatoon 2) has the same nodes as version 2 (its path nodes appear in no file of theirs);
// what its files need beyond that is the unreferenced containers below.
//
// Bytes is preserve mode. Read records the layout facts the tree does not hold: the header
// words, both string tables as laid out (order, unused strings, offsets), the offset of every
// container and big value (which gives node order, padding, alignment and which nodes are
// shared), the containers the file holds that nothing refers to (left behind by tools that
// point parents at an earlier equal copy; most of some Super Mario Odyssey v1 stage files)
// and the file size. Bytes writes the tree's values at those places when the facts
// still fit the tree: the same out-of-line nodes reachable, each the size it was, every key
// and string in the recorded tables. Then an unedited document comes back byte for byte, and
// so does one whose edits keep the layout (a number changed, a string swapped for one already
// in the table). Any other edit makes the whole document fall back to the canonical layout.
// This is deliberately all-or-nothing: partial reuse of a layout would need rules for where
// new nodes go that no Nintendo file can confirm.
//
// BytesCanonical lays a document out the way Nintendo's current tools do (see there); it
// reproduces Tears of the Kingdom's own files byte for byte, except the few listed in the
// tests with the reason.
//
// # Text forms
//
// ToYAML and FromYAML use oead's tags: !u (UInt, written in hex), !l (Int64), !ul (UInt64),
// !f64 (Double), !!binary (base64 Binary); roead's !h for HashMap32 (keys as decimal
// integers); BymlLibrary's !h64 for HashMap64 and !!file for File data (a flow map
// {Alignment, Data}). Untagged integers are Int, untagged numbers with a decimal point are
// Float (always written with one), null is null. Containers of at most 10 members that hold
// no containers are written in flow style, as oead does. The reader also takes !h32, !d,
// !s32/!u32/!s64/!u64, roead's bare !!file scalar and YAML anchors (as shared nodes). Both
// text forms write every NaN as nan and read it as the default quiet NaN: the sign and
// payload of a NaN do not survive them (no corpus file has a NaN).
//
// # JSON form
//
// ToJSON and FromJSON, for the editor, write and read a document as
//
//	{"version": 7, "bigEndian": false, "root": NODE or null}
//
// where every node is an object whose "type" comes first:
//
//	{"type": "null"}
//	{"type": "string", "value": "text"}
//	{"type": "bool", "value": true}
//	{"type": "int", "value": -5}               int32
//	{"type": "uint", "value": 5}               uint32
//	{"type": "int64", "value": "-5"}           decimal text: JavaScript numbers hold 53 bits
//	{"type": "uint64", "value": "5"}
//	{"type": "float", "value": 1.5}            float32: the shortest decimal that reads back
//	{"type": "double", "value": 1.5}           as the same value; "nan", "inf" and "-inf"
//	                                           as strings, since JSON has no such numbers
//	{"type": "binary", "value": "AAE="}        base64
//	{"type": "file", "value": {"align": 4096, "data": "AAE="}}
//	{"type": "array", "value": [NODE, ...]}
//	{"type": "hash", "value": [["key", NODE], ...]}        sorted by key
//	{"type": "hash", "unsorted": true, "value": [...]}     in this order, keys may repeat
//	                                                       (Node.KeepOrder; so for hash maps)
//	{"type": "hashmap32", "value": [[123, NODE], ...]}     sorted by hash
//	{"type": "hashmap64", "value": [["123", NODE], ...]}   hash as decimal text
//
// Members are pairs in arrays rather than object members because JavaScript reorders object
// keys that look like integers. A node used from several places (a container or big value
// the file shares) is written once, at its first use in document order, with an id after its
// type, and referred to elsewhere, as YAML anchors and aliases do:
//
//	{"type": "hash", "id": 0, "value": [...]}   first use
//	{"ref": 0}                                  every other use
//
// so a heavily sharing file (Super Mario Odyssey's stage maps) gives a document proportional
// to the file. A ref must name a node completed before it, so references never make a cycle.
//
// AppendCompact writes the compact form the editor's tree view opens files with (see
// compact.go): the same tree in a sixth of the size, types as letters kept with the keys in
// shapes that containers share, keys and strings listed once. AppendCompactFile writes it straight from
// a file's bytes, with no model, for the files it can (nearly all); it is not read back.
//
// # What it must never do
//
// The reader must never panic, hang or allocate far beyond the input, whatever the bytes:
// counts are checked against the bytes left before anything is allocated, cycles and
// nesting deeper than 1024 are errors, and a file whose text forms would weigh more than 16
// per input byte (shared nodes count once, as the text forms refer to them; strings count at
// every use, as they are written out each time) is refused, so every text form of a document
// that Read accepted stays proportional to the input. FromJSON and FromYAML apply the same
// bound to their input. Errors say what was being read and at which offset. The
// writer never hands back input bytes: every byte comes from the model and the recorded facts.
package byml
