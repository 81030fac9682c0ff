package graph

import (
	"ainbeditor/internal/chunk"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/jsontext"
)

// The document's JSON, read by hand in one pass: a tokenizer over the bytes and one function
// per object shape, no reflection and no intermediate tree. Malformed JSON stops the read with
// a *SyntaxError; anything well-formed but not a document (an unknown member, a string where
// a number belongs, a number out of range) is a Problem, and reading goes on past it so that
// every problem is reported at once, as a *ProblemsError.

// SyntaxError reports text that is not JSON, with the path of the member being read.
type SyntaxError = jsontext.SyntaxError

// Decode reads a document from its JSON. It copies data once; DecodeText does not.
func Decode(data []byte) (*Document, error) {
	return DecodeText(string(data))
}

// DecodeText reads a document from its JSON text. Every string without escapes in the
// document is a substring of text, so reading names costs no allocation (and no interning
// map) each; the document keeps the text alive, which is no more than its own size.
func DecodeText(text string) (*Document, error) {
	// A read-only view of the text: the decoder scans bytes and never writes them, and Go
	// strings are immutable, so the view cannot change under it.
	d := &dec{text: text}
	d.Data = unsafe.Slice(unsafe.StringData(text), len(text))
	d.Path = func() string { return d.path("") }
	// A string that is not UTF-8 is a problem, not a syntax error: reading goes on.
	d.BadUTF8 = func(at, i int, c byte) {
		d.problemAt(at, "", "byte %d of this string, %#02x, is not UTF-8 (documents are UTF-8 text)", i, c)
	}
	doc := &Document{}
	d.Space()
	if d.Pos >= len(d.Data) {
		d.syntax("no JSON: the body is empty")
	} else {
		d.document(doc)
		d.End()
	}
	if d.Err != nil {
		return nil, d.Err
	}
	if len(d.missingAt) > 0 && doc.Format != "" && doc.Format != Format {
		// Another format (or version) lacks members for its own reasons: CheckFormat says why.
		d.problems = dropProblems(d.problems, d.missingAt)
	}
	if len(d.problems) > 0 {
		return nil, &ProblemsError{d.problems}
	}
	return doc, nil
}

// dropProblems returns ps without the problems at the (ascending) indices at.
func dropProblems(ps []Problem, at []int) []Problem {
	out := ps[:0]
	for i, p := range ps {
		if len(at) > 0 && at[0] == i {
			at = at[1:]
			continue
		}
		out = append(out, p)
	}
	return out
}

// A frame is one object or array being read. It holds no pointers and is five words, since
// one is pushed for every object and array: the frame of 11 words with a pointer it replaced
// cost 46 instructions a push.
type frame struct {
	// member is the member being read, in an object: its index in the set's names, or keyed
	// (its name is dec.keys[key], not one of the set's), or -1 (none, or its name is being
	// read).
	member int32
	key    int32
	idx    int32 // the element being read, in an array; in an object, >= 0 once a member was read
	// keysFrom is where this object's unknown member names start in dec.keys.
	keysFrom int32
	// set is the members the object may have, an index in memberSets.
	set uint8
	arr bool
	// seen has bit i set once the set's names[i] was read, which tells a second one and, at
	// the end, a missing one.
	seen uint64
	// keys marks the unknown member names read so far, one bit for each name's keyBit;
	// only names whose bit is set already are compared with the others, so finding a
	// second one costs little.
	keys uint64
}

// A memberSet is the members one kind of object may have, each read as its index in names
// once: the index then serves the check for a second member of a name, the check for
// missing ones and the reader's switch, where comparing the name at each of them cost 150
// to 190 instructions a member (a mid-size document has 10,000).
type memberSet struct {
	id    uint8    // its index in memberSets
	names []string // in the order the encoder writes them
	req   uint64   // bit i set when names[i] is required
	// reqAt is the index of each member members.go requires, in its order, the order the
	// missing ones are reported in.
	reqAt []int
	// slot holds the name whose nameKey hashes (times mul, top six bits) to the slot's
	// index: mul is found when the set is made so that no two names share a slot.
	slot [64]memberSlot
	mul  uint64
	// quoted holds each name as the encoder writes it, quoted and with its colon, compared
	// with the text a word at a time.
	quoted []quotedName
}

// A memberSlot is a name of a set as find compares it with the text.
type memberSlot struct {
	head, mask uint64 // the first eight bytes of its quotedName; head is 1 in an empty slot
	bit        uint64 // 1 << index, its bit in frame.seen
	index      uint8  // in the set's names
	n          uint8  // the length of the quoted name and colon
}

// nameKey tells apart the member names of a set from w, the eight bytes of text from a
// name's opening quote on: a name of up to six bytes is itself (the quote after it found in
// w), a longer one its first seven bytes and a bit no shorter one has. Finding the member
// by it, where trying the set's names in order from the last one found cost 84 instructions
// a member, since the members left out before it were tried too.
func nameKey(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	name := w >> 8
	q := name ^ ones*'"'
	// The lowest byte flagged is the first quote (bytes above it may be flagged wrongly);
	// the byte shifted in on top is 0, never a quote.
	if m := (q - ones) &^ q & highs; m != 0 {
		return name & (1<<(bits.TrailingZeros64(m)&^7) - 1)
	}
	return name | 1<<63
}

// A quotedName is the text "name": as its first and last eight bytes (overlapping, or the
// first ones masked when it is shorter), so that finding it at an offset is two loads and
// compares where a string comparison was a call.
type quotedName struct {
	head, mask, tail uint64
	text             string
}

func newQuotedName(name string) quotedName {
	q := quotedName{text: `"` + name + `":`}
	var b [8]byte
	copy(b[:], q.text)
	q.head = binary.LittleEndian.Uint64(b[:])
	q.mask = ^uint64(0)
	if len(q.text) < 8 {
		q.mask = 1<<(8*len(q.text)) - 1
	} else {
		q.tail = binary.LittleEndian.Uint64([]byte(q.text[len(q.text)-8:]))
	}
	return q
}

// tailAt reports whether text holds the bytes of q past its first eight at p (which holds
// those eight).
func (q *quotedName) tailAt(text []byte, p int) bool {
	n := len(q.text)
	return p+n <= len(text) && binary.LittleEndian.Uint64(text[p+n-8:]) == q.tail &&
		(n <= 16 || string(text[p+8:p+n-8]) == q.text[8:n-8])
}

// members makes a memberSet of names, required ones req (from members.go), and gives it its
// place in memberSets.
func members(req []string, names ...string) *memberSet {
	s := newMemberSet(req, names)
	s.id = uint8(len(memberSets))
	memberSets = append(memberSets, s)
	return s
}

func newMemberSet(req []string, names []string) *memberSet {
	s := &memberSet{names: names}
	keys := make([]uint64, len(names))
	for i, n := range names {
		q := newQuotedName(n)
		s.quoted = append(s.quoted, q)
		keys[i] = nameKey(q.head)
		if slices.Index(keys[:i], keys[i]) >= 0 {
			panic("graph: members " + strings.Join(names, ",") + " share their first seven bytes")
		}
	}
	if len(names) > 64 {
		panic("graph: more than 64 members in an object")
	}
	for _, r := range req {
		i := slices.Index(names, r)
		if i < 0 {
			panic("graph: required member " + r + " is not in its object's list")
		}
		s.reqAt = append(s.reqAt, i)
		s.req |= 1 << i
	}
	// Odd multipliers from a fixed sequence, the same at every start.
	for s.mul = 0x9e3779b97f4a7c15; ; s.mul += 0x6a09e667f3bcc908 {
		if s.fill(keys) {
			return s
		}
	}
}

// fill places each name in its slot, false if two share one.
func (s *memberSet) fill(keys []uint64) bool {
	for h := range s.slot {
		s.slot[h] = memberSlot{head: 1}
	}
	for i, k := range keys {
		h := k * s.mul >> 58
		if s.slot[h].n != 0 {
			return false
		}
		q := &s.quoted[i]
		s.slot[h] = memberSlot{head: q.head, mask: q.mask, bit: 1 << i, index: uint8(i), n: uint8(len(q.text))}
	}
	return true
}

// find is the index of the member whose quoted name and colon the text holds at p, or -1.
func (s *memberSet) find(text []byte, p int) int {
	if p+8 > len(text) {
		return -1
	}
	w := binary.LittleEndian.Uint64(text[p : p+8])
	e := &s.slot[nameKey(w)*s.mul>>58]
	if w&e.mask != e.head || e.n > 8 && !s.quoted[e.index].tailAt(text, p) {
		return -1
	}
	return int(e.index)
}

// keyed is frame.member for a member named by frame.key: the set has no such name, or it is
// still being told.
const keyed = -2

// memberSets holds every memberSet, at its id, the first (no names) that of an object before
// its reader names one, so that every member is unknown.
var memberSets = []*memberSet{{}}

// The members of each kind of object; the readers switch on these indices.
const (
	docFormat = iota
	docName
	docVersion
	docFilename
	docCategory
	docCommands
	docNodes
	docAttachments
	docBlackboard
	docExpressions
	docModules
	docModuleCall
	docReplacements
	docEnumRelocations
	docSection58
	docHasSection6C
	docLayout
)

var documentMembers = members(reqDocument, "format", "name", "version", "filename", "category",
	"commands", "nodes", "attachments", "blackboard", "expressions", "modules", "moduleCall",
	"replacements", "enumRelocations", "section58", "hasSection6C", "layout")

const (
	exprVersion = iota
	exprFunctions
)

var expressionsMembers = members(reqExpressions, "version", "functions")

const (
	fnText = iota
	fnParsedText
)

var functionMembers = members(reqFunction, "text", "parsedText")

const (
	modPath = iota
	modCategory
	modInstances
)

var moduleMembers = members(reqModule, "path", "category", "instances")

const (
	callBlackboardID = iota
	callParentBlackboardID
)

var moduleCallMembers = members(reqModuleCall, "blackboardId", "parentBlackboardId")

const (
	replType = iota
	replNode
	replIndex
	replNew
)

var replacementMembers = members(reqReplacement, "type", "node", "index", "new")

const (
	relocClassName = iota
	relocValueName
	relocTarget
)

var enumRelocationMembers = members(reqEnumRelocation, "className", "valueName", "target")

const (
	targetNode = iota
	targetAttachment
	targetProperty
	targetInput
)

var targetMembers = members(nil, "node", "attachment", "property", "input")

const (
	s58Description = iota
	s58Unknown
)

var section58Members = members(reqSection58, "description", "unknown")

const (
	cmdName = iota
	cmdGUID
	cmdRoot
	cmdSecondary
)

var commandMembers = members(reqCommand, "name", "guid", "root", "secondary")

const (
	nodeID = iota
	nodeType
	nodeName
	nodeGUID
	nodeQuery
	nodeModuleCaller
	nodeResidentInit
	nodeMultiParamV2
	nodeX
	nodeY
	nodePinned
	nodeProperties
	nodeInputs
	nodeOutputs
	nodeChildren
	nodeJumps
	nodeQueries
	nodeAttachments
	nodeActions
	nodeStateInfo
)

var nodeMembers = members(reqNode, "id", "type", "name", "guid", "query", "moduleCaller",
	"residentInit", "multiParamV2", "x", "y", "pinned", "properties", "inputs", "outputs",
	"children", "jumps", "queries", "attachments", "actions", "stateInfo")

const (
	outName = iota
	outType
	outClassName
	outConnected
)

var outputMembers = members(reqOutput, "name", "type", "className", "connected")

const (
	jumpNode = iota
	jumpType
	jumpCommand
	jumpPostCalc
)

var jumpMembers = members(reqJump, "node", "type", "command", "postCalc")

const (
	actSlot = iota
	actAction
)

var actionMembers = members(reqAction, "slot", "action")

const (
	stateDesiredState = iota
	stateUnknown
)

var stateInfoMembers = members(reqStateInfo, "desiredState", "unknown")

// Properties and inputs share their first five members' indices.
const (
	parName = iota
	parType
	parClassName
	parValue
	parSource
)

const (
	propIsOutput = parSource + 1 + iota
	propUsesDefault
)

var propertyMembers = members(reqProperty, "name", "type", "className", "value", "source",
	"isOutput", "usesDefault")

const (
	inSources = parSource + 1 + iota
	inSetBlackboard
	inIsOutput
	inUsesDefault
)

var inputMembers = members(reqInput, "name", "type", "className", "value", "source",
	"sources", "setBlackboard", "isOutput", "usesDefault")

const (
	srcNode = iota
	srcOutput
	srcMissingOutput
	srcBlackboard
	srcComponent
	srcExpression
	srcIsOutput
	srcUsesDefault
)

var sourceMembers = members(nil, "node", "output", "missingOutput", "blackboard", "component",
	"expression", "isOutput", "usesDefault")

const (
	childTarget = iota
	childLabel
	childCond
)

var childMembers = members(reqChild, "node", "name", "condition")

const (
	condInt = iota
	condString
	condWeight
	condMin
	condMax
	condBlackboard
	condMinBlackboard
	condMaxBlackboard
)

var conditionMembers = members(nil, "int", "string", "weight", "min", "max", "blackboard",
	"minBlackboard", "maxBlackboard")

const (
	attName = iota
	attDebug
	attProperties
)

var attachmentMembers = members(reqAttachment, "name", "debug", "properties")

const (
	bbName = iota
	bbType
	bbNotes
	bbInherit
	bbFile
	bbValue
)

var blackboardParamMembers = members(reqBlackboardParam, "name", "type", "notes", "inherit",
	"file", "value")

// expect makes the object just begun read its members as set's, and report each required one
// it ends without, as a problem at that member's path ("nodes[3].name: missing").
func (d *dec) expect(set *memberSet) { d.top.set, d.set = set.id, set }

// missing reports the required members an object ends without, at its closing brace.
func (d *dec) missing(f *frame) {
	f.member = -1 // the path of the object itself
	set := memberSets[f.set]
	for _, i := range set.reqAt {
		if f.seen&(1<<i) == 0 && len(d.problems) < maxProblems {
			d.missingAt = append(d.missingAt, len(d.problems))
			d.problemAt(d.Pos-1, set.names[i], "missing")
		}
	}
}

type dec struct {
	// The tokenizer: Data, Pos, Err and the readers of strings, numbers and literals.
	jsontext.Scanner
	text     string // Data as a string, for substrings
	problems []Problem
	// top is the frame of the innermost object or array being read, frames those of the
	// ones around it, nest the number of both: the readers of members and elements work on
	// top, which is fields of dec, not an element of a slice to find and check first.
	top    frame
	frames []frame
	nest   int
	set    *memberSet // memberSets[top.set], when top is an object's
	member int        // the index of the member just read in its object's memberSet, or -1
	keyAt  int        // offset of the member name just read
	// keys holds the unknown member names of the objects being read (see frame.keys), and
	// the name of each member being read whose name is not its object's.
	keys [][]byte
	slab slab
	// missingAt indexes the problems that are missing members.
	missingAt []int
	// Scratch lists, copied out at their exact length into blocks.
	lists       lists
	scratchInts []int
	inputs      []Input
	props       []Property
	outputs     []Output
	children    []Child
}

func (d *dec) syntax(format string, args ...any) { d.Failf(format, args...) }

// path formats the current path, with an optional member appended.
func (d *dec) path(member string) string {
	var b strings.Builder
	for i := range d.nest {
		f := d.frame(i)
		if f.arr {
			if f.idx < 0 {
				continue
			}
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(int(f.idx)))
			b.WriteByte(']')
			continue
		}
		if f.member == -1 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if f.member >= 0 {
			b.WriteString(memberSets[f.set].names[f.member])
		} else {
			b.Write(d.keys[f.key])
		}
	}
	if member != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(member)
	}
	return b.String()
}

// frame is the i'th frame from the outermost, i < d.nest.
func (d *dec) frame(i int) *frame {
	if i == len(d.frames) {
		return &d.top
	}
	return &d.frames[i]
}

// nodeIndex is the index of the node being read, or -1.
func (d *dec) nodeIndex() int {
	if d.nest >= 2 && d.frames[0].member == docNodes && d.frames[0].set == documentMembers.id && d.frame(1).arr {
		return int(d.frame(1).idx)
	}
	return -1
}

// problemAt records a problem at the current path (plus member) and offset.
func (d *dec) problemAt(off int, member string, format string, args ...any) {
	if len(d.problems) >= maxProblems {
		return
	}
	line, col := d.Position(off)
	d.problems = append(d.problems, Problem{Path: d.path(member), Node: d.nodeIndex(), Line: line, Column: col,
		Msg: fmt.Sprintf(format, args...)})
}

func (d *dec) problem(format string, args ...any) { d.problemAt(d.Pos, "", format, args...) }

// peek returns the next significant byte, or 0 at the end or after a syntax error.
func (d *dec) peek() byte { return d.Peek() }

var describe = jsontext.Describe

// begin starts an object (or array, with open '['), pushing a frame. It returns false, having
// skipped the value and recorded a problem, when the value is something else; with nullOK a
// null is skipped silently.
func (d *dec) begin(open byte, what string, nullOK bool) bool {
	if d.Err != nil {
		return false
	}
	c := d.peek()
	if c == open {
		d.Pos++
		if !d.Enter() {
			return false
		}
		if d.nest > 0 {
			d.frames = append(d.frames, d.top)
		}
		d.nest++
		d.top = frame{idx: -1, arr: open == '[', member: -1, keysFrom: int32(len(d.keys))}
		d.set = memberSets[0]
		return true
	}
	if c == 'n' && nullOK {
		d.Skip()
		return false
	}
	d.problem("want %s, found %s", what, describe(c))
	d.Skip()
	return false
}

func (d *dec) end() {
	d.keys = d.keys[:d.top.keysFrom]
	if d.nest--; d.nest > 0 {
		d.top = d.frames[len(d.frames)-1]
		d.frames = d.frames[:len(d.frames)-1]
		d.set = memberSets[d.top.set]
	}
	d.Leave()
}

// duplicate reports whether the object f already has an unknown member of the name
// d.keys[f.key], the last of d.keys, and notes it. Readers disagree on duplicate names
// (encoding/json and JSON.parse keep the last, a list read twice may be appended to), so a
// document with one is refused rather than read one way here and another in the browser.
func (d *dec) duplicate(f *frame) bool {
	key := d.keys[f.key]
	bit := keyBit(key)
	if f.keys&bit != 0 {
		for _, k := range d.keys[f.keysFrom:f.key] {
			if string(k) == string(key) {
				return true
			}
		}
	}
	f.keys |= bit
	return false
}

// keyBit is a member name's bit in frame.keys: its length, first and last bytes mixed.
func keyBit(b []byte) uint64 {
	if len(b) == 0 {
		return 1
	}
	return 1 << ((uint(len(b))*7 + uint(b[0]) + uint(b[len(b)-1])*13) & 63)
}

// nextKey reads the next member's key and colon, setting d.member; false at the end of the
// object.
func (d *dec) nextKey() bool {
	f := &d.top
	// The encoder writes a member as a comma (but before the first), the name quoted and a
	// colon, which this takes whole when the name is a first one of the set's; anything
	// else, white space and a second member of a name included, is read as below.
	if data, p := d.Data, d.Pos; d.Err == nil && p+9 <= len(data) {
		b := (*[9]byte)(data[p : p+9]) // one bounds check for all the loads below
		w := binary.LittleEndian.Uint64(b[:8])
		if b[0] == ',' && f.idx >= 0 {
			w, p = binary.LittleEndian.Uint64(b[1:]), p+1
		}
		if byte(w) == '"' && (p > d.Pos || f.idx < 0) {
			set := d.set
			e := &set.slot[nameKey(w)*set.mul>>58]
			if w&e.mask == e.head && f.seen&e.bit == 0 && (e.n <= 8 || set.quoted[e.index].tailAt(data, p)) {
				f.seen |= e.bit
				f.idx = 0
				f.member = int32(e.index)
				d.member = int(e.index)
				d.keyAt = p
				d.Pos = p + int(e.n)
				return true
			}
		}
	}
	if d.Err != nil {
		return false
	}
	c := d.peek()
	if c == '}' {
		d.Pos++
		if req := memberSets[f.set].req; f.seen&req != req {
			d.missing(f)
		}
		d.end()
		return false
	}
	if f.idx >= 0 {
		if c != ',' {
			d.syntax("want , or } after an object member, found %s", describe(c))
			return false
		}
		d.Pos++
		c = d.peek()
	}
	f.idx = 0
	if c != '"' {
		d.syntax("want a member name in double quotes, found %s", describe(c))
		return false
	}
	d.keyAt = d.Pos
	set := d.set
	// A name quoted and a colon after it is found whole; any other text (white space before
	// the colon, an escape, a name not the set's) is read as a string.
	i := set.find(d.Data, d.Pos)
	if i >= 0 {
		d.Pos += len(set.quoted[i].text)
	} else {
		f.member = -1 // a problem in the name itself is the object's
		key := d.memberName()
		f.key = int32(len(d.keys))
		d.keys = append(d.keys, key)
		f.member = keyed
		if d.peek() != ':' {
			d.syntax("want : after a member name")
			return false
		}
		d.Pos++
		if d.Err != nil {
			d.member = -1
			return true
		}
		i = slices.Index(set.names, string(key))
	}
	var dup bool
	if i >= 0 {
		f.member = int32(i)
		bit := uint64(1) << i
		dup = f.seen&bit != 0
		f.seen |= bit
	} else {
		dup = d.duplicate(f)
	}
	d.member = i
	if dup {
		d.problemAt(d.keyAt, "", "a second member of this name (member names must be unique)")
		d.Skip()
		return d.nextKey()
	}
	return true
}

// nextElem moves to the next array element; false at the end of the array.
func (d *dec) nextElem() bool {
	if d.Err != nil {
		return false
	}
	f := &d.top
	c := d.peek()
	if f.idx >= 0 {
		if c == ']' {
			d.Pos++
			d.end()
			return false
		}
		if c != ',' {
			d.syntax("want , or ] after an array element, found %s", describe(c))
			return false
		}
		d.Pos++
	} else if c == ']' {
		d.Pos++
		d.end()
		return false
	}
	f.idx++
	return true
}

// unknown records an unknown member and skips its value.
func (d *dec) unknown() {
	d.problemAt(d.keyAt, "", "unknown member")
	d.Skip()
}

// memberName reads a member name, d.Pos at its quote. The document's names are a few ASCII
// letters: see plainString.
func (d *dec) memberName() []byte {
	if end, ok := d.plainString(); ok {
		v := d.Data[d.Pos+1 : end]
		d.Pos = end + 1
		return v
	}
	return d.rawString()
}

// plainString returns where the string at d.Pos (its opening quote) ends, when it is all
// printable ASCII without escapes, as member names, types and most names in a document are.
// Such a string is found eight bytes at a time, with none of the string reader's setup;
// anything else (an escape, a control character, a byte of a longer UTF-8 character, no
// closing quote, fewer than eight bytes left) is left to the string reader, which reads and
// checks it as any string.
func (d *dec) plainString() (end int, ok bool) {
	data := d.Data
	for i := d.Pos + 1; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i : i+8])
		// The lowest byte marked is the first that is special in a string or not ASCII.
		if m := jsontext.StringSpecial(w) | w&0x8080808080808080; m != 0 {
			end = i + bits.TrailingZeros64(m)/8
			return end, data[end] == '"' && d.Err == nil
		}
	}
	return 0, false
}

// rawString reads a string and returns its bytes: a slice of the input when it has no
// escapes (valid until the input changes), a new slice otherwise.
func (d *dec) rawString() []byte {
	v, _ := d.String(nil)
	return v
}

// Scalars. Each records a problem (at the current member) and skips the value when it is of
// another kind.

func (d *dec) str() string {
	if p := d.Pos; p < len(d.Data) && d.Data[p] == '"' {
		if end, ok := d.plainString(); ok {
			d.Pos = end + 1
			return d.text[p+1 : end]
		}
	}
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return ""
	}
	return d.stringValue()
}

// stringValue reads the string at d.Pos as a Go string: a substring of d.text, which costs
// nothing, unless it has escapes. Escapes always make the read bytes shorter than the
// text they came from, which tells the two apart.
func (d *dec) stringValue() string {
	if end, ok := d.plainString(); ok {
		v := d.text[d.Pos+1 : end]
		d.Pos = end + 1
		return v
	}
	return d.Text(d.text)
}

func (d *dec) boolean() bool {
	switch d.peek() {
	case 't':
		d.Literal("true")
		return true
	case 'f':
		d.Literal("false")
		return false
	}
	d.problem("want true or false, found %s", describe(d.peek()))
	d.Skip()
	return false
}

// integer reads an integer in [lo, hi].
func (d *dec) integer(lo, hi int64) int64 {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
	at := d.Pos
	v, ok := d.shortInt()
	t := d.Data[at:d.Pos]
	if !ok {
		t = d.Number()
		if d.Err != nil {
			return 0
		}
		v, ok = parseInt(t)
	}
	if !ok {
		d.problemAt(at, "", "want an integer, found %s", t)
		return 0
	}
	if v < lo || v > hi {
		d.problemAt(at, "", "%s is out of range (%d to %d)", t, lo, hi)
		return 0
	}
	return v
}

var parseInt = jsontext.ParseInt

// shortInt reads a number of at most nine digits, with or without a minus sign and with no
// fraction or exponent, as most of a document's are (ids, indices, positions): one pass
// over its digits where Number's checks and ParseInt's second pass cost 150 instructions.
// Anything else, "-0" (a float's sign) and "01" (a syntax error) included, is left to
// them, and d.Pos is left where it was.
func (d *dec) shortInt() (int64, bool) {
	data, i := d.Data, d.Pos
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for i < len(data) && i-start < 10 && data[i]-'0' <= 9 {
		v = v*10 + int64(data[i]-'0')
		i++
	}
	n := i - start
	if n == 0 || n == 10 || n > 1 && data[start] == '0' || neg && v == 0 {
		return 0, false
	}
	if i < len(data) && (data[i] == '.' || data[i]|0x20 == 'e') {
		return 0, false
	}
	d.Pos = i
	if neg {
		v = -v
	}
	return v, true
}

func (d *dec) int32() int { return int(d.integer(math.MinInt32, math.MaxInt32)) }
func (d *dec) index() int { return int(d.integer(0, math.MaxInt32)) }

// ref reads a node id a child, jump or replacement refers to. Files may hold numbers there
// that name no node, negative ones too; the build reports them.
func (d *dec) ref() int       { return int(d.integer(math.MinInt32, math.MaxInt32)) }
func (d *dec) uint32() uint32 { return uint32(d.integer(0, math.MaxUint32)) }
func (d *dec) optIndex() *int { return d.optInt(0, math.MaxInt32) }
func (d *dec) optInt32() *int { return d.optInt(math.MinInt32, math.MaxInt32) }
func (d *dec) optBool() *bool {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	return d.slab.bool(d.boolean())
}

func (d *dec) optInt(lo, hi int64) *int {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	return d.slab.int(int(d.integer(lo, hi)))
}

// float reads a float32: a number, or the string of its bits.
func (d *dec) float() Float {
	switch c := d.peek(); {
	case c == '"':
		at := d.Pos
		s := d.rawString()
		if f, ok := floatBits(s); ok {
			return f
		}
		d.problemAt(at, "", "want a number or the bits of a float as \"0x7fc00000\", found %q", s)
		return 0
	case c == '-' || c >= '0' && c <= '9':
		at := d.Pos
		t := d.Number()
		if d.Err != nil {
			return 0
		}
		if v, ok := wholeNumber(t); ok {
			return Float(v) // one rounding, as ParseFloat's
		}
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(t), len(t)), 32)
		if err != nil {
			d.problemAt(at, "", "%s is out of the float range (32 bits)", t)
			return 0
		}
		return Float(f)
	default:
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
}

// wholeNumber reads a number of at most 15 digits and no fraction or exponent, the usual
// coordinate and value, exactly (float64 holds it exactly, so converting it rounds once, as
// ParseFloat would) without ParseFloat's general path. "-0" is left to ParseFloat, for its
// sign.
func wholeNumber(t []byte) (int64, bool) {
	if len(t) > 16 || len(t) == 16 && t[0] != '-' {
		return 0, false
	}
	v, ok := parseInt(t)
	return v, ok && (v != 0 || t[0] != '-')
}

func floatBits(s []byte) (Float, bool) {
	if len(s) < 3 || len(s) > 10 || s[0] != '0' || s[1] != 'x' && s[1] != 'X' {
		return 0, false
	}
	var v uint32
	for _, c := range s[2:] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint32(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint32(c-'A'+10)
		default:
			return 0, false
		}
	}
	return Float(math.Float32frombits(v)), true
}

func (d *dec) optFloat() *Float {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	f := d.float()
	return &f
}

func (d *dec) guid() (g ainb.GUID) {
	at := d.Pos
	// A GUID's text is hex digits and dashes, nothing a string escapes: when the 36 bytes
	// after a quote read as one and a quote follows, they are the whole string.
	var h ainb.GUID
	if t := d.Data; at+37 < len(t) && t[at] == '"' && t[at+37] == '"' && d.Err == nil && parseGUID(t[at+1:at+37], &h) {
		d.Pos = at + 38
		return h
	}
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return g
	}
	s := d.rawString()
	if d.Err == nil && !parseGUID(s, &g) {
		d.problemAt(at, "", "want a GUID like \"01234567-89ab-cdef-0123-456789abcdef\", found %q", s)
	}
	return g
}

// parseGUID reads the form appendGUID writes: the first three groups are little-endian
// integers, the last two plain bytes.
func parseGUID(s []byte, g *ainb.GUID) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	bad := byte(0)
	for i, a := range guidDigits {
		hi, lo := hexDigit[s[a]], hexDigit[s[a+1]]
		bad |= hi | lo
		g[i] = hi<<4 | lo
	}
	return bad&0xf0 == 0
}

// guidDigits is where in a GUID's text the two digits of each of its bytes are: the first
// three groups are little-endian integers, the last two plain bytes (appendGUID writes it,
// parseGUID reads it).
var guidDigits = [16]int{6, 4, 2, 0, 11, 9, 16, 14, 19, 21, 24, 26, 28, 30, 32, 34}

// hexDigit is the value of each hex digit, 0xff for other bytes: one load per digit.
var hexDigit = func() (t [256]byte) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9':
			t[c] = byte(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// enum reads a string that is usually one of a few names, returning the name itself then
// (so the document holds no substrings of the text for them).
func (d *dec) enum(names []string) string {
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return ""
	}
	s := d.stringValue()
	for _, n := range names {
		if s == n {
			return n
		}
	}
	return s
}

var valueTypeNames = []string{"int", "bool", "float", "string", "vec3f", "pointer", "u32"}

func (d *dec) uints(out []uint32) {
	if !d.begin('[', "an array", false) {
		return
	}
	i := 0
	for d.nextElem() {
		v := d.uint32()
		if i < len(out) {
			out[i] = v
		}
		i++
	}
	if i != len(out) {
		d.problem("want %d numbers, found %d", len(out), i)
	}
}

func (d *dec) ints() []int {
	if !d.begin('[', "an array", true) {
		return nil
	}
	d.scratchInts = d.scratchInts[:0]
	for d.nextElem() {
		d.scratchInts = append(d.scratchInts, d.index())
	}
	return d.lists.copyInts(d.scratchInts)
}

// A value whose type may come after it in its object is held as read, then converted.

type jscalar struct {
	kind byte // 'n' number, 's' string, 'b' bool, 'z' null, 'a' array
	at   int
	num  []byte
	str  string
	b    bool
}

type jvalue struct {
	set bool
	jscalar
	elems [3]jscalar
	n     int
}

func (d *dec) scalar(s *jscalar) {
	s.at = d.Pos
	switch c := d.peek(); {
	case c == '"':
		s.kind = 's'
		s.str = d.stringValue()
	case c == 't' || c == 'f':
		s.kind = 'b'
		s.b = d.boolean()
	case c == 'n':
		s.kind = 'z'
		d.Skip()
	case c == '-' || c >= '0' && c <= '9':
		s.kind = 'n'
		s.num = d.Number()
	case c == '[' || c == '{':
		s.kind = 'a'
		d.Skip()
	default:
		d.Skip()
	}
}

func (d *dec) rawValue(v *jvalue) {
	v.set = true
	if d.peek() != '[' {
		d.scalar(&v.jscalar)
		return
	}
	v.kind = 'a'
	v.at = d.Pos
	if !d.begin('[', "an array", false) {
		return
	}
	for d.nextElem() {
		if v.n < 3 {
			d.scalar(&v.elems[v.n])
		} else {
			d.Skip()
		}
		v.n++
	}
}

// floatOf converts a held scalar to a float.
func (d *dec) floatOf(s *jscalar, member string) Float {
	switch s.kind {
	case 'n':
		if v, ok := wholeNumber(s.num); ok {
			return Float(v)
		}
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(s.num), len(s.num)), 32)
		if err != nil {
			d.problemAt(s.at, member, "%s is out of the float range (32 bits)", s.num)
			return 0
		}
		return Float(f)
	case 's':
		if f, ok := floatBits([]byte(s.str)); ok {
			return f
		}
		d.problemAt(s.at, member, "want a number or the bits of a float as \"0x7fc00000\", found %q", s.str)
		return 0
	}
	d.problemAt(s.at, member, "want a number")
	return 0
}

var kindNames = map[byte]string{'n': "a number", 's': "a string", 'b': "a boolean", 'z': "null", 'a': "an array or object"}

// value converts a held value to the given type. Unknown types are reported elsewhere.
func (d *dec) value(t ValueType, v *jvalue, out *Value) {
	if !v.set {
		return
	}
	const m = "value"
	want := func(what string) {
		d.problemAt(v.at, m, "want %s (type %s), found %s", what, t, kindNames[v.kind])
	}
	switch t {
	case "int", "u32":
		if v.kind != 'n' {
			want("an integer")
			return
		}
		n, ok := parseInt(v.num)
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if t == "u32" {
			lo, hi = 0, math.MaxUint32
		}
		switch {
		case !ok:
			d.problemAt(v.at, m, "want an integer, found %s", v.num)
		case n < lo || n > hi:
			d.problemAt(v.at, m, "%s is out of the %s range (%d to %d)", v.num, t, lo, hi)
		default:
			out.Int = n
		}
	case "bool":
		if v.kind != 'b' {
			want("true or false")
			return
		}
		if v.b {
			out.Int = 1
		}
	case "float":
		if v.kind != 'n' && v.kind != 's' {
			want("a number")
			return
		}
		out.Float = d.floatOf(&v.jscalar, m)
	case "string":
		if v.kind != 's' {
			want("a string")
			return
		}
		out.String = v.str
	case "vec3f":
		if v.kind != 'a' || v.n != 3 {
			want("an array of three numbers")
			return
		}
		for i := range 3 {
			out.Vec[i] = d.floatOf(&v.elems[i], m)
		}
	case "pointer":
		if v.kind != 'z' {
			want("null")
		}
	}
}

// Objects.

func (d *dec) document(doc *Document) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(documentMembers)
	for d.nextKey() {
		switch d.member {
		case docFormat:
			doc.Format = d.str()
		case docName:
			doc.Name = d.str()
		case docVersion:
			doc.Version = d.uint32()
		case docFilename:
			doc.Filename = d.str()
		case docCategory:
			doc.Category = d.str()
		case docCommands:
			doc.Commands = []Command{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Commands = append(doc.Commands, Command{})
					d.command(&doc.Commands[len(doc.Commands)-1])
				}
			}
		case docNodes:
			doc.Nodes = []Node{}
			if d.begin('[', "an array", false) {
				doc.Nodes = make([]Node, 0, nodeCountHint(d.Data[d.Pos:]))
				for d.nextElem() {
					doc.Nodes = append(doc.Nodes, Node{})
					d.node(&doc.Nodes[len(doc.Nodes)-1])
				}
			}
		case docAttachments:
			doc.Attachments = []Attachment{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Attachments = append(doc.Attachments, Attachment{})
					d.attachment(&doc.Attachments[len(doc.Attachments)-1])
				}
			}
		case docBlackboard:
			doc.Blackboard = []BlackboardParam{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Blackboard = append(doc.Blackboard, BlackboardParam{})
					d.blackboardParam(&doc.Blackboard[len(doc.Blackboard)-1])
				}
			}
		case docExpressions:
			doc.Expressions = nil
			if d.begin('{', "an object or null", true) {
				d.expect(expressionsMembers)
				x := &Expressions{Functions: []Function{}}
				doc.Expressions = x
				for d.nextKey() {
					switch d.member {
					case exprVersion:
						x.Version = d.uint32()
					case exprFunctions:
						if d.begin('[', "an array", false) {
							for d.nextElem() {
								var fn Function
								if d.begin('{', "an object", false) {
									d.expect(functionMembers)
									for d.nextKey() {
										switch d.member {
										case fnText:
											fn.Text = d.str()
										case fnParsedText:
											t := d.str()
											fn.ParsedText = &t
										default:
											d.unknown()
										}
									}
								}
								x.Functions = append(x.Functions, fn)
								x.checked = append(x.checked, fn) // the decoder checks every string is UTF-8
							}
						}
					default:
						d.unknown()
					}
				}
			}
		case docModules:
			doc.Modules = []Module{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					var m Module
					if d.begin('{', "an object", false) {
						d.expect(moduleMembers)
						for d.nextKey() {
							switch d.member {
							case modPath:
								m.Path = d.str()
							case modCategory:
								m.Category = d.str()
							case modInstances:
								m.Instances = d.uint32()
							default:
								d.unknown()
							}
						}
					}
					doc.Modules = append(doc.Modules, m)
				}
			}
		case docModuleCall:
			if d.begin('{', "an object", false) {
				d.expect(moduleCallMembers)
				for d.nextKey() {
					switch d.member {
					case callBlackboardID:
						doc.ModuleCall.BlackboardID = d.uint32()
					case callParentBlackboardID:
						doc.ModuleCall.ParentBlackboardID = d.uint32()
					default:
						d.unknown()
					}
				}
			}
		case docReplacements:
			doc.Replacements = nil
			if d.begin('[', "an array or null", true) {
				doc.Replacements = []Replacement{}
				for d.nextElem() {
					var r Replacement
					if d.begin('{', "an object", false) {
						d.expect(replacementMembers)
						for d.nextKey() {
							switch d.member {
							case replType:
								r.Type = d.enum(replacementNames[:])
							case replNode:
								r.Node = d.ref()
							case replIndex:
								r.Index = d.int32()
							case replNew:
								r.New = d.optIndex()
							default:
								d.unknown()
							}
						}
					}
					doc.Replacements = append(doc.Replacements, r)
				}
			}
		case docEnumRelocations:
			doc.EnumRelocations = []EnumRelocation{}
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var r EnumRelocation
					if d.begin('{', "an object", false) {
						d.expect(enumRelocationMembers)
						for d.nextKey() {
							switch d.member {
							case relocClassName:
								r.ClassName = d.str()
							case relocValueName:
								r.ValueName = d.str()
							case relocTarget:
								if d.begin('{', "an object or null", true) {
									d.expect(targetMembers)
									t := &ValueTarget{}
									r.Target = t
									for d.nextKey() {
										switch d.member {
										case targetNode:
											t.Node = d.optIndex()
										case targetAttachment:
											t.Attachment = d.optIndex()
										case targetProperty:
											t.Property = d.optIndex()
										case targetInput:
											t.Input = d.optIndex()
										default:
											d.unknown()
										}
									}
								}
							default:
								d.unknown()
							}
						}
					}
					doc.EnumRelocations = append(doc.EnumRelocations, r)
				}
			}
		case docSection58:
			doc.Section58 = nil
			if d.begin('{', "an object or null", true) {
				d.expect(section58Members)
				s := &Section58{}
				doc.Section58 = s
				for d.nextKey() {
					switch d.member {
					case s58Description:
						s.Description = d.str()
					case s58Unknown:
						d.uints(s.Unknown[:])
					default:
						d.unknown()
					}
				}
			}
		case docHasSection6C:
			doc.HasSection6C = d.boolean()
		case docLayout:
			doc.Layout = d.str()
		default:
			d.unknown()
		}
	}
}

// nodeCountHint guesses how many nodes a document has, to size Nodes once: the encoder and
// the browser start every node with {"id":, which a string cannot hold unescaped. JSON
// written otherwise gets a guess from its size (220 to 1,000 bytes a node in the corpus).
// The count goes from one brace to the next with IndexByte: bytes.Count, restarting its
// search at each of hundreds of matches, was 3% of a build.
func nodeCountHint(rest []byte) int {
	size, n := len(rest), 0
	for {
		i := bytes.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if len(rest) >= 5 && string(rest[:5]) == `"id":` {
			n++
		}
	}
	if n > 0 {
		return n
	}
	return size / 400
}

func (d *dec) command(c *Command) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(commandMembers)
	c.Secondary = -1
	for d.nextKey() {
		switch d.member {
		case cmdName:
			c.Name = d.str()
		case cmdGUID:
			c.GUID = d.guid()
		case cmdRoot:
			c.Root = d.index()
		case cmdSecondary:
			c.Secondary = int(d.integer(-1, math.MaxInt32))
		default:
			d.unknown()
		}
	}
}

func (d *dec) coord() float64 {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
	at := d.Pos
	if v, ok := d.shortInt(); ok {
		return float64(v) // nine digits lie within MaxCoord
	}
	t := d.Number()
	if d.Err != nil {
		return 0
	}
	f, err := 0.0, error(nil)
	if v, ok := wholeNumber(t); ok {
		f = float64(v)
	} else {
		f, err = strconv.ParseFloat(unsafe.String(unsafe.SliceData(t), len(t)), 64)
	}
	if err != nil || math.Abs(f) > MaxCoord {
		d.problemAt(at, "", "%s is out of range (positions lie within ±1e9)", t)
		return 0
	}
	return f
}

func (d *dec) node(n *Node) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(nodeMembers)
	for d.nextKey() {
		switch d.member {
		case nodeID:
			n.ID = d.index()
		case nodeType:
			// Node types are many names; a substring of the text costs nothing either.
			n.Type = NodeType(d.str())
		case nodeName:
			n.Name = d.str()
		case nodeGUID:
			n.GUID = d.guid()
		case nodeQuery:
			n.Query = d.boolean()
		case nodeModuleCaller:
			n.ModuleCaller = d.boolean()
		case nodeResidentInit:
			n.ResidentInit = d.boolean()
		case nodeMultiParamV2:
			n.MultiParamV2 = d.boolean()
		case nodeX:
			n.X = d.coord()
		case nodeY:
			n.Y = d.coord()
		case nodePinned:
			n.Pinned = d.boolean()
		case nodeProperties:
			n.Properties = d.properties()
		case nodeInputs:
			if d.begin('[', "an array", true) {
				d.inputs = d.inputs[:0]
				for d.nextElem() {
					d.inputs = append(d.inputs, Input{})
					d.input(&d.inputs[len(d.inputs)-1])
				}
				n.Inputs = chunk.Clone(&d.lists.inputs, d.inputs)
				clear(d.inputs)
			}
		case nodeOutputs:
			if d.begin('[', "an array", true) {
				d.outputs = d.outputs[:0]
				for d.nextElem() {
					var o Output
					if d.begin('{', "an object", false) {
						d.expect(outputMembers)
						for d.nextKey() {
							switch d.member {
							case outName:
								o.Name = d.str()
							case outType:
								o.Type = ValueType(d.enum(valueTypeNames))
							case outClassName:
								o.ClassName = d.str()
							case outConnected:
								o.Connected = d.boolean()
							default:
								d.unknown()
							}
						}
					}
					d.outputs = append(d.outputs, o)
				}
				n.Outputs = chunk.Clone(&d.lists.outputs, d.outputs)
			}
		case nodeChildren:
			if d.begin('[', "an array", true) {
				d.children = d.children[:0]
				for d.nextElem() {
					d.children = append(d.children, Child{})
					d.child(&d.children[len(d.children)-1])
				}
				n.Children = chunk.Clone(&d.lists.children, d.children)
			}
		case nodeJumps:
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var j Jump
					if d.begin('{', "an object", false) {
						d.expect(jumpMembers)
						for d.nextKey() {
							switch d.member {
							case jumpNode:
								j.Node = d.ref()
							case jumpType:
								j.Type = int(d.integer(0, 255))
							case jumpCommand:
								j.Command = d.str()
							case jumpPostCalc:
								j.PostCalc = d.boolean()
							default:
								d.unknown()
							}
						}
					}
					n.Jumps = append(n.Jumps, j)
				}
			}
		case nodeQueries:
			n.Queries = d.ints()
		case nodeAttachments:
			n.Attachments = d.ints()
		case nodeActions:
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var a Action
					if d.begin('{', "an object", false) {
						d.expect(actionMembers)
						for d.nextKey() {
							switch d.member {
							case actSlot:
								a.Slot = d.str()
							case actAction:
								a.Action = d.str()
							default:
								d.unknown()
							}
						}
					}
					n.Actions = append(n.Actions, a)
				}
			}
		case nodeStateInfo:
			if d.begin('{', "an object or null", true) {
				d.expect(stateInfoMembers)
				s := &StateInfo{}
				n.StateInfo = s
				for d.nextKey() {
					switch d.member {
					case stateDesiredState:
						s.DesiredState = d.str()
					case stateUnknown:
						d.uints(s.Unknown[:])
					default:
						d.unknown()
					}
				}
			}
		default:
			d.unknown()
		}
	}
}

func (d *dec) properties() []Property {
	if !d.begin('[', "an array", true) {
		return nil
	}
	d.props = d.props[:0]
	for d.nextElem() {
		var p Property
		var v jvalue
		if d.begin('{', "an object", false) {
			d.expect(propertyMembers)
			for d.nextKey() {
				switch d.member {
				case parName:
					p.Name = d.str()
				case parType:
					p.Type = ValueType(d.enum(valueTypeNames))
				case parClassName:
					p.ClassName = d.str()
				case parValue:
					d.rawValue(&v)
				case parSource:
					p.Source = d.source(true)
				case propIsOutput:
					p.IsOutput = d.boolean()
				case propUsesDefault:
					p.UsesDefault = d.optBool()
				default:
					d.unknown()
				}
			}
			// The object's frame is gone; the array element's is on top again.
			d.value(p.Type, &v, &p.Value)
		}
		d.props = append(d.props, p)
	}
	out := chunk.Clone(&d.lists.props, d.props)
	clear(d.props)
	return out
}

func (d *dec) input(in *Input) {
	var v jvalue
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(inputMembers)
	for d.nextKey() {
		switch d.member {
		case parName:
			in.Name = d.str()
		case parType:
			in.Type = ValueType(d.enum(valueTypeNames))
		case parClassName:
			in.ClassName = d.str()
		case parValue:
			d.rawValue(&v)
		case parSource:
			in.Source = d.source(true)
		case inSources:
			if d.begin('[', "an array", true) {
				in.Sources = []Source{}
				for d.nextElem() {
					var s Source
					if p := d.source(false); p != nil {
						s = *p
					}
					in.Sources = append(in.Sources, s)
				}
			}
		case inSetBlackboard:
			in.SetBlackboard = d.boolean()
		case inIsOutput:
			in.IsOutput = d.boolean()
		case inUsesDefault:
			in.UsesDefault = d.optBool()
		default:
			d.unknown()
		}
	}
	// The object's frame is gone; the array element's frame is on top again.
	d.value(in.Type, &v, &in.Value)
}

func (d *dec) source(nullOK bool) *Source {
	if !d.begin('{', "an object", nullOK) {
		return nil
	}
	d.expect(sourceMembers)
	s := d.lists.sources.New()
	for d.nextKey() {
		switch d.member {
		case srcNode:
			s.Node = d.optIndex()
		case srcOutput:
			s.Output = d.index()
		case srcMissingOutput:
			s.MissingOutput = d.optIndex()
		case srcBlackboard:
			s.Blackboard = d.optIndex()
		case srcComponent:
			s.Component = d.str()
		case srcExpression:
			s.Expression = d.optIndex()
		case srcIsOutput:
			s.IsOutput = d.boolean()
		case srcUsesDefault:
			s.UsesDefault = d.optBool()
		default:
			d.unknown()
		}
	}
	return s
}

func (d *dec) child(c *Child) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(childMembers)
	for d.nextKey() {
		switch d.member {
		case childTarget:
			if d.peek() == 'n' {
				d.Skip()
				c.Node = NoNode
			} else {
				c.Node = d.ref()
			}
		case childLabel:
			c.Name = d.str()
		case childCond:
			if d.begin('{', "an object or null", true) {
				d.expect(conditionMembers)
				k := d.lists.conds.New()
				c.Condition = k
				for d.nextKey() {
					switch d.member {
					case condInt:
						if p := d.optInt32(); p != nil {
							v := int32(*p)
							k.Int = &v
						}
					case condString:
						if d.peek() == 'n' {
							d.Skip()
						} else {
							s := d.str()
							k.String = &s
						}
					case condWeight:
						k.Weight = d.optFloat()
					case condMin:
						k.Min = d.optFloat()
					case condMax:
						k.Max = d.optFloat()
					case condBlackboard:
						k.Blackboard = d.optIndex()
					case condMinBlackboard:
						k.MinBlackboard = d.optIndex()
					case condMaxBlackboard:
						k.MaxBlackboard = d.optIndex()
					default:
						d.unknown()
					}
				}
			}
		default:
			d.unknown()
		}
	}
}

func (d *dec) attachment(a *Attachment) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(attachmentMembers)
	for d.nextKey() {
		switch d.member {
		case attName:
			a.Name = d.str()
		case attDebug:
			a.Debug = d.uint32()
		case attProperties:
			a.Properties = d.properties()
		default:
			d.unknown()
		}
	}
}

func (d *dec) blackboardParam(p *BlackboardParam) {
	var v jvalue
	if !d.begin('{', "an object", false) {
		return
	}
	d.expect(blackboardParamMembers)
	for d.nextKey() {
		switch d.member {
		case bbName:
			p.Name = d.str()
		case bbType:
			p.Type = ValueType(d.enum(valueTypeNames))
		case bbNotes:
			p.Notes = d.str()
		case bbInherit:
			p.Inherit = d.enum(inheritNames[:])
		case bbFile:
			p.File = d.str()
		case bbValue:
			d.rawValue(&v)
		default:
			d.unknown()
		}
	}
	d.value(p.Type, &v, &p.Value)
}
