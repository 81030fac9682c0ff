package graph

import (
	"math"

	"ainbeditor/internal/ainb"
)

// The editor document, declared once: the JSON tags below name every member and say which
// may be absent (omitempty). go generate derives the rest from them (package docdecl): the
// decoder's required lists (members.go), the members and required lists of
// document.schema.json, whose value constraints are written there by hand (the tests
// validate every corpus document against it), and static/document.js, the same shape as
// JSDoc types and member lists for the editor's modules. Tests fail when any of them drifts.
//
// Vocabulary (also in docs/document.md's glossary): a file is a graph of nodes (the format's
// "elements"). A node has properties (values it is configured with), inputs and outputs
// (typed values it reads and writes), children (tree edges; on selectors each child has a
// condition), jumps (the format's "transitions": they switch a command's root), queries
// (nodes it reads) and attachments. Where a property's or input's value comes from is its
// source. Commands are the entry points; the blackboard holds named parameters; expressions
// are the functions of the expression binary; modules are other files this one calls.
//
// Nodes are referred to by id, never by position, so that deleting or reordering nodes needs
// no renumbering anywhere. A node's place in Nodes is its index in the file.
//
// The JSON form is written by encode.go and read by decode.go, both by hand (no reflection):
// document.schema.json describes it exactly. Where a Go type below differs from the plain
// reading of its JSON (Value, Float, GUID, pointer fields), the comment says how.

//go:generate go run ./docdecl/cmd/docdecl

// Format names the document format and its version.
const Format = "ainb-editor-document/2"

// Document is what the editor loads, edits and saves.
type Document struct {
	Format string `json:"format"`
	// Name is the name of the uploaded file, used for downloads.
	Name string `json:"name"`
	// Version is the file version: 1028 (0x404), 1031 (0x407) or 1032 (0x408).
	Version uint32 `json:"version"`
	// Filename is the name the file gives itself; Category its category (AI, Logic, ...).
	Filename string `json:"filename"`
	Category string `json:"category"`

	Commands        []Command         `json:"commands"`
	Nodes           []Node            `json:"nodes"`
	Attachments     []Attachment      `json:"attachments"`
	Blackboard      []BlackboardParam `json:"blackboard"`
	Expressions     *Expressions      `json:"expressions"` // null when the file has no expression binary
	Modules         []Module          `json:"modules"`
	ModuleCall      ModuleCall        `json:"moduleCall"`
	Replacements    []Replacement     `json:"replacements"` // null in 0x404 files, which have no table
	EnumRelocations []EnumRelocation  `json:"enumRelocations"`
	Section58       *Section58        `json:"section58"`
	HasSection6C    bool              `json:"hasSection6C"`

	// Layout is opaque to the browser: facts about the binary layout of the file the document
	// was parsed from (string pool order, unknown words, derived plugs as they were stored),
	// which make an unedited document build the very bytes it came from. The browser passes it
	// back untouched; Go checks it and applies each fact only while what it describes is
	// unchanged.
	Layout string `json:"layout,omitempty"`
}

// Command is an entry point: the node a command starts from.
type Command struct {
	Name string    `json:"name"`
	GUID ainb.GUID `json:"guid"` // JSON: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" as the community JSON prints it
	Root int       `json:"root"` // node id
	// Secondary is the id of a second root node, or -1.
	Secondary int `json:"secondary"`
}

// NodeType names a node's built-in behaviour; "UserDefined" nodes are defined by the game
// and known by their class name.
type NodeType string

// Node is one node of the graph.
type Node struct {
	// ID is any integer from 0 to 2^31-1, unique in the document. Parsing numbers nodes by
	// their index in the file.
	ID   int      `json:"id"`
	Type NodeType `json:"type"`
	// Name is the class name of a user-defined node, or the module name of a module caller.
	Name string    `json:"name"`
	GUID ainb.GUID `json:"guid"` // JSON: a string, as Command.GUID

	// Flags, as named booleans.
	Query        bool `json:"query,omitempty"`        // a node other nodes read
	ModuleCaller bool `json:"moduleCaller,omitempty"` // calls the module named Name
	ResidentInit bool `json:"residentInit,omitempty"` // "Is Root Node" in the community JSON
	MultiParamV2 bool `json:"multiParamV2,omitempty"` // multi-inputs use the second layout

	// Position: the top-left corner of the node's box, in canvas units. Pinned marks a place
	// the user chose; automatic layout leaves it alone.
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Pinned bool    `json:"pinned,omitempty"`

	Properties  []Property `json:"properties,omitempty"`
	Inputs      []Input    `json:"inputs,omitempty"`
	Outputs     []Output   `json:"outputs,omitempty"`
	Children    []Child    `json:"children,omitempty"`
	Jumps       []Jump     `json:"jumps,omitempty"`
	Queries     []int      `json:"queries,omitempty"`     // ids of the query nodes this node reads
	Attachments []int      `json:"attachments,omitempty"` // indices into Document.Attachments
	Actions     []Action   `json:"actions,omitempty"`     // XLink actions
	StateInfo   *StateInfo `json:"stateInfo,omitempty"`   // 0x404 files: every node has one
}

// ValueType is the type of a property, input, output or blackboard parameter: "int", "bool",
// "float", "string", "vec3f", "pointer", and for blackboard parameters of 0x408 files "u32".
type ValueType string

// Value is an immediate value as JSON: a number for int and u32, true or false for bool, a
// number for float (or, for NaN, infinities and -0, the string of its bits like
// "0x7fc00000", since JSON has no number for them), a string for string, three floats for
// vec3f; null for pointer.
//
// In Go the value is a plain struct and the type that goes with it (the Type of the property,
// input or parameter) says which field holds it: Int for int, u32 (0..2^32-1) and bool (0 or
// 1), Float for float, Vec for vec3f, String for string; nothing for pointer.
type Value struct {
	Int    int64
	Float  Float
	Vec    [3]Float
	String string
}

// Float is a 32-bit float, kept bit for bit. JSON: the shortest number that reads back as the
// same float32; NaN, infinities and -0 as the string of their bits, "0x7fc00000".
type Float = ainb.F32

// Property is a value a node or attachment is configured with. The file groups properties,
// inputs and outputs by type (int, bool, float, string, vec3f, pointer); the document lists
// them in any order, and a build groups them, keeping their order within a type. Parsing
// lists them grouped.
type Property struct {
	Name      string    `json:"name"`
	Type      ValueType `json:"type"`
	ClassName string    `json:"className,omitempty"` // pointer properties only
	Value     Value     `json:"value"`
	// Source is where the value comes from; absent for the immediate Value itself.
	Source *Source `json:"source,omitempty"`
	// IsOutput is the flag the community JSON calls "Is Output"; its meaning is unknown.
	IsOutput bool `json:"isOutput,omitempty"`
	// UsesDefault is "Uses Default" of the community JSON. Absent means the usual: true when
	// the value is the immediate one (no source), false otherwise.
	UsesDefault *bool `json:"usesDefault,omitempty"`
}

// Input is a typed value a node reads. It takes its value from Source (a
// single input) or from every entry of Sources (a multi-input); with neither, from Value.
type Input struct {
	Name      string    `json:"name"`
	Type      ValueType `json:"type"`
	ClassName string    `json:"className,omitempty"` // pointer inputs only
	Value     Value     `json:"value"`               // the default value
	Source    *Source   `json:"source,omitempty"`
	// Sources makes the input a multi-input; never together with Source. An empty list (a
	// multi-input without sources) is written as [] and differs from an absent one.
	Sources []Source `json:"sources,omitempty"`
	// SetBlackboard is "Is Set Blackboard" of the community JSON.
	SetBlackboard bool `json:"setBlackboard,omitempty"`
	IsOutput      bool `json:"isOutput,omitempty"`
	// UsesDefault: as on Property. For a multi-input it is on each source instead.
	UsesDefault *bool `json:"usesDefault,omitempty"`
}

// Source says where a property or input takes its value from: exactly one of Node (another
// node's output), Blackboard (a blackboard parameter) or Expression (an expression function),
// except that an input's node output may go through an expression: Node with Expression feeds
// the output to the function (its In) and the input gets the result, as the games store it
// (230 sources of their files). In a multi-input's Sources, an entry with none of them stands
// for the immediate value.
type Source struct {
	// Node is the id of the node whose output feeds the input; Output indexes that node's
	// Outputs (the whole list, not per type); the output's type equals the input's.
	Node   *int `json:"node,omitempty"`
	Output int  `json:"output,omitempty"`
	// MissingOutput, with Node and instead of Output, is an output the node does not have:
	// the index among its outputs of the value's type that the file stores, past the last one
	// (the games ship such inputs and load them; the file keeps the index as it is). A build
	// writes it back as long as the node still has no such output.
	MissingOutput *int `json:"missingOutput,omitempty"`
	// Blackboard indexes Document.Blackboard. Component is "x", "y" or "z" when a float
	// takes one component of a vec3f parameter.
	Blackboard *int   `json:"blackboard,omitempty"`
	Component  string `json:"component,omitempty"`
	// Expression indexes Document.Expressions.Functions; beside Node, the function the
	// node's output goes through.
	Expression *int `json:"expression,omitempty"`

	// Flags of a multi-input's source (see Input).
	IsOutput    bool  `json:"isOutput,omitempty"`
	UsesDefault *bool `json:"usesDefault,omitempty"`
}

// Output is a typed value a node writes.
type Output struct {
	Name      string    `json:"name"`
	Type      ValueType `json:"type"`
	ClassName string    `json:"className,omitempty"` // pointer outputs only
	// Connected is the flag the community JSON calls "Is Output".
	Connected bool `json:"connected,omitempty"`
}

// Child is a tree edge to another node. On selectors it carries the condition under which
// the child runs; the last child of an S32, F32 or string selector is the default branch.
type Child struct {
	// Node is the id of the child node, or NoNode (JSON null) for a child that leads to no
	// node: the games store such children (an empty False branch, an empty default), with
	// the node index 0x7FFF that a build writes for NoNode.
	Node int    `json:"node"`
	Name string `json:"name"`
	// Condition is set on the children of selectors (S32, F32, string, random and the BSA
	// selectors) and absent on every other node.
	Condition *Condition `json:"condition,omitempty"`
}

// NoNode is Child.Node of a child that leads to no node, null in JSON. It is no id a
// document can give in JSON (ids are 0 to 2^31-1), so no node can be mistaken for it.
const NoNode = math.MinInt

// Condition is what a selector compares with to choose a child. Which fields apply depends on
// the selector: S32 and BSA selectors: Int (or Blackboard); string selectors: String; random
// selectors: Weight (or Blackboard, a weight parameter); F32 selectors: the range Min..Max,
// each bound a constant or a blackboard parameter (MinBlackboard, MaxBlackboard).
//
// Parsing sets every value field the selector stores (int, string, weight or min and max),
// also beside a blackboard parameter (the value is then the parameter's default) and on the
// default branch. A missing value builds as 0 or "". Blackboard indexes Document.Blackboard:
// an int parameter for S32 and BSA selectors, string for string selectors, float for random
// and F32 selectors.
type Condition struct {
	Int           *int32  `json:"int,omitempty"`
	String        *string `json:"string,omitempty"`
	Weight        *Float  `json:"weight,omitempty"` // JSON: a float (see Float)
	Min           *Float  `json:"min,omitempty"`
	Max           *Float  `json:"max,omitempty"`
	Blackboard    *int    `json:"blackboard,omitempty"`
	MinBlackboard *int    `json:"minBlackboard,omitempty"`
	MaxBlackboard *int    `json:"maxBlackboard,omitempty"`
}

// Jump switches the root of the running command to Node (the format's "transition").
type Jump struct {
	Node int `json:"node"` // node id
	// Type 0 jumps end the state and name the Command to go to; 0..255.
	Type    int    `json:"type"`
	Command string `json:"command,omitempty"`
	// PostCalc applies the jump right after the current command's calculation.
	PostCalc bool `json:"postCalc,omitempty"`
}

// Action is an XLink action a node triggers.
type Action struct {
	Slot   string `json:"slot"`
	Action string `json:"action"`
}

// StateInfo is the per-node state record of 0x404 files.
type StateInfo struct {
	DesiredState string    `json:"desiredState"`
	Unknown      [4]uint32 `json:"unknown"`
}

// Attachment is a helper object shared by the nodes that list it.
type Attachment struct {
	Name       string     `json:"name"`
	Debug      uint32     `json:"debug"`
	Properties []Property `json:"properties,omitempty"`
}

// BlackboardParam is one blackboard parameter. Sources and conditions refer to it by its
// index in Document.Blackboard. The file groups parameters by type (string, int, u32, float,
// bool, vec3f, pointer); a build groups them, keeping their order within a type.
type BlackboardParam struct {
	Name  string    `json:"name"`
	Type  ValueType `json:"type"`
	Notes string    `json:"notes,omitempty"`
	// Inherit is "root", "parent" or "none": how the parameter is inherited between modules.
	Inherit string `json:"inherit"`
	// File is the path of the parameter file the value comes from, or "".
	File  string `json:"file,omitempty"`
	Value Value  `json:"value"` // null for pointers
}

// Expressions is the expression binary as the texts of its functions.
type Expressions struct {
	// Version is the expression binary version (1, 2 or 3).
	Version   uint32     `json:"version"`
	Functions []Function `json:"functions"`
	// checked holds the texts as the JSON decoder read them, checked to be UTF-8: a build
	// need not check again a text that is still one of these (the same string, compared in
	// one step), and a text set since is checked as usual.
	checked []Function
}

// utf8Known reports whether each of texts is known to be UTF-8: function i's text or
// parsed text as decoded.
func (x *Expressions) utf8Known(texts []string) bool {
	if len(x.checked) != len(texts) {
		return false
	}
	for i, t := range texts {
		c := &x.checked[i]
		if t != c.Text && (c.ParsedText == nil || t != *c.ParsedText) {
			return false
		}
	}
	return true
}

// Function is one expression function, as the text the expression editor shows: readable
// code (internal/exb/README.md) as the file is read; on build, the instruction listing
// (".input"/".output" lines, an optional ".setup" block and the ".main" block) is accepted
// as well.
type Function struct {
	Text string `json:"text"`
	// ParsedText is the text the function had when the file was parsed, sent back by the
	// editor for a function whose text it changed (never by a parse). It lets a build edit
	// only that function in the module as it was: every other function keeps its
	// instructions and literals (tofile.go, expressions). A parsed text that is not the
	// parse's (the layout's hash of the texts tells) only loses that: the build lays the
	// module out canonically, as without it.
	ParsedText *string `json:"parsedText,omitempty"`
}

// Module is another file this one calls.
type Module struct {
	Path      string `json:"path"`
	Category  string `json:"category"`
	Instances uint32 `json:"instances"`
}

// ModuleCall holds the blackboard ids that link a module to its caller: blackboards are
// inherited from the caller only when ParentBlackboardID is not 0.
type ModuleCall struct {
	BlackboardID       uint32 `json:"blackboardId"`
	ParentBlackboardID uint32 `json:"parentBlackboardId"`
}

// Replacement removes or replaces a child or an attachment at run time: Type is
// "removeChild", "replaceChild" or "removeAttachment"; Node is a node id; Index a child index
// or, for removeAttachment, an index into that node's attachments; New the id of the
// replacing node (replaceChild only).
type Replacement struct {
	Type  string `json:"type"`
	Node  int    `json:"node"`
	Index int    `json:"index"`
	New   *int   `json:"new,omitempty"`
}

// EnumRelocation makes the game write the value of ClassName::ValueName over the value it
// targets when it loads the file (Splatoon 3).
type EnumRelocation struct {
	ClassName string `json:"className"`
	ValueName string `json:"valueName"`
	// Target is the patched value; nil when the relocation points at no value the editor
	// knows (it is then kept as the file had it, in the layout).
	Target *ValueTarget `json:"target,omitempty"`
}

// ValueTarget names the value of one property or input: Node (an id) or Attachment (an
// index), and Property or Input indexing its list.
type ValueTarget struct {
	Node       *int `json:"node,omitempty"`
	Attachment *int `json:"attachment,omitempty"`
	Property   *int `json:"property,omitempty"`
	Input      *int `json:"input,omitempty"`
}

// Section58 is the record of header offset 0x58 (Splatoon 3, Switch Sports).
type Section58 struct {
	Description string    `json:"description"`
	Unknown     [3]uint32 `json:"unknown"`
}
