package exb

import "strconv"

// Opcode is the instruction type byte (offset 0 of an instruction).
type Opcode uint8

// Opcodes, named after the format description's instruction types.
const (
	OpTerminator          Opcode = 0x01
	OpStore               Opcode = 0x02
	OpNegate              Opcode = 0x03
	OpNegateBool          Opcode = 0x04
	OpAdd                 Opcode = 0x05
	OpSubtract            Opcode = 0x06
	OpMultiply            Opcode = 0x07
	OpDivide              Opcode = 0x08
	OpModulus             Opcode = 0x09
	OpIncrement           Opcode = 0x0A
	OpDecrement           Opcode = 0x0B
	OpScalarMultiplyVec3f Opcode = 0x0C
	OpScalarDivideVec3f   Opcode = 0x0D
	OpLeftShift           Opcode = 0x0E
	OpRightShift          Opcode = 0x0F
	OpLessThan            Opcode = 0x10
	OpLessThanEqual       Opcode = 0x11
	OpGreaterThan         Opcode = 0x12
	OpGreaterThanEqual    Opcode = 0x13
	OpEqual               Opcode = 0x14
	OpNotEqual            Opcode = 0x15
	OpAnd                 Opcode = 0x16
	OpXor                 Opcode = 0x17
	OpOr                  Opcode = 0x18
	OpLogicalAnd          Opcode = 0x19
	OpLogicalOr           Opcode = 0x1A
	OpUserFunction        Opcode = 0x1B
	OpJumpIfZero          Opcode = 0x1C
	OpJump                Opcode = 0x1D
)

const maxOpcode = OpJump

// The three-letter mnemonics are the community's established spelling (the
// reference JSON uses them), so both text flavours share them.
var mnemonics = [...]string{
	OpTerminator:          "END",
	OpStore:               "STR",
	OpNegate:              "NEG",
	OpNegateBool:          "NOT",
	OpAdd:                 "ADD",
	OpSubtract:            "SUB",
	OpMultiply:            "MUL",
	OpDivide:              "DIV",
	OpModulus:             "MOD",
	OpIncrement:           "INC",
	OpDecrement:           "DEC",
	OpScalarMultiplyVec3f: "VMS",
	OpScalarDivideVec3f:   "VDS",
	OpLeftShift:           "LSH",
	OpRightShift:          "RSH",
	OpLessThan:            "LST",
	OpLessThanEqual:       "LTE",
	OpGreaterThan:         "GRT",
	OpGreaterThanEqual:    "GTE",
	OpEqual:               "EQL",
	OpNotEqual:            "NEQ",
	OpAnd:                 "AND",
	OpXor:                 "XOR",
	OpOr:                  "ORR",
	OpLogicalAnd:          "LAN",
	OpLogicalOr:           "LOR",
	OpUserFunction:        "CFN",
	OpJumpIfZero:          "JZE",
	OpJump:                "JMP",
}

// Valid reports whether op is one of the 29 known opcodes.
func (op Opcode) Valid() bool { return op >= OpTerminator && op <= maxOpcode }

// String returns the mnemonic, or "op(0xNN)" for an unknown opcode.
func (op Opcode) String() string {
	if op.Valid() {
		return mnemonics[op]
	}
	return "op(0x" + strconv.FormatUint(uint64(op), 16) + ")"
}

func opcodeByMnemonic(s string) (Opcode, bool) {
	for op := OpTerminator; op <= maxOpcode; op++ {
		if mnemonics[op] == s {
			return op, true
		}
	}
	return 0, false
}

// form says which of bytes 1..7 an opcode gives meaning to.
type form uint8

const (
	formEnd    form = iota // nothing: bytes 1..7 are padding
	formUnary              // type, LHS; RHS is padding
	formBinary             // type, LHS, RHS
	formCall               // return type, argument offset, signature index
	formBranch             // type, LHS (condition); RHS.Val is the target
	formJump               // RHS.Val is the target; the rest is padding
)

func (op Opcode) form() form {
	switch op {
	case OpTerminator:
		return formEnd
	case OpNegate, OpNegateBool, OpIncrement, OpDecrement:
		return formUnary
	case OpUserFunction:
		return formCall
	case OpJumpIfZero:
		return formBranch
	case OpJump:
		return formJump
	}
	return formBinary
}

// rhsType is the data type the right-hand operand is read as: the scalar
// vector ops take a float whatever the instruction's (vector) type is.
func (op Opcode) rhsType(t DataType) DataType {
	if op == OpScalarMultiplyVec3f || op == OpScalarDivideVec3f {
		return TypeFloat
	}
	return t
}

// DataType is an operand or function data type. The values are the
// version-independent numbering (that of EXB version 3); on disk, versions 1
// and 2 lack TypeUInt and store the types above it one lower.
type DataType uint8

// Data types.
const (
	TypeNone DataType = iota
	TypeImm           // "immediate value / from user"; seen as a function input type
	TypeBool
	TypeInt
	TypeUInt // version 3 and later
	TypeFloat
	TypeString
	TypeVec3f
)

const maxDataType = TypeVec3f

var typeNames = [...]string{"NONE", "IMM", "BOOL", "INT", "UINT", "FLOAT", "STRING", "VECTOR3F"}

// Operand prefixes as the text forms spell them; NONE has none.
var typePrefixes = [...]string{"", "imm", "bool", "int", "uint", "float", "str", "vec3f"}

// String returns the upper-case name used for function types (e.g. "VECTOR3F").
func (t DataType) String() string {
	if t <= maxDataType {
		return typeNames[t]
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// ParseDataType accepts the names String returns.
func ParseDataType(s string) (DataType, bool) {
	for i, n := range typeNames {
		if n == s {
			return DataType(i), true
		}
	}
	return 0, false
}

func typeByPrefix(s string) (DataType, bool) {
	for i, n := range typePrefixes {
		if n != "" && n == s {
			return DataType(i), true
		}
	}
	return 0, false
}

// size is the number of bytes a value of type t occupies in memory; the
// memory-usage computation needs it.
// Size is the bytes a value of the type takes in memory: 4, 8 for a string, 12 for a
// vector, 0 for none.
func (t DataType) Size() uint32 { return t.size() }

func (t DataType) size() uint32 {
	switch t {
	case TypeBool, TypeInt, TypeUInt, TypeFloat:
		return 4
	case TypeString:
		return 8
	case TypeVec3f:
		return 12
	}
	return 0
}

// decodeType maps an on-disk type value to a DataType for the given version.
func decodeType(raw uint16, version uint32) (DataType, bool) {
	switch {
	case raw < uint16(TypeUInt):
		return DataType(raw), true
	case version >= 3:
		return DataType(raw), raw <= uint16(maxDataType)
	case raw < uint16(maxDataType):
		return DataType(raw + 1), true
	}
	return 0, false
}

// encodeType is the inverse of decodeType.
func encodeType(t DataType, version uint32) (uint8, bool) {
	switch {
	case t > maxDataType:
		return 0, false
	case t < TypeUInt || version >= 3:
		return uint8(t), true
	case t == TypeUInt:
		return 0, false
	default:
		return uint8(t) - 1, true
	}
}

// Source is an operand's parameter source byte (offsets 2 and 3).
type Source uint8

// Operand sources.
const (
	SrcImmediate       Source = iota // the value itself (u16)
	SrcImmediateString               // string pool offset
	SrcStatic                        // static ("global") memory offset, GMem
	SrcParam                         // param region offset of the value
	SrcParamString                   // param region offset of a u32 string pool offset
	SrcOutput                        // function output value, Out
	SrcInput                         // function input value, In
	SrcScratch32                     // 32-bit scratch memory, LMem32
	SrcScratch64                     // 64-bit scratch memory, LMem64
	SrcUserOutput                    // caller's output (node output parameter), UserOut
	SrcUserInput                     // caller's input (node input parameter), UserIn
)

const maxSource = SrcUserInput

var memoryNames = [...]string{
	SrcStatic:     "GMem",
	SrcOutput:     "Out",
	SrcInput:      "In",
	SrcScratch32:  "LMem32",
	SrcScratch64:  "LMem64",
	SrcUserOutput: "UserOut",
	SrcUserInput:  "UserIn",
}

var sourceNames = [...]string{
	"Immediate", "ImmediateString", "Static", "Param", "ParamString",
	"Output", "Input", "Scratch32", "Scratch64", "UserOutput", "UserInput",
}

func (s Source) String() string {
	if s <= maxSource {
		return sourceNames[s]
	}
	return "source(" + strconv.Itoa(int(s)) + ")"
}

// IsMemory reports whether the operand's value is a memory offset rather
// than a literal or a reference to one.
func (s Source) IsMemory() bool {
	switch s {
	case SrcStatic, SrcOutput, SrcInput, SrcScratch32, SrcScratch64, SrcUserOutput, SrcUserInput:
		return true
	}
	return false
}

func sourceByMemoryName(s string) (Source, bool) {
	for i, n := range memoryNames {
		if n != "" && n == s {
			return Source(i), true
		}
	}
	return 0, false
}
