package ainb

import (
	"iter"
	"slices"
)

// Counts the writer derives from the model, declared once for the writer, which writes them,
// and the reader, which records a Kept where a file stored something else. Each says what the
// game's own files were measured to store (TestGameFieldDerivation reports the agreement).

// Links is the u16 at element entry 0x1C (0x18 in 0x404 files) for each element: the sources
// of the element's multi-inputs, plus, for an element that more than one child plug points
// at and that the game builds once (ResidentInit) or that stands for a module caller's child
// (Element_ModuleIF_Child), the number of those child plugs. The game's runtime connects
// each of them; an element with one parent needs no count. The reference writer counts only
// the multi-input sources.
func (f *File) Links() []uint32 {
	links, _, _, _ := f.derivedCounts()
	return links
}

// expressionUse is what an element's or attachment's expressions take: how many it uses and
// the bytes of memory reserved for them.
type expressionUse struct {
	count, size int
}

// derivedCounts derives, in one pass over the elements, each element's Links and the
// expressions its properties and input sources use with the memory reserved for them
// (element entry 0x18 and 0x1A), the same for each attachment (entry 0x08 and 0x0A), and the
// uses in the whole file (the expression binary's instance count). An element reserves the
// size of each expression's output type: what every one of the game's elements stores (the
// reference writer counts the input and output memory the instructions touch, which differs
// where an input is wider than the output). An attachment reserves what the instructions
// touch, as the reference writer has it: no game file has an attachment with expressions to
// tell. One pass, because the reader derives all of them for every file it reads.
func (f *File) derivedCounts() (links []uint32, elements, attachments []expressionUse, instances int) {
	var io, out []int
	if m := f.Expressions; m != nil {
		out = make([]int, len(m.Functions))
		for i := range out {
			out[i] = int(m.Functions[i].Output.Size())
		}
	}
	use := func(u *expressionUse, fl ParamFlags, sizes []int) {
		if !fl.IsExpression() {
			return
		}
		instances++
		u.count++
		if i := fl.Index(); i < len(sizes) {
			u.size += sizes[i]
		}
	}
	n := len(f.Elements)
	links = make([]uint32, 2*n)
	links, parents := links[:n:n], links[n:]
	elements = make([]expressionUse, n)
	for i := range f.Elements {
		el, u := &f.Elements[i], &elements[i]
		for _, p := range el.Plugs.Of(PlugChild) {
			if p.Node >= 0 && int(p.Node) < n {
				parents[p.Node]++
			}
		}
		for t := range NumParamTypes {
			for _, pr := range el.Properties.Of(t) {
				use(u, pr.Flags, out)
			}
			for _, in := range el.Inputs.Of(t) {
				if in.IsMulti() {
					links[i] += uint32(len(in.Sources))
					for _, src := range in.Sources {
						use(u, src.Flags, out)
					}
					continue
				}
				use(u, in.Source.Flags, out)
			}
		}
	}
	for i := range f.Elements {
		if el := &f.Elements[i]; parents[i] > 1 && (el.Flags&FlagResidentInit != 0 || el.Type == ModuleIFChild) {
			links[i] += parents[i]
		}
	}
	attachments = make([]expressionUse, len(f.Attachments))
	for i := range f.Attachments {
		for t := range NumParamTypes {
			for _, pr := range f.Attachments[i].Properties.Of(t) {
				if io == nil && pr.Flags.IsExpression() {
					// What the instructions touch takes decoding every function: only when
					// an attachment needs it.
					io = expressionIOSizes(f.Expressions)
				}
				use(&attachments[i], pr.Flags, io)
			}
		}
	}
	return links, elements, attachments, instances
}

// QueryCount is the header's count at 0x14: the number of query elements.
func (f *File) QueryCount() uint32 {
	n := uint32(0)
	for i := range f.Elements {
		if f.Elements[i].Flags&FlagQuery != 0 {
			n++
		}
	}
	return n
}

// ModuleOutputCount is the header's count at 0x1C: the number of module output elements.
func (f *File) ModuleOutputCount() uint32 {
	n := uint32(0)
	for i := range f.Elements {
		if f.Elements[i].Type.isModuleOutput() {
			n++
		}
	}
	return n
}

// ReplacedCounts are the replacement table's counts of elements and attachments once its
// entries apply, each an int16 stored as a u16, or -1 when none goes: the elements a release
// build drops are the alerts (debug elements) and the children the entries remove or replace,
// each counted once; the attachments, those the entries remove. This is what 503 of the 511
// game files with a table store (the rest are kept, Layout.ReplacedElements); the reference
// writer subtracts one per removal and two per replacement instead.
func (f *File) ReplacedCounts() (elements, attachments uint32) {
	gone := make(map[int]bool)
	for i := range f.Elements {
		if f.Elements[i].Type == Alert {
			gone[i] = true
		}
	}
	goneAtt := make(map[int16]bool)
	if t := f.Replacement; t != nil {
		for _, r := range t.Entries {
			if r.Type == RemoveAttachment {
				goneAtt[r.Index] = true
				continue
			}
			if r.Element < 0 || int(r.Element) >= len(f.Elements) {
				continue
			}
			if ch := f.Elements[r.Element].Plugs.Of(PlugChild); r.Index >= 0 && int(r.Index) < len(ch) {
				gone[int(ch[r.Index].Node)] = true
			}
		}
	}
	count := func(total, gone int) uint32 {
		if gone == 0 {
			return 0xffff
		}
		return uint32(uint16(int16(total - gone)))
	}
	return count(len(f.Elements), len(gone)), count(len(f.Attachments), len(goneAtt))
}

// keptCounts records, after a read, every count the file stored otherwise than derived.
// links, exprSize and hashes are the element entries' fields as stored (hashes nil before
// 0x407).
func (f *File) keptCounts(links, exprSize, hashes []uint32, queries, outputs, replElements, replAttachments uint32) {
	l := f.Layout
	l.Queries = Keep(f.QueryCount(), queries)
	l.ModuleOutputs = Keep(f.ModuleOutputCount(), outputs)
	if f.Replacement != nil {
		e, a := f.ReplacedCounts()
		l.ReplacedElements, l.ReplacedAttachments = Keep(e, replElements), Keep(a, replAttachments)
	}
	derived, uses, _, instances := f.derivedCounts()
	if f.Expressions != nil {
		l.ExpressionInstances = Keep(uint32(instances), f.Expressions.Header.InstanceCount)
	}
	hash := func(i int) Kept {
		if hashes == nil {
			return Kept{}
		}
		return Keep(Hash(f.Elements[i].Name), hashes[i])
	}
	n := 0
	for i := range f.Elements {
		if derived[i] != links[i] || uint32(uses[i].size) != exprSize[i] || hash(i) != (Kept{}) {
			n++
		}
	}
	if n == 0 {
		return
	}
	kept := make([]ElementKept, 0, n) // one block for all, not one allocation per element
	for i := range f.Elements {
		k := ElementKept{Links: Keep(derived[i], links[i]), ExpressionIOSize: Keep(uint32(uses[i].size), exprSize[i]), NameHash: hash(i)}
		if k != (ElementKept{}) {
			kept = append(kept, k)
			f.Elements[i].Kept = &kept[len(kept)-1]
		}
	}
}

// multiInputs yields the sources of every multi-input in the order the multi-input array
// lists them before equal windows are shared: by param type, then element, as the game lists
// them, or element by element (the reference writer's order, Layout.MultiByElement).
func (f *File) multiInputs(byElement bool) iter.Seq[[]Source] {
	return func(yield func([]Source) bool) {
		each := func(i int, t ParamType) bool {
			for _, in := range f.Elements[i].Inputs.Of(t) {
				if !yield(in.Sources) {
					return false
				}
			}
			return true
		}
		if byElement {
			for i := range f.Elements {
				for t := range NumParamTypes {
					if !each(i, t) {
						return
					}
				}
			}
			return
		}
		for t := range NumParamTypes {
			for i := range f.Elements {
				if !each(i, t) {
					return
				}
			}
		}
	}
}

// multiSourcesAre reports whether want is multiSources(byElement), without building it.
func (f *File) multiSourcesAre(byElement bool, want []Source) bool {
	k := 0
	for srcs := range f.multiInputs(byElement) {
		if k+len(srcs) > len(want) || !slices.Equal(want[k:k+len(srcs)], srcs) {
			return false
		}
		k += len(srcs)
	}
	return k == len(want)
}

// multiSources is the multi-input array before equal windows are shared (multiInputs).
func (f *File) multiSources(byElement bool) []Source {
	var out []Source
	for srcs := range f.multiInputs(byElement) {
		out = append(out, srcs...)
	}
	return out
}
