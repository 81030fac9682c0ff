// Package exb reads, writes, disassembles and assembles the Expression
// Binary (EXB): the self-contained section of an AINB file (also found in
// ASB files) that holds small functions ("expressions") for the game's
// expression virtual machine.
//
// The package exists so that an editor can show and change those functions
// without disturbing anything else: an unedited section must come back byte
// for byte. It therefore models the section as stored: the header, the
// function table (with each function's setup and main instruction ranges and
// memory fields), the flat instruction table, the signature table, the param
// region and the string pool, plus the layout facts (sub-section order,
// padding) a file may carry. Offsets inside the section are local to it.
//
// Binary:
//
//	m, err := exb.Read(section)       // section = AINB bytes [u32@0x44, u32@0x5C)
//	out, err := m.AppendBinary(nil) // identical bytes for an unedited m
//
// Text, in two flavours:
//
//   - The compat flavour is the JSON value "Expressions" of the community
//     `ainb` tool: Module.Compat produces it and FromCompat assembles it.
//   - The listing is this project's own text for a whole module
//     (Module.Listing, ParseListing). It spells out every table, so
//     bytes -> listing -> bytes and listing -> bytes -> listing are both the
//     identity. An instruction whose bytes the instruction syntax cannot
//     reproduce exactly is written as ".raw" with its eight bytes.
//
// Functions as readable code: FunctionSource decompiles a function into a
// small expression language (assignments such as "LMem32[0x0] = In * 2.0 +
// 0.75", if/else, calls; grammar in README.md) whose text is checked to
// compile back to the very same instructions, with fallbacks down to the
// listing and raw bytes where folding would not.
//
// Editing one function:
//
//	text, err := m.FunctionSource(3)     // or FunctionText for the listing
//	err = m.SetFunctionSource(3, edited) // either form; *SyntaxError has line and column
//
// SetFunctionSource, SetFunctionText and AppendFunction change that one
// function only: literals are found in the tables as they are (first
// occurrence) or appended at their ends, and the function's blocks are
// written over their old place when they fit, else at the end of the
// instruction table. Canonicalize re-lays-out the whole module canonically:
// instructions function by function (main block, then setup block), string
// pool, param region and signature table in order of first use, literals
// stored immediately when they fit and in the param region otherwise (or
// there when the game's file had them there: param(...) in the texts),
// memory sizes recomputed. The header's InstanceCount is
// an AINB-level fact (how many node parameters call into this section); the
// package keeps it as read and the AINB writer must set it.
//
// Text and re-layout repeat each function's blocks, and a hostile file can
// point every function at the whole instruction table, so those operations
// refuse to expand more than 4Mi instructions or produce more than 64 MiB
// of text; Read, AppendBinary, Listing and ParseListing are linear.
//
// What the package must never do: panic or hang on any input (every count
// is checked against the bytes that remain before anything is allocated),
// write bytes it could not read back, hand back the input buffer instead of
// writing from the model, or copy the reference writer's defects (it writes
// DEC as INC and swaps setup and main ranges; this package reads such files
// as they are and writes correctly). It knows nothing of the enclosing AINB
// file beyond what the caller passes in.
package exb

import "fmt"

// headerSize is the fixed size of the section header.
const headerSize = 0x2C

// Module is one EXB section.
type Module struct {
	Version uint32 // 1, 2 or 3
	Header  Header

	Functions    []Function
	Instructions []Instruction
	// Signatures holds, per entry of the signature table, the string pool
	// offset of a user function's signature text.
	Signatures []uint32
	Params     ParamTable
	Strings    StringPool
	Layout     Layout
}

// Header holds the header fields that are not offsets.
type Header struct {
	// StaticSize is the static memory allocation size: the reference
	// writer stores the largest Function.StaticSize.
	StaticSize uint32
	// InstanceCount is the "parameter EXB field entry count": the number of
	// node parameters in the AINB file that are fed by an expression.
	InstanceCount uint32
	// Scratch32Size and Scratch64Size are the scratch allocation sizes: the
	// reference writer stores the sums over all functions.
	Scratch32Size uint32
	Scratch64Size uint32
}

// Function is one entry of the command (function) info table.
type Function struct {
	Setup Block // run once; Base -1 when absent
	Main  Block

	StaticSize    uint32
	Scratch32Size uint16
	Scratch64Size uint16
	Output        DataType
	Input         DataType
}

// Block is a range of the instruction table. Version 1 files store no
// counts: a block runs to the first terminator, and Read fills Count in.
type Block struct {
	Base  int32
	Count uint32
}

// Present reports whether the block exists (a setup block may be absent).
func (b Block) Present() bool { return b.Base >= 0 }

// Instruction is one 8-byte entry of the instruction table.
//
// Bytes 2..7 are LHS.Src, RHS.Src, LHS.Val, RHS.Val for every opcode except
// OpUserFunction, which uses them as ArgOffset and Signature instead. For
// OpJumpIfZero and OpJump, RHS.Val is the jump target, counted in
// instructions from the start of the block. Fields an opcode does not use
// are padding; they are kept so that odd files survive a round trip.
type Instruction struct {
	Op   Opcode
	Type DataType
	LHS  Operand
	RHS  Operand

	ArgOffset uint16 // OpUserFunction: static memory offset of the arguments
	Signature uint32 // OpUserFunction: index into Module.Signatures
}

// Operand is a parameter source and its raw 16-bit value: a literal, a
// memory offset, a string pool offset or a param region offset, per Src.
type Operand struct {
	Src Source
	Val uint16
}

// ParamTable is the param region: values too large for an instruction's
// 16-bit field, stored back to back. Entries are typed by how instructions
// use them; bytes nothing refers to are kept as ParamBytes entries.
type ParamTable struct {
	Entries []Param
}

// ParamKind says how a param entry is interpreted.
type ParamKind uint8

// Param kinds.
const (
	ParamBytes  ParamKind = iota // uninterpreted bytes (Data)
	ParamInt                     // s32 in Bits[0]
	ParamUInt                    // u32 in Bits[0]
	ParamBool                    // u32 in Bits[0]
	ParamFloat                   // f32 bits in Bits[0]
	ParamVec3f                   // three f32 bit patterns
	ParamString                  // u32 string pool offset in Bits[0]
)

// Param is one param region entry.
type Param struct {
	Kind ParamKind
	Bits [3]uint32
	Data []byte // ParamBytes only
}

// Size is the number of bytes the entry occupies.
func (p Param) Size() int {
	switch p.Kind {
	case ParamBytes:
		return len(p.Data)
	case ParamVec3f:
		return 12
	}
	return 4
}

// Offsets returns each entry's offset in the region and the region's size.
func (t *ParamTable) Offsets() (offs []int, size int) {
	offs = make([]int, len(t.Entries))
	for i, p := range t.Entries {
		offs[i] = size
		size += p.Size()
	}
	return offs, size
}

// StringPool is the section's own pool of NUL-terminated strings, in file
// order. Duplicates and strings nothing refers to are kept.
type StringPool struct {
	Strings []string
	// Unterminated is set when the pool's last bytes carry no NUL; the last
	// string is then written without one.
	Unterminated bool
}

// Size is the pool's size in bytes.
func (p *StringPool) Size() int {
	n := 0
	for _, s := range p.Strings {
		n += len(s) + 1
	}
	if p.Unterminated && n > 0 {
		n--
	}
	return n
}

// Section names a sub-section of the EXB section.
type Section uint8

// Sub-sections, in the order their offsets appear in the header.
const (
	SectionFunctions Section = iota
	SectionInstructions
	SectionSignatures
	SectionParams
	SectionStrings
	numSections
)

var sectionNames = [...]string{"functions", "instructions", "signatures", "params", "strings"}

func (s Section) String() string {
	if s < numSections {
		return sectionNames[s]
	}
	return "section(" + fmt.Sprint(uint8(s)) + ")"
}

// Layout holds the facts about where sub-sections sit that the contents do
// not determine. The zero Layout is the canonical one: header, functions,
// instructions, signatures, params, strings, with nothing in between.
type Layout struct {
	// Order lists the five sub-sections in file order; nil means canonical.
	Order []Section
	// HeaderGap is the bytes between the header and the first sub-section.
	HeaderGap []byte
	// Gap holds the bytes after each fixed-size sub-section (functions,
	// instructions, signatures). The params and strings sub-sections run to
	// the next sub-section, so their entries must stay empty.
	Gap [numSections][]byte
}

var canonicalOrder = []Section{SectionFunctions, SectionInstructions, SectionSignatures, SectionParams, SectionStrings}

func (l *Layout) order() []Section {
	if l.Order == nil {
		return canonicalOrder
	}
	return l.Order
}

// FormatError reports malformed binary data, or a model that cannot be
// written, with the sub-section and the byte offset inside the EXB section.
type FormatError struct {
	Section string
	Offset  int64
	Msg     string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("exb: %s: offset %#x: %s", e.Section, e.Offset, e.Msg)
}

func formatErr(section string, off int, format string, args ...any) error {
	return &FormatError{Section: section, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

// SyntaxError reports an assembler error at a 1-based line and column of
// the text that was given.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}
