package ainb

import (
	"strconv"
	"strings"

	"ainbeditor/internal/exb"
)

// Supported file versions.
const (
	Version404 = 0x404 // Splatoon 3, Nintendo Switch Sports
	Version407 = 0x407 // Tears of the Kingdom, Super Mario Bros. Wonder
	Version408 = 0x408 // newer titles; adds U32 blackboard parameters
)

// File is one AINB file.
type File struct {
	Version  uint32
	Filename string
	// Category is the file category name (AI, Logic, Sequence, ...). CategoryID is the enum
	// stored beside it: for 0x407+ it must match the name; 0x404 files store 0 there.
	Category   string
	CategoryID uint32

	Commands    []Command
	Elements    []Element
	Attachments []Attachment // shared by index from Element.Attachments
	Blackboard  Blackboard
	Expressions *exb.Module // nil when the file has no expression binary
	Modules     []Module

	// BlackboardID and ParentBlackboardID form the module caller link: blackboards are
	// inherited from a calling module only when the parent id is non-zero.
	BlackboardID       uint32
	ParentBlackboardID uint32

	Replacement  *ReplacementTable // 0x407+; nil in 0x404 files
	Section58    *Section58
	HasSection6C bool
	// EnumRelocations patch enum values at load time (Splatoon 3). The reader resolves each
	// to the value it patches, and the writer points it at wherever that value lands.
	EnumRelocations []EnumRelocation

	// Layout records layout facts of the file this model was read from, so that an unedited
	// file comes back byte-identical. A File built from JSON has none and is laid out
	// canonically.
	Layout *Layout
}

// Layout holds the facts of a binary's layout that the model itself does not determine.
type Layout struct {
	// Strings is the string pool in file order. New strings are appended after it.
	Strings []string
	// Section6C is the u32 stored in section 0x6C.
	Section6C uint32
	// ExpressionInstances is the expression binary's instance count, derived as the number of
	// expression uses in the file; a modding tool's files store 0.
	ExpressionInstances Kept
	// QueryShared says the query id table was written by a modding tool that lets an element
	// whose query list already appears in the table (as a run of entries, anywhere) use it,
	// adding only lists not seen yet, in element order; the game gives each element a range of
	// its own. QueryAlign8 says that tool then pads the table with zero entries so that the
	// next section starts at a multiple of 8.
	QueryShared bool
	QueryAlign8 bool
	// MultiByElement says the multi-input array lists the sources element by element, as the
	// reference writer does; the game's files list them by param type first, in the order of
	// the input table.
	MultiByElement bool
	// Queries is the header's query count (0x14), derived as the number of query elements; a
	// modding tool's files store the length of their query id table there instead.
	Queries Kept
	// ModuleOutputs is the header's count at 0x1C, derived as the number of module output
	// elements; some of the game's modules without elements store 1 to 3 there, for reasons
	// not known.
	ModuleOutputs Kept
	// ReplacedElements and ReplacedAttachments are the replacement table's counts of elements
	// and attachments once its entries apply (File.ReplacedCounts), where a file stored others.
	ReplacedElements    Kept
	ReplacedAttachments Kept
	// Header54 is the header word at 0x54, 0 in every known file.
	Header54 uint32
	// Tails are the strings the file referenced at an offset inside a longer pool string
	// rather than at the start of one, in order of their first such offset. Only these may
	// point into a tail again when written: any other string missing from Strings is
	// appended, since readers that index the pool by string starts reject inner offsets.
	Tails []string
	// QueryOrder lists the elements with queries in the order their ranges follow each other
	// in the query id table, when that is not element order (some of Nintendo's files); nil
	// otherwise. A write keeps it while it names each element with queries exactly once.
	QueryOrder []int

	index *poolIndex // built by the reader for Strings, so writes need not rebuild it
}

// Command is an entry point into the element graph.
type Command struct {
	Name string
	GUID GUID
	// Root is the main element index; Secondary is -1 when the command has only one.
	Root      int
	Secondary int
}

// GUID is a 16-byte identifier, printed in the usual 8-4-4-4-12 form.
type GUID [16]byte

// ElementType identifies a built-in element, or 0 for an application-defined one.
type ElementType uint16

// Element types.
const (
	UserDefined          ElementType = 0
	S32Selector          ElementType = 1
	Sequential           ElementType = 2
	Simultaneous         ElementType = 3
	F32Selector          ElementType = 4
	StringSelector       ElementType = 5
	RandomSelector       ElementType = 6
	BoolSelector         ElementType = 7
	Fork                 ElementType = 8
	Join                 ElementType = 9
	Alert                ElementType = 10
	Expression           ElementType = 20
	ModuleIFInputS32     ElementType = 100
	ModuleIFInputF32     ElementType = 101
	ModuleIFInputVec3f   ElementType = 102
	ModuleIFInputString  ElementType = 103
	ModuleIFInputBool    ElementType = 104
	ModuleIFInputPtr     ElementType = 105
	ModuleIFOutputS32    ElementType = 200
	ModuleIFOutputF32    ElementType = 201
	ModuleIFOutputVec3f  ElementType = 202
	ModuleIFOutputString ElementType = 203
	ModuleIFOutputBool   ElementType = 204
	ModuleIFOutputPtr    ElementType = 205
	ModuleIFChild        ElementType = 300
	StateEnd             ElementType = 400
	SplitTiming          ElementType = 500
)

// elementTypeNames are the built-in element types with their community names, in type order.
var elementTypeNames = [...]struct {
	t    ElementType
	name string
}{
	{UserDefined, "UserDefined"}, {S32Selector, "Element_S32Selector"}, {Sequential, "Element_Sequential"},
	{Simultaneous, "Element_Simultaneous"}, {F32Selector, "Element_F32Selector"},
	{StringSelector, "Element_StringSelector"}, {RandomSelector, "Element_RandomSelector"},
	{BoolSelector, "Element_BoolSelector"}, {Fork, "Element_Fork"}, {Join, "Element_Join"},
	{Alert, "Element_Alert"}, {Expression, "Element_Expression"},
	{ModuleIFInputS32, "Element_ModuleIF_Input_S32"}, {ModuleIFInputF32, "Element_ModuleIF_Input_F32"},
	{ModuleIFInputVec3f, "Element_ModuleIF_Input_Vec3f"}, {ModuleIFInputString, "Element_ModuleIF_Input_String"},
	{ModuleIFInputBool, "Element_ModuleIF_Input_Bool"}, {ModuleIFInputPtr, "Element_ModuleIF_Input_Ptr"},
	{ModuleIFOutputS32, "Element_ModuleIF_Output_S32"}, {ModuleIFOutputF32, "Element_ModuleIF_Output_F32"},
	{ModuleIFOutputVec3f, "Element_ModuleIF_Output_Vec3f"}, {ModuleIFOutputString, "Element_ModuleIF_Output_String"},
	{ModuleIFOutputBool, "Element_ModuleIF_Output_Bool"}, {ModuleIFOutputPtr, "Element_ModuleIF_Output_Ptr"},
	{ModuleIFChild, "Element_ModuleIF_Child"}, {StateEnd, "Element_StateEnd"}, {SplitTiming, "Element_SplitTiming"},
}

// ElementTypes returns the built-in element types (and UserDefined), in type order.
func ElementTypes() []ElementType {
	out := make([]ElementType, len(elementTypeNames))
	for i, n := range elementTypeNames {
		out[i] = n.t
	}
	return out
}

// Known reports whether t is UserDefined or a built-in element type.
func (t ElementType) Known() bool {
	_, ok := t.name()
	return ok
}

func (t ElementType) name() (string, bool) {
	for _, n := range elementTypeNames {
		if n.t == t {
			return n.name, true
		}
	}
	return "", false
}

// String is the community name of the type ("Element_Sequential", "UserDefined"), or
// "ElementType(n)" for a type no known file uses.
func (t ElementType) String() string {
	if s, ok := t.name(); ok {
		return s
	}
	return "ElementType(" + strconv.Itoa(int(t)) + ")"
}

// ParseElementType accepts the community names String returns for known types.
func ParseElementType(s string) (ElementType, bool) {
	for _, n := range elementTypeNames {
		if n.name == s {
			return n.t, true
		}
	}
	return 0, false
}

// ElementFlags is the flag byte of an element entry.
type ElementFlags uint8

// Element flags.
const (
	FlagQuery             ElementFlags = 1 << 0
	FlagModuleCaller      ElementFlags = 1 << 1
	FlagResidentInit      ElementFlags = 1 << 2 // "Is Root Node" in the community JSON
	FlagQueryMultiParamV2 ElementFlags = 1 << 3
)

// The element flags' names in the community JSON.
var (
	elementFlagBits  = [...]ElementFlags{FlagQuery, FlagModuleCaller, FlagResidentInit, FlagQueryMultiParamV2}
	elementFlagNames = [len(elementFlagBits)]string{"Is Query", "Is Module", "Is Root Node", "Use MultiParam Type 2"}
)

// Element is one node of the graph.
type Element struct {
	Type ElementType
	// Name is the class name of an application-defined element, or the module name of a
	// module caller.
	Name  string
	Flags ElementFlags
	GUID  GUID
	// Reserved07 and Reserved1E are the byte after the flags and the u16 after the
	// multi-input count (at 0x1a in 0x404 files), 0 in known files: kept, like every field
	// whose purpose is unknown, so that a file from another producer comes back as it was.
	// (Here they take the padding before Reserved10.)
	Reserved07 uint8
	Reserved1E uint16
	// Reserved10 is the u32 at entry offset 0x10; always 0 in known files.
	Reserved10 uint32
	// Kept holds the entry's counts the file stored where they differ from the derived ones
	// (see Kept); nil when none do.
	Kept *ElementKept

	Queries     []int // element indices of the query elements this element reads
	Attachments []int // indices into File.Attachments
	Properties  Properties
	Inputs      Inputs
	Outputs     Outputs
	Plugs       Plugs
	// UnusedPlugs holds plugs of the kinds 6 to 9, which no known file uses; nil when there
	// are none.
	UnusedPlugs *UnusedPlugs
	Actions     []Action   // XLink actions
	StateInfo   *StateInfo // 0x404 only
}

// Kept is a count a file stored where the writer derives another. Some of the game's files
// hold counts whose rule is only partly known, or was broken by the tool that wrote them. The
// writer writes Stored while the model still derives Derived, so an unedited file comes back
// as it was, and the derived value once an edit changed what the count depends on, so an
// edited or new element gets the value the game's own files use. The zero Kept keeps nothing.
type Kept struct{ Derived, Stored uint32 }

// Keep records stored beside derived; it is the zero Kept when they agree.
func Keep(derived, stored uint32) Kept {
	if derived == stored {
		return Kept{}
	}
	return Kept{derived, stored}
}

// Value is what to write for a count that derives to derived.
func (k Kept) Value(derived uint32) uint32 {
	if k != (Kept{}) && derived == k.Derived {
		return k.Stored
	}
	return derived
}

// ElementKept are the counts of an element entry that a file stored otherwise than derived.
type ElementKept struct {
	// Links is the u16 at 0x1C (0x18 in 0x404): see (*File).Links.
	Links Kept
	// ExpressionIOSize is the u16 before it: the bytes of expression input and output memory
	// the element's expressions use.
	ExpressionIOSize Kept
	// NameHash is the name's murmur3 hash (0x407+), which a broken file may store otherwise.
	NameHash Kept
}

// ParamType is the value type of a property, input or output.
type ParamType int

// Param types, in table order.
const (
	ParamInt ParamType = iota
	ParamBool
	ParamFloat
	ParamString
	ParamVec3f
	ParamPointer
	NumParamTypes
)

var paramTypeNames = [NumParamTypes]string{"Int", "Bool", "Float", "String", "Vector3F", "Pointer"}

// String is the type's name in paths and the community JSON ("Int", "Vector3F", ...).
func (t ParamType) String() string { return enumName(paramTypeNames[:], int(t), "ParamType") }

// ParseParamType accepts the names String returns.
func ParseParamType(s string) (ParamType, bool) {
	i, ok := enumParse(paramTypeNames[:], s)
	return ParamType(i), ok
}

// Properties, Inputs and Outputs are grouped by param type, plugs by kind, blackboard
// parameters by blackboard type: one list each, in table order. The element and attachment
// families are Groups, which cost one pointer when empty.
type BlackboardParams [NumBlackboardTypes][]BlackboardParam

// Properties are an element's or attachment's properties by param type.
type Properties = Groups[ParamType, Property]

// Inputs are an element's inputs by param type.
type Inputs = Groups[ParamType, Input]

// Outputs are an element's outputs by param type.
type Outputs = Groups[ParamType, Output]

// Plugs are an element's plugs by kind.
type Plugs = Groups[PlugKind, Plug]

// Vec3f is three floats.
type Vec3f [3]F32

// F32 is a float as stored in a file. In JSON it is a number, or for NaN and infinities a
// string of its bits ("0x7fc00000"), so every value survives a round trip exactly.
type F32 float32

// Value is an immediate value of any param type; which field holds it depends on the type.
type Value struct {
	Int    int32 // ParamInt, and ParamBool as 0 or 1 (kept whole: files may store other words)
	Float  F32
	String string
	Vec    Vec3f
}

// Property is a value an element or attachment is configured with.
type Property struct {
	Name      string
	ClassName string // pointer properties only
	Flags     ParamFlags
	Value     Value // pointer properties have none
}

// ParamFlags says where a value comes from: the immediate value, a blackboard parameter or an
// expression, plus a few bits whose purpose is unknown and that are kept as they are.
type ParamFlags uint32

// Flag bits.
const (
	ParamUsesDefault ParamFlags = 1 << 23
	ParamIsOutput    ParamFlags = 1 << 24
	paramSourceMask  ParamFlags = 0xc2000000
	paramExpression  ParamFlags = 0xc2000000
	paramBlackboard  ParamFlags = 0x80000000
)

// IsExpression reports whether the value comes from the expression Index().
func (f ParamFlags) IsExpression() bool { return f&paramSourceMask == paramExpression }

// IsBlackboard reports whether the value comes from the blackboard parameter Index().
func (f ParamFlags) IsBlackboard() bool {
	return f&paramSourceMask != paramExpression && f&paramSourceMask != 0
}

// Index is the expression or blackboard index.
func (f ParamFlags) Index() int { return int(f & 0xffff) }

// VectorComponent is 0 for none, or 1, 2, 3 for x, y, z of a vec3f blackboard parameter.
func (f ParamFlags) VectorComponent() int { return int(f>>paramComponentShift) & 3 }

// paramComponentShift places the vector component in the flags.
const paramComponentShift = 26

// The names of the flags other than the value's source, and of the vector components, in the
// community JSON.
var (
	paramFlagBits        = [...]ParamFlags{ParamUsesDefault, ParamIsOutput}
	paramFlagNames       = [len(paramFlagBits)]string{"Uses Default", "Is Output"}
	vectorComponentNames = [4]string{"NONE", "X", "Y", "Z"}
)

// Source is where an input takes its value: another element's output, or (with Node -1) the
// immediate value, a blackboard parameter or an expression as its flags say.
type Source struct {
	Node   int16
	Output int16 // index among the source element's outputs of the same type
	Flags  ParamFlags
}

// Input is an input plug of an element.
type Input struct {
	Name      string
	ClassName string // pointer inputs only
	Value     Value  // the default value
	Source    Source // used when Sources is nil
	// SetBlackboard marks an input whose output index had its top bit set.
	SetBlackboard bool
	// Sources lists the sources of a multi-input; nil for a single source.
	Sources []Source
	// PointerValue is the value word of a pointer input (always 0 in known files).
	PointerValue uint32
}

// IsMulti reports whether the input has several sources.
func (in *Input) IsMulti() bool { return in.Sources != nil }

// Output is an output plug of an element.
type Output struct {
	Name      string
	ClassName string // pointer outputs only
	// Connected is the top bit of the name word ("Is Output" in the community JSON).
	Connected bool
}

// PlugKind indexes the ten plug lists of an element.
type PlugKind int

// Plug kinds, in table order. Kind 1 is never used by known files.
const (
	PlugGeneric  PlugKind = 0 // bool/float input sources and outputs
	PlugChild    PlugKind = 2
	PlugJump     PlugKind = 3 // "Transition" in the community JSON
	PlugString   PlugKind = 4 // string input sources
	PlugInt      PlugKind = 5 // int input sources
	NumPlugKinds          = 6
)

var plugKindNames = [plugTables]string{"Generic", "_01", "Child", "Transition", "String", "Int", "_06", "_07", "_08", "_09"}

// String is the kind's name in paths and the community JSON ("Child", "Transition", ...).
func (k PlugKind) String() string { return enumName(plugKindNames[:], int(k), "PlugKind") }

// ParsePlugKind accepts the names String returns.
func ParsePlugKind(s string) (PlugKind, bool) {
	i, ok := enumParse(plugKindNames[:], s)
	return PlugKind(i), ok
}

// plugTables is how many plug lists a file has per element. Kinds 1 and 6 to 9 exist in the
// format but no known file uses them; kind 1 has its list among the Plugs, kinds 6 to 9 are
// kept apart (Element.UnusedPlugs) so that the families of lists stay six long.
const plugTables = 10

// UnusedPlugs are an element's plugs of kinds 6 to 9, laid out as LayoutRaw.
type UnusedPlugs [plugTables - NumPlugKinds][]Plug

// plugsOf is the list of plug kind k, of the ten the file has.
func (e *Element) plugsOf(k PlugKind) []Plug {
	if k < NumPlugKinds {
		return e.Plugs.Of(k)
	}
	if e.UnusedPlugs == nil {
		return nil
	}
	return e.UnusedPlugs[k-NumPlugKinds]
}

// Plug is a connection from an element to another. Which fields beyond Node and Name are
// stored depends on the element type (see PlugLayout): selectors keep their conditions there.
type Plug struct {
	Node int32
	Name string
	// Word is the first extra word: a blackboard index in its low 16 bits with bit 31 saying
	// it is used, or an unknown value for the plug layouts whose purpose is unknown.
	Word uint32
	// Int, Float or String is the second extra word, as the layout says.
	Int    int32
	Float  F32
	String string
	// MaxWord, MaxFloat and Reserved complete the F32 selector range layout.
	MaxWord  uint32
	MaxFloat F32
	Reserved [4]uint32
	// Jump is set for jump plugs.
	Jump *Jump
	// Vector marks an expression's generic plug for a Vec3f input, which keeps three floats
	// (Vec) where the others keep one word (LayoutWordVec3).
	Vector bool
	Vec    Vec3f
}

// Jump is an entry of the jump table ("transition" in the community JSON): it switches the
// root element of the running command.
type Jump struct {
	Type uint8 // 0: state end, with a command name
	// PostCalc applies the jump right after the current command's calculation.
	PostCalc bool
	Command  string // only for Type 0
	// Reserved holds the flag bits between the type byte and the top bit.
	Reserved uint32
}

// PlugLayout is the on-disk shape of a plug.
type PlugLayout int

// Plug layouts.
const (
	LayoutBasic      PlugLayout = iota // node, name: 8 bytes
	LayoutWordInt                      // node, name, word, int32: 16 bytes
	LayoutWordFloat                    // node, name, word, float32: 16 bytes
	LayoutWordString                   // node, name, word, string: 16 bytes
	LayoutF32Range                     // node, name, min word, min, max word, max, 4 reserved: 40 bytes
	LayoutJump                         // node, jump table index: 8 bytes
	// LayoutRaw is the plug kinds no known file uses (1 and 6 to 9): a node and a word of
	// unknown meaning, kept as they are in Node and Word: 8 bytes.
	LayoutRaw
	// LayoutWordVec3 is an expression's generic plug for a Vec3f input (Plug.Vector): node,
	// name, word, three float32: 24 bytes.
	LayoutWordVec3
)

// Size is the byte size of a plug with this layout.
func (l PlugLayout) Size() int {
	switch l {
	case LayoutBasic, LayoutJump, LayoutRaw:
		return 8
	case LayoutF32Range:
		return 40
	case LayoutWordVec3:
		return 24
	}
	return 16
}

// childEnumPrefix begins the names of the child plugs that keep an enum value beside them,
// as the BSA selectors' children do: "__CHILD_ENUM[0]", ..., "__CHILD_ENUM_OTHER" in the
// game's selectors (SMBW's ReactionSelector keeps eight named children, then these).
const childEnumPrefix = "__CHILD_ENUM"

// isModuleOutput reports whether t is one of a module's output interface elements.
func (t ElementType) isModuleOutput() bool { return t >= ModuleIFOutputS32 && t <= ModuleIFOutputPtr }

// PlugLayoutOf is the layout of one plug of kind k: the kind's (PlugLayout), except that a
// child plug named __CHILD_ENUM... keeps an enum value (LayoutWordInt) and an expression's
// generic plug for a Vec3f input keeps a vector (LayoutWordVec3).
func (e *Element) PlugLayoutOf(k PlugKind, p *Plug, version uint32) PlugLayout {
	l, _ := e.PlugLayout(k, version)
	switch {
	case l == LayoutBasic && k == PlugChild && strings.HasPrefix(p.Name, childEnumPrefix):
		return LayoutWordInt
	case l == LayoutWordInt && k == PlugGeneric && p.Vector && e.Type == Expression:
		return LayoutWordVec3
	}
	return l
}

// BSA selector elements are application-defined but keep a selector value in their child plugs.
func isBSASelector(name string) bool {
	return name == "SelectorBSABrainVerbUpdater" || name == "SelectorBSAFormChangeUpdater"
}

// PlugLayout says how a plug of kind k of this element is stored in a file of the version.
// The kinds no known file uses are LayoutRaw; ok is false only for k outside the ten kinds a
// file has.
func (e *Element) PlugLayout(k PlugKind, version uint32) (l PlugLayout, ok bool) {
	switch k {
	case PlugGeneric:
		switch e.Type {
		case BoolSelector:
			return LayoutWordInt, true
		case F32Selector:
			return LayoutWordFloat, true
		case Expression:
			if version >= Version407 {
				return LayoutWordInt, true
			}
		}
		// The game's module outputs keep a word and a value beside their source, always 0.
		if e.Type.isModuleOutput() && version >= Version407 {
			return LayoutWordInt, true
		}
		return LayoutBasic, true
	case PlugChild:
		switch e.Type {
		case S32Selector:
			return LayoutWordInt, true
		case F32Selector:
			return LayoutF32Range, true
		case StringSelector:
			return LayoutWordString, true
		case RandomSelector:
			return LayoutWordFloat, true
		}
		if isBSASelector(e.Name) {
			return LayoutWordInt, true
		}
		return LayoutBasic, true
	case PlugJump:
		return LayoutJump, true
	case PlugString:
		// An alert keeps a second string beside its message plug in the game's files.
		if (e.Type == StringSelector || e.Type == Expression || e.Type == Alert) && version >= Version407 {
			return LayoutWordString, true
		}
		return LayoutBasic, true
	case PlugInt:
		if (e.Type == S32Selector || e.Type == Expression || e.Type.isModuleOutput()) && version >= Version407 {
			return LayoutWordInt, true
		}
		return LayoutBasic, true
	}
	if k >= 0 && k < plugTables {
		return LayoutRaw, true
	}
	return 0, false
}

// Attachment is a helper object attached to elements, configured by properties.
type Attachment struct {
	Name       string
	Debug      uint32
	Properties Properties
	// EmptyEnd is where the six empty (count, offset) pairs at the end of the parameter
	// block point, from the block's start: its end (0x64) in the game's files. A modding
	// tool's files point 0x18 bytes earlier; that is kept here (Kept).
	EmptyEnd Kept
	// NameHash is the name's murmur3 hash (0x407+) where a file stored another: a mod's
	// attachment named "N" stores 0x78.
	NameHash Kept
}

// Action is an XLink action triggered by an element.
type Action struct {
	Slot   string
	Action string
}

// StateInfo is the 0x404 per-element state record.
type StateInfo struct {
	DesiredState string
	Unknown      [4]uint32
}

// Module is an entry of the module caller array: another AINB file this one calls.
type Module struct {
	Path      string
	Category  string
	Instances uint32
}

// ReplacementTable removes or replaces children and attachments at runtime (debug elements
// in release builds).
type ReplacementTable struct {
	// Processed is the initialization guard byte; files store 0.
	Processed uint8
	// Reserved01 is the byte after it, 0 in known files.
	Reserved01 uint8
	Entries    []Replacement
}

// ReplacementType says what a replacement does.
type ReplacementType uint8

// Replacement types.
const (
	RemoveChild      ReplacementType = 0
	ReplaceChild     ReplacementType = 1
	RemoveAttachment ReplacementType = 2
)

var replacementTypeNames = [...]string{"RemoveChild", "ReplaceChild", "RemoveAttachment"}

// String is the type's community name ("RemoveChild", ...).
func (t ReplacementType) String() string {
	return enumName(replacementTypeNames[:], int(t), "ReplacementType")
}

// ParseReplacementType accepts the names String returns for known types.
func ParseReplacementType(s string) (ReplacementType, bool) {
	i, ok := enumParse(replacementTypeNames[:], s)
	return ReplacementType(i), ok
}

// Replacement is one entry of the child replacement table.
type Replacement struct {
	Type ReplacementType
	// Reserved01 is the byte after the type, 0 in known files.
	Reserved01 uint8
	Element    int16
	Index      int16 // child plug index, or attachment index for RemoveAttachment
	New        int16 // the new element for ReplaceChild, -1 otherwise
}

// Section58 is the record pointed to by header offset 0x58 (Splatoon 3, Switch Sports).
type Section58 struct {
	Description string
	Unknown     [3]uint32
}

// EnumRelocation patches an enum value at load time: the game writes the value of
// ClassName::ValueName over the 4 bytes the relocation points at.
type EnumRelocation struct {
	// Target is the value patched; nil when the offset points at no value the model knows,
	// in which case Offset is written as it is.
	Target    *ValueRef
	Offset    uint32
	ClassName string
	ValueName string
}

// ValueRef names the immediate value of one property or input.
type ValueRef struct {
	// Element is the element index, or -1 for an attachment's property.
	Element    int
	Attachment int  // attachment index when Element is -1
	Input      bool // an input's value rather than a property's
	Type       ParamType
	Index      int // within the element's (or attachment's) list of that type
}

// BlackboardType is the type of a blackboard parameter, in blackboard order.
type BlackboardType int

// Blackboard types.
const (
	BBString BlackboardType = iota
	BBS32
	BBU32 // 0x408+
	BBF32
	BBBool
	BBVec3f
	BBPointer
	NumBlackboardTypes
)

var blackboardTypeNames = [NumBlackboardTypes]string{"String", "S32", "U32", "F32", "Bool", "Vec3f", "VoidPtr"}

// String is the type's community name ("S32", "Vec3f", "VoidPtr", ...).
func (t BlackboardType) String() string {
	return enumName(blackboardTypeNames[:], int(t), "BlackboardType")
}

// ParseBlackboardType accepts the names String returns.
func ParseBlackboardType(s string) (BlackboardType, bool) {
	i, ok := enumParse(blackboardTypeNames[:], s)
	return BlackboardType(i), ok
}

// Blackboard is the file's blackboard parameters, grouped by type.
type Blackboard struct {
	Params BlackboardParams
	// Reserved holds the last u16 of each type's header entry, 0 in known files; nil when
	// all are 0.
	Reserved *[NumBlackboardTypes]uint16
}

// InheritMode says how a blackboard parameter is inherited between modules.
type InheritMode uint8

// Inherit modes.
const (
	InheritFromRoot   InheritMode = 0
	InheritFromParent InheritMode = 1
	DontInherit       InheritMode = 2
)

var inheritModeNames = [...]string{"InheritFromRoot", "InheritFromParent", "DontInherit"}

// String is the mode's community name ("InheritFromRoot", ...).
func (m InheritMode) String() string { return enumName(inheritModeNames[:], int(m), "InheritMode") }

// ParseInheritMode accepts the names String returns for known modes.
func ParseInheritMode(s string) (InheritMode, bool) {
	i, ok := enumParse(inheritModeNames[:], s)
	return InheritMode(i), ok
}

// The file categories of 0x407+ files, by their header enum.
var categoryNames = [...]string{"AI", "Logic", "Sequence", "UniqueSequence", "UniqueSequenceSPL"}

// CategoryID is the header enum of a file category of 0x407+ files ("AI" is 0).
func CategoryID(category string) (uint32, bool) {
	i, ok := enumParse(categoryNames[:], category)
	return uint32(i), ok
}

// enumName is names[i], or type(i) for a value without a name.
func enumName(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}

func enumParse(names []string, s string) (int, bool) {
	for i, n := range names {
		if n == s {
			return i, true
		}
	}
	return 0, false
}

// BlackboardParam is one blackboard parameter.
type BlackboardParam struct {
	Name    string
	Notes   string
	Inherit InheritMode
	// File is the parameter file reference path, or "".
	File  string
	Value Value // pointer parameters have none; U32 values are stored in Int
}
