package ainb

// The records of an AINB file, declared once: their sizes and the offsets of their fields.
// The reader and the writer both take them from here, so that a section's reader and writer
// can be read side by side. All fields are little-endian; there is no alignment anywhere.

// The file header: the magic, the version, counts, and the offsets of the sections.
const (
	headerSize = 0x74

	hdrMagic          = 0x00 // "AIB "
	hdrVersion        = 0x04
	hdrFilename       = 0x08 // string
	hdrCommands       = 0x0c // count
	hdrElements       = 0x10 // count
	hdrQueries        = 0x14 // count of query elements
	hdrAttachmentN    = 0x18 // count of attachments
	hdrOutputElements = 0x1c // count of module output elements (types 200 to 299): ModuleOutputCount
	hdrBlackboard     = 0x20
	hdrStringPool     = 0x24
	hdrEnumReloc      = 0x28
	hdrProperties     = 0x2c
	hdrJumps          = 0x30
	hdrIO             = 0x34
	hdrMulti          = 0x38
	hdrAttachments    = 0x3c
	hdrAttachIDs      = 0x40
	hdrExpressions    = 0x44
	hdrReplacement    = 0x48
	hdrQueryIDs       = 0x4c
	hdrX50            = 0x50 // the jump table's offset again in every known file
	hdrX54            = 0x54 // 0 in every known file; kept as Layout.Header54
	hdrX58            = 0x58 // Section58, or 0
	hdrModules        = 0x5c
	hdrCategoryName   = 0x60 // string
	hdrCategory       = 0x64 // enum
	hdrActions        = 0x68
	hdrX6C            = 0x6c // section 0x6C, or 0
	hdrModuleLink     = 0x70
)

// header is the file header as the reader reads it (decoder.header): the counts and
// offsets it follows. The count at hdrOutputElements is recomputed on write.
type header struct {
	version                                     uint32
	filename                                    uint32
	commands, elements, queries, attachments    uint32
	blackboard, stringPool, enumRelocation      uint32
	properties, jumps, io, multiInputs          uint32
	attachmentArray, attachmentIDs, expressions uint32
	replacement, queryIDs, x50, x54, x58        uint32
	modules, categoryName, category, actions    uint32
	x6c, moduleLink                             uint32
}

// A command entry follows the header, one per command.
const (
	commandSize      = 0x18
	commandName      = 0x00 // string
	commandGUID      = 0x04 // 16 bytes
	commandRoot      = 0x14 // u16
	commandSecondary = 0x16 // u16, the element index plus one, or 0
)

// elementEntry is the layout of an element entry, which 0x407 grew by a name hash after the
// name; everything after it moved by four bytes.
type elementEntry struct {
	size int
	// Offsets of the fields after the name (type u16 at 0, index u16 at 2, attachment count
	// u16 at 4, flags u8 at 6, a zero byte and the name at 8 are the same in every version).
	hash       int // u32, or -1 in 0x404 files
	reserved   int // u32, Element.Reserved10
	params     int // u32 offset of the parameter block
	exprCount  int // u16 expressions used
	exprSize   int // u16 their input and output size
	links      int // u16 (*File).Links
	reserved1E int // u16, Element.Reserved1E
	attachBase int // u32 first entry in the attachment id array
	queryBase  int // u16 first entry in the query id array
	queryCount int // u16
	state      int // u32 offset of the 0x404 state info, else 0
	guid       int // 16 bytes
}

// The fields all versions share.
const (
	elementType        = 0x00
	elementIndex       = 0x02
	elementAttachCount = 0x04
	elementFlags       = 0x06
	elementReserved07  = 0x07
	elementName        = 0x08
)

var (
	elementEntry404 = elementEntry{size: 0x38, hash: -1, reserved: 0x0c, params: 0x10, exprCount: 0x14,
		exprSize: 0x16, links: 0x18, reserved1E: 0x1a, attachBase: 0x1c, queryBase: 0x20, queryCount: 0x22, state: 0x24, guid: 0x28}
	elementEntry407 = elementEntry{size: 0x3c, hash: 0x0c, reserved: 0x10, params: 0x14, exprCount: 0x18,
		exprSize: 0x1a, links: 0x1c, reserved1E: 0x1e, attachBase: 0x20, queryBase: 0x24, queryCount: 0x26, state: 0x28, guid: 0x2c}
)

// elementLayout is the element entry of a version (0x408 kept 0x407's).
func elementLayout(version uint32) *elementEntry {
	if version >= Version407 {
		return &elementEntry407
	}
	return &elementEntry404
}

func elementSize(version uint32) int { return elementLayout(version).size }

// An element's parameter block: a (base, count) pair per param type into the property table,
// then per param type (base, count) into the inputs and into the outputs of the I/O table, a
// (count, first) byte pair per plug table, and then the plugs' offsets, 4 bytes each, the
// plugs themselves following.
const (
	paramsProperties = 0x00 // NumParamTypes × range
	paramsIO         = 0x30 // NumParamTypes × (inputs range, outputs range)
	paramsIOStride   = 0x10
	paramsIOInputs   = 0x00
	paramsIOOutputs  = 0x08
	paramsPlugCounts = 0x90 // plugTables × (u8 count, u8 first index)
	plugCountSize    = 2
	paramsSize       = 0xa4 // the plug offsets follow
)

// A range of table entries in a parameter block: the first entry and how many.
const (
	rangeBase  = 0x00 // u32
	rangeCount = 0x04 // u32
	rangeSize  = 0x08
)

// An attachment entry: its name, the offset of its parameter block, the expressions its
// properties use and their size; 0x407 adds the name hash.
const (
	attachmentName      = 0x00 // string
	attachmentParams    = 0x04
	attachmentExprCount = 0x08 // u16
	attachmentExprSize  = 0x0a // u16
	attachmentHash      = 0x0c // 0x407+
)

func attachmentSize(version uint32) int {
	if version >= Version407 {
		return 0x10
	}
	return 0x0c
}

// An attachment's parameter block: a debug word, (base, count) per param type into the
// property table, then six empty (count, offset) pairs.
const (
	attachParamsDebug      = 0x00
	attachParamsProperties = 0x04 // NumParamTypes × range
	attachParamsEmpty      = 0x34 // 6 × (u32 0, u32 offset of the block's end)
	attachParamsEmptyPairs = 6
	attachParamsEmptyEnd   = 0x04 // in each pair
	attachParamsSize       = 0x64
)

// Property, input and output entries, by param type. A property is its name (pointer
// properties add a class name), its flags and its value; an input is its name (and class
// name), its source (u16 node, u16 output, u32 flags) and its value (a u32 for pointers);
// an output is a name word (pointers add a class name).
var (
	propertySizes = [NumParamTypes]int{0x0c, 0x0c, 0x0c, 0x0c, 0x14, 0x0c}
	inputSizes    = [NumParamTypes]int{0x10, 0x10, 0x10, 0x10, 0x18, 0x14}
	outputSizes   = [NumParamTypes]int{4, 4, 4, 4, 4, 8}
)

const (
	propertyValue = 0x08 // of the non-pointer types, which enum relocations patch
	inputValue    = 0x0c
	nameSize      = 4 // the name and the class name words
	flagsSize     = 4 // a property's flags, before its value
)

// An input's source, after its name (and class name): the node, the output and the flags;
// its value follows.
const (
	sourceNode   = 0x00 // u16
	sourceOutput = 0x02 // u16
	sourceFlags  = 0x04 // u32
	sourceSize   = 0x08
)

// Output name words and input sources pack flags beside their values.
const (
	outputNameMask   = 0x3fffffff
	outputNameBits   = 30
	outputConnected  = 1 << 31
	sourceMultiBase  = -100 // a multi-input's node field: sourceMultiBase minus its first source
	sourceSetBB      = 0x8000
	multiSourceSize  = 8 // u16 node, u16 output, u32 flags
	tableOffsetsSize = 4 // each type's table offset at the head of the property and I/O tables
)

// A jump table entry: a word whose low byte is the type and top bit PostCalc, then for type
// 0 the command name.
const (
	jumpTypeMask     = 0xff
	jumpPostCalc     = 1 << 31
	jumpReservedMask = 0x7fffff00
	jumpSize         = 4 // plus jumpCommandSize for type 0
	jumpCommandSize  = 4
	jumpOffsetSize   = 4 // the table is an array of offsets to the entries
)

// Arrays of 12-byte records after a u32 count: modules (path, category, instances), XLink
// actions (element, slot, action) and enum relocations (offset, class name, value name).
const (
	countSize  = 4
	recordSize = 12
)

// Single records the header points at.
const (
	moduleLinkSize = 8  // blackboard id, parent blackboard id
	section58Size  = 16 // description, 3 × u32
	section6CSize  = 4
	stateInfoSize  = 20 // desired state, 4 × u32 (0x404 elements)
)

// The child replacement table: a processed byte, a zero byte, a u16 count, the element and
// attachment counts after replacement (or -1); then 8-byte entries (type byte, zero byte,
// element, index, new element).
const (
	replacementProcessed = 0x00
	replacementReserved  = 0x01
	replacementCount     = 0x02
	replacementHeader    = 8
	replacementEntry     = 8
)

// The blackboard: per slot (u16 count, u16 first index, u16 value offset, u16 0), then 8-byte
// parameters (a name word with the inherit mode and file reference index, notes), the values,
// and 16-byte file references (path, three hashes).
const (
	bbSlotSize    = 8
	bbSlotCount   = 0
	bbSlotValues  = 4
	bbSlotUnused  = 6
	bbParamSize   = 8
	bbParamNotes  = 4
	bbValueSize   = 4  // of every type but Vec3f
	bbVec3fSize   = 12 // three f32
	bbRefSize     = 16
	bbNameMask    = 0x3fffff
	bbInheritBit  = 22
	bbRefIndexBit = 24
	bbRefIndex    = 0x7f
	bbHasRef      = 1 << 31
)

// A query id entry is a u16 query index and a zero u16; an attachment id entry a u32.
const (
	queryIDSize      = 4
	attachmentIDSize = 4
	plugOffsetSize   = 4
)
