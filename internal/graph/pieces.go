package graph

import "ainbeditor/internal/ainb"

// The JSON of one part of a document, exactly as Encode writes it inside the whole: a diff
// reports the values of the places it compares in this form, so the browser can show a
// change and set the place back to either side's value with the code that reads a document.

// AppendNode appends a node's JSON.
func AppendNode(b []byte, n *Node) []byte { return appendNode(b, n) }

// AppendProperty appends a property's JSON.
func AppendProperty(b []byte, p *Property) []byte {
	b = appendParamHead(b, p.Name, p.Type, p.ClassName)
	b = appendValueSource(b, p.Type, &p.Value, p.Source)
	b = appendFlag(b, `,"isOutput":`, p.IsOutput)
	b = appendOptBool(b, `,"usesDefault":`, p.UsesDefault)
	return append(b, '}')
}

// AppendInput appends an input's JSON.
func AppendInput(b []byte, in *Input) []byte { return appendInput(b, in) }

// AppendOutput appends an output's JSON.
func AppendOutput(b []byte, o *Output) []byte { return appendOutput(b, o) }

// AppendChild appends a child's JSON.
func AppendChild(b []byte, c *Child) []byte { return appendChild(b, c) }

// AppendJump appends a jump's JSON.
func AppendJump(b []byte, j *Jump) []byte { return appendJump(b, j) }

// AppendSource appends a source's JSON.
func AppendSource(b []byte, s *Source) []byte { return appendSource(b, s) }

// AppendValue appends an immediate value of type t.
func AppendValue(b []byte, t ValueType, v *Value) []byte { return appendValue(b, t, v) }

// AppendGUID appends a GUID as the JSON string the document writes.
func AppendGUID(b []byte, g *ainb.GUID) []byte { return appendGUID(b, g) }

// AppendIDs appends a list of node ids or attachment indices.
func AppendIDs(b []byte, v []int) []byte { return appendInts(b, v) }

// AppendCommand appends a command's JSON.
func AppendCommand(b []byte, c *Command) []byte { return appendCommand(b, c) }

// AppendAttachment appends an attachment's JSON.
func AppendAttachment(b []byte, a *Attachment) []byte { return appendAttachment(b, a) }

// AppendBlackboardParam appends a blackboard parameter's JSON.
func AppendBlackboardParam(b []byte, p *BlackboardParam) []byte { return appendBlackboardParam(b, p) }

// AppendModule appends a module's JSON.
func AppendModule(b []byte, m *Module) []byte { return appendModule(b, m) }
