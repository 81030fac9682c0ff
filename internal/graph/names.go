package graph

import (
	"strings"

	"ainbeditor/internal/ainb"
)

// Names of the document's enums, and the tables that map them to the model's numbers.

// valueTypes are the param types in file order: a file groups properties, inputs and outputs
// by them.
var valueTypes = [ainb.NumParamTypes]ValueType{"int", "bool", "float", "string", "vec3f", "pointer"}

// blackboardTypes are the blackboard types in file order.
var blackboardTypes = [ainb.NumBlackboardTypes]ValueType{"string", "int", "u32", "float", "bool", "vec3f", "pointer"}

var inheritNames = [3]string{"root", "parent", "none"}

var replacementNames = [3]string{"removeChild", "replaceChild", "removeAttachment"}

// componentNames are the vec3f components a float may take from a blackboard parameter; 0 is
// none.
var componentNames = [4]string{"", "x", "y", "z"}

var (
	// nodeTypeNames is indexed by element type (the largest is 500): a parse looks up every
	// node's, and an index costs less than hashing. "" is no known type.
	nodeTypeNames  []NodeType
	nodeTypeByName = map[NodeType]ainb.ElementType{}
)

func init() {
	for _, t := range ainb.ElementTypes() {
		n := NodeType(strings.TrimPrefix(t.String(), "Element_"))
		if int(t) >= len(nodeTypeNames) {
			nodeTypeNames = append(nodeTypeNames, make([]NodeType, int(t)+1-len(nodeTypeNames))...)
		}
		nodeTypeNames[t] = n
		nodeTypeByName[n] = t
	}
}

// nodeTypeName is the document's name of element type t, false for a type the editor does
// not know.
func nodeTypeName(t ainb.ElementType) (NodeType, bool) {
	if int(t) < len(nodeTypeNames) && nodeTypeNames[t] != "" {
		return nodeTypeNames[t], true
	}
	return "", false
}

func paramType(t ValueType) (ainb.ParamType, bool) {
	for i, n := range valueTypes {
		if n == t {
			return ainb.ParamType(i), true
		}
	}
	return 0, false
}

func blackboardType(t ValueType) (ainb.BlackboardType, bool) {
	for i, n := range blackboardTypes {
		if n == t {
			return ainb.BlackboardType(i), true
		}
	}
	return 0, false
}

// sourceBlackboardType is the type of blackboard parameter a value of type t reads; a float
// taking one component reads a vec3f.
func sourceBlackboardType(t ainb.ParamType, component int) ainb.BlackboardType {
	switch t {
	case ainb.ParamInt:
		return ainb.BBS32
	case ainb.ParamBool:
		return ainb.BBBool
	case ainb.ParamFloat:
		if component != 0 {
			return ainb.BBVec3f
		}
		return ainb.BBF32
	case ainb.ParamString:
		return ainb.BBString
	case ainb.ParamVec3f:
		return ainb.BBVec3f
	}
	return ainb.BBPointer
}

// conditionBlackboardType is the type of blackboard parameter the children of a node with the
// given child plug layout compare with.
func conditionBlackboardType(l ainb.PlugLayout) ainb.BlackboardType {
	switch l {
	case ainb.LayoutWordInt:
		return ainb.BBS32
	case ainb.LayoutWordString:
		return ainb.BBString
	}
	return ainb.BBF32
}

func componentIndex(s string) (int, bool) {
	for i, n := range componentNames {
		if n == s {
			return i, true
		}
	}
	return 0, false
}

// Param flag words: where a value comes from, plus two flags.
const (
	wordBlackboard = 0x80000000
	wordExpression = 0xc2000000
	wordUsesDef    = uint32(ainb.ParamUsesDefault)
	wordIsOutput   = uint32(ainb.ParamIsOutput)
)

// paramWord is the flag word of a value with this source: the canonical derivation.
// bbIndex is the per-type blackboard index.
func paramWord(src *Source, bbIndex int, isOutput bool, usesDefault *bool) uint32 {
	var w uint32
	immediate := true
	if src != nil {
		switch {
		case src.Node != nil:
			// A node output may go through an expression first: the word names it.
			if src.Expression != nil {
				w = wordExpression | uint32(*src.Expression)&0xffff
			}
			immediate = false
		case src.Blackboard != nil:
			c, _ := componentIndex(src.Component)
			w = wordBlackboard | uint32(c)<<26 | uint32(bbIndex)&0xffff
			immediate = false
		case src.Expression != nil:
			w = wordExpression | uint32(*src.Expression)&0xffff
			immediate = false
		}
	}
	if isOutput {
		w |= wordIsOutput
	}
	if usesDefault != nil && *usesDefault || usesDefault == nil && immediate {
		w |= wordUsesDef
	}
	return w
}

// isImmediate reports whether a source stands for the immediate value.
func isImmediate(src *Source) bool {
	return src == nil || src.Node == nil && src.Blackboard == nil && src.Expression == nil
}
