package diff

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// Merge combines ours and theirs, two edited versions of base, in three ways at each place
// Diff knows: a place one side changed takes that side's value, a place both changed alike
// takes it once, and a place both changed differently is a conflict with its path and the
// three values (in the merged numbering: base's node ids and indices). Nodes added on either
// side come along with their links, after base's nodes (ours', then theirs'); a node one side
// removed goes unless the other side changed it, which is a conflict. Kept, it keeps the links
// the removing side dropped with it where that side did nothing else (see relink).
//
// The order of a node's properties, inputs and outputs is a place of its own (the file keeps
// it), so a side that reorders them and a side that edits one combine.
//
// With conflicts and no preference, Merge returns no document and the conflicts. With
// prefer set to change.Ours or change.Theirs, every conflict takes that side's value, and
// the conflicts it settled are returned beside the document so the caller can say so. The
// merged document keeps base's name and layout facts. An error says the merged document
// links to a node the other side removed, or does not build (ToFile's problems).
func Merge(base, ours, theirs *graph.Document, prefer change.Prefer) (*graph.Document, []change.Conflict, error) {
	mg := &merger{base: base, prefer: prefer}
	mo, mt := match(base, ours), match(base, theirs)

	// The merged numbering: base's nodes keep their ids, added nodes get new ones.
	next := 0
	for i := range base.Nodes {
		next = max(next, base.Nodes[i].ID+1)
	}
	oursID, theirsID := map[int]int{}, map[int]int{}
	// A node both sides added (the same GUID, its own on each side) is one node: theirs
	// takes ours' id, and the two are compared as one place below.
	twin := map[int]int{} // theirs' index -> ours' index
	gOurs, gTheirs := uniqueGUIDs(ours), uniqueGUIDs(theirs)
	for j := range theirs.Nodes {
		if mt.ba[j] >= 0 || !gTheirs.known(theirs, j) {
			continue
		}
		if k, ok := gOurs.index[theirs.Nodes[j].GUID]; ok && k >= 0 && mo.ba[k] < 0 {
			twin[j] = k
		}
	}
	for j := range ours.Nodes {
		if i := mo.ba[j]; i >= 0 {
			oursID[ours.Nodes[j].ID] = base.Nodes[i].ID
		} else {
			oursID[ours.Nodes[j].ID] = next
			next++
		}
	}
	for j := range theirs.Nodes {
		if i := mt.ba[j]; i >= 0 {
			theirsID[theirs.Nodes[j].ID] = base.Nodes[i].ID
		} else if k, ok := twin[j]; ok {
			theirsID[theirs.Nodes[j].ID] = oursID[ours.Nodes[k].ID]
		} else {
			theirsID[theirs.Nodes[j].ID] = next
			next++
		}
	}
	out := &graph.Document{
		Format: base.Format, Name: base.Name, Layout: base.Layout,
	}
	bbB, bbO, bbT := mg.blackboard(out, ours, theirs)
	fnB, fnO, fnT := mg.functions(out, ours, theirs, mo, mt)
	vb := &view{d: base, bb: bbB, fn: fnB}
	vo := &view{d: ours, node: oursID, bb: bbO, fn: fnO}
	vt := &view{d: theirs, node: theirsID, bb: bbT, fn: fnT}
	vb.att, vo.att, vt.att = mg.attachments(out, vb, vo, vt, mo, mt)
	// Both views are read as they are before either is relinked.
	removedO, keptO := mg.removedNodes(vb, vt, mo, mt, change.Theirs)
	removedT, keptT := mg.removedNodes(vb, vo, mt, mo, change.Ours)
	lists := [2][3]*view{{vb, vo, vt}, {vb, vo, vt}} // the views of the replacements, of the enum relocations
	lists[0][1], lists[1][1] = mg.relink(vb, vo, mo, removedO, keptO)
	lists[0][2], lists[1][2] = mg.relink(vb, vt, mt, removedT, keptT)
	mg.document(out, vb, vo, vt, lists)
	mg.commands(out, vb, vo, vt)
	mg.modules(out, ours, theirs)

	var kb, ko, kt []byte
	for i := range base.Nodes {
		nb := &base.Nodes[i]
		step := NodeStep(nb)
		kb = vb.nodeKey(kb[:0], nb)
		var no, nt *graph.Node
		ko, kt = nil, nil
		if j := mo.ab[i]; j >= 0 {
			no = &ours.Nodes[j]
			ko = vo.nodeKey(ko, no)
		}
		if j := mt.ab[i]; j >= 0 {
			nt = &theirs.Nodes[j]
			kt = vt.nodeKey(kt, nt)
		}
		if no == nil || nt == nil {
			// Removed on one side or both: it goes unless the other side changed it.
			if (no == nil || bytes.Equal(ko, kb)) && (nt == nil || bytes.Equal(kt, kb)) {
				continue
			}
			side := mg.decide(change.Path{step}, kb, ko, kt)
			switch {
			case side == sideOurs && no != nil:
				out.Nodes = append(out.Nodes, vo.translate(no))
			case side == sideTheirs && nt != nil:
				out.Nodes = append(out.Nodes, vt.translate(nt))
			}
			continue
		}
		n := vb.translate(nb)
		switch {
		case bytes.Equal(ko, kb) && bytes.Equal(kt, kb):
		case bytes.Equal(ko, kb):
			n = vt.translate(nt)
		case bytes.Equal(kt, kb) || bytes.Equal(ko, kt):
			n = vo.translate(no)
		default:
			o, t := vo.translate(no), vt.translate(nt)
			n = mg.node(step, &n, &o, &t)
		}
		// Where a node is drawn is no change; a side that moved it is followed.
		n.X, n.Y, n.Pinned = nb.X, nb.Y, nb.Pinned
		if no.X != nb.X || no.Y != nb.Y || no.Pinned != nb.Pinned {
			n.X, n.Y, n.Pinned = no.X, no.Y, no.Pinned
		} else if nt.X != nb.X || nt.Y != nb.Y || nt.Pinned != nb.Pinned {
			n.X, n.Y, n.Pinned = nt.X, nt.Y, nt.Pinned
		}
		out.Nodes = append(out.Nodes, n)
	}
	added := map[int]int{} // ours' index -> index in out
	for j := range ours.Nodes {
		if mo.ba[j] < 0 {
			added[j] = len(out.Nodes)
			out.Nodes = append(out.Nodes, vo.translate(&ours.Nodes[j]))
		}
	}
	for j := range theirs.Nodes {
		if mt.ba[j] >= 0 {
			continue
		}
		n := vt.translate(&theirs.Nodes[j])
		k, ok := twin[j]
		if !ok {
			out.Nodes = append(out.Nodes, n)
			continue
		}
		no := &ours.Nodes[k]
		ko, kt = vo.nodeKey(ko[:0], no), vt.nodeKey(kt[:0], &theirs.Nodes[j])
		if mg.decide(change.Path{NodeStep(&out.Nodes[added[k]])}, nil, ko, kt) == sideTheirs {
			out.Nodes[added[k]] = n
		}
	}
	if len(mg.conflicts) > 0 && prefer == change.NoPreference {
		return nil, mg.conflicts, nil
	}
	if err := mg.dangling(out); err != nil {
		return nil, mg.conflicts, err
	}
	if _, err := out.ToFile(); err != nil {
		return nil, mg.conflicts, fmt.Errorf("the merged document does not build: %w", err)
	}
	return out, mg.conflicts, nil
}

type merger struct {
	base      *graph.Document
	prefer    change.Prefer
	conflicts []change.Conflict
}

type side uint8

const (
	sideBase side = iota
	sideOurs
	sideTheirs
)

// decide says whose value a place takes, given the three values in the merged numbering
// (nil: the place does not exist on that side), and records a conflict.
func (mg *merger) decide(p change.Path, b, o, t []byte) side {
	switch {
	case bytes.Equal(o, t):
		return sideOurs
	case bytes.Equal(o, b) && (o == nil) == (b == nil):
		return sideTheirs
	case bytes.Equal(t, b) && (t == nil) == (b == nil):
		return sideOurs
	}
	// The values may be buffers the caller reuses.
	mg.conflicts = append(mg.conflicts, change.Conflict{Path: p, Base: bytes.Clone(b), Ours: bytes.Clone(o), Theirs: bytes.Clone(t)})
	if mg.prefer == change.Theirs {
		return sideTheirs
	}
	return sideOurs
}

// node merges a node both sides changed differently, place by place; each side is already
// in the merged numbering.
func (mg *merger) node(step string, b, o, t *graph.Node) graph.Node {
	n := *b
	p := change.Path{step}
	pick := func(step string, kb, ko, kt []byte) side { return mg.decide(p.Child(step), kb, ko, kt) }
	from := func(s side) *graph.Node {
		switch s {
		case sideOurs:
			return o
		case sideTheirs:
			return t
		}
		return b
	}
	str := func(s string) []byte { return appendString(nil, s) }
	bl := func(v bool) []byte { return strconv.AppendBool(nil, v) }
	n.Type = from(pick("type", str(string(b.Type)), str(string(o.Type)), str(string(t.Type)))).Type
	n.Name = from(pick("name", str(b.Name), str(o.Name), str(t.Name))).Name
	n.GUID = from(pick("guid", graph.AppendGUID(nil, &b.GUID), graph.AppendGUID(nil, &o.GUID), graph.AppendGUID(nil, &t.GUID))).GUID
	n.Query = from(pick("query", bl(b.Query), bl(o.Query), bl(t.Query))).Query
	n.ModuleCaller = from(pick("moduleCaller", bl(b.ModuleCaller), bl(o.ModuleCaller), bl(t.ModuleCaller))).ModuleCaller
	n.ResidentInit = from(pick("residentInit", bl(b.ResidentInit), bl(o.ResidentInit), bl(t.ResidentInit))).ResidentInit
	n.MultiParamV2 = from(pick("multiParamV2", bl(b.MultiParamV2), bl(o.MultiParamV2), bl(t.MultiParamV2))).MultiParamV2
	n.StateInfo = from(pick("stateInfo", stateInfo(b), stateInfo(o), stateInfo(t))).StateInfo
	n.Actions = from(pick("actions", actions(b), actions(o), actions(t))).Actions
	n.Queries = from(pick("queries", listKey(b.Queries), listKey(o.Queries), listKey(t.Queries))).Queries
	n.Attachments = from(pick("attachments", listKey(b.Attachments), listKey(o.Attachments), listKey(t.Attachments))).Attachments
	n.Properties = mergeNamed(mg, p, "property ", "properties", b.Properties, o.Properties, t.Properties,
		func(x *graph.Property) string { return x.Name }, func(x *graph.Property) []byte { return graph.AppendProperty(nil, x) })
	n.Inputs = mergeNamed(mg, p, "input ", "inputs", b.Inputs, o.Inputs, t.Inputs,
		func(x *graph.Input) string { return x.Name }, func(x *graph.Input) []byte { return graph.AppendInput(nil, x) })
	n.Outputs = mergeNamed(mg, p, "output ", "outputs", b.Outputs, o.Outputs, t.Outputs,
		func(x *graph.Output) string { return x.Name }, func(x *graph.Output) []byte { return graph.AppendOutput(nil, x) })
	n.Children = mergeIndexed(mg, p, "child ", b.Children, o.Children, t.Children, func(x *graph.Child) []byte { return graph.AppendChild(nil, x) })
	n.Jumps = mergeIndexed(mg, p, "jump ", b.Jumps, o.Jumps, t.Jumps, func(x *graph.Jump) []byte { return graph.AppendJump(nil, x) })
	return n
}

// mergeNamed merges lists of named items (properties, inputs, outputs): base's items in
// base's order, then those ours added, then those theirs added.
func mergeNamed[T any](mg *merger, p change.Path, kind, plural string, b, o, t []T, name func(*T) string, key func(*T) []byte) []T {
	nb := names(len(b), func(k int) string { return name(&b[k]) })
	no := names(len(o), func(k int) string { return name(&o[k]) })
	nt := names(len(t), func(k int) string { return name(&t[k]) })
	at := func(list []T, ns []string, k string) *T {
		for i, n := range ns {
			if n == k {
				return &list[i]
			}
		}
		return nil
	}
	keyOf := func(x *T) []byte {
		if x == nil {
			return nil
		}
		return key(x)
	}
	var out []T
	take := func(k string) {
		xb, xo, xt := at(b, nb, k), at(o, no, k), at(t, nt, k)
		var x *T
		switch mg.decide(p.Child(kind+k), keyOf(xb), keyOf(xo), keyOf(xt)) {
		case sideOurs:
			x = xo
		case sideTheirs:
			x = xt
		}
		if x != nil {
			out = append(out, *x)
		}
	}
	seen := map[string]bool{}
	for _, ns := range [][]string{nb, no, nt} {
		for _, k := range ns {
			if !seen[k] {
				seen[k] = true
				take(k)
			}
		}
	}
	// The order of the items all three have is a place of its own: a side that reordered
	// them gives its order, the rest keep theirs after them.
	var order []string
	switch mg.decide(p.Child("order of "+plural), orderKey(nb, no, nt), orderKey(no, nb, nt), orderKey(nt, nb, no)) {
	case sideOurs:
		order = no
	case sideTheirs:
		order = nt
	}
	if order != nil && !slices.Equal(order, nb) {
		rank := func(x *T) int {
			if i := slices.Index(order, name(x)); i >= 0 {
				return i
			}
			return len(order)
		}
		slices.SortStableFunc(out, func(x, y T) int { return rank(&x) - rank(&y) })
	}
	if out == nil && b != nil {
		out = b[:0:0]
	}
	return out
}

// mergeIndexed merges lists whose items are known by their place (children, jumps).
func mergeIndexed[T any](mg *merger, p change.Path, kind string, b, o, t []T, key func(*T) []byte) []T {
	var out []T
	for k := 0; k < max(len(b), len(o), len(t)); k++ {
		var kb, ko, kt []byte
		if k < len(b) {
			kb = key(&b[k])
		}
		if k < len(o) {
			ko = key(&o[k])
		}
		if k < len(t) {
			kt = key(&t[k])
		}
		switch mg.decide(p.Child(kind+strconv.Itoa(k)), kb, ko, kt) {
		case sideOurs:
			if k < len(o) {
				out = append(out, o[k])
			}
		case sideTheirs:
			if k < len(t) {
				out = append(out, t[k])
			}
		}
	}
	return out
}

// blackboard merges the parameters (matched as Diff matches them) into out and returns, for
// base, ours and theirs, each parameter's index in out (-1: gone).
func (mg *merger) blackboard(out, ours, theirs *graph.Document) (bb, bo, bt []int) {
	base := mg.base
	ob, oo := matchBlackboard(base, ours)
	tb, tt := matchBlackboard(base, theirs)
	bb, bo, bt = fill(len(base.Blackboard)), fill(len(ours.Blackboard)), fill(len(theirs.Blackboard))
	key := func(d *graph.Document, k int) []byte {
		if k < 0 {
			return nil
		}
		return graph.AppendBlackboardParam(nil, &d.Blackboard[k])
	}
	for i := range base.Blackboard {
		o, t := ob[i], tb[i]
		s := mg.decide(change.Path{paramStep(base, i)}, key(base, i), key(ours, o), key(theirs, t))
		var p *graph.BlackboardParam
		switch {
		case s == sideOurs && o >= 0:
			p = &ours.Blackboard[o]
		case s == sideTheirs && t >= 0:
			p = &theirs.Blackboard[t]
		}
		if p == nil {
			continue
		}
		k := len(out.Blackboard)
		out.Blackboard = append(out.Blackboard, *p)
		bb[i] = k
		if o >= 0 {
			bo[o] = k
		}
		if t >= 0 {
			bt[t] = k
		}
	}
	oursStart := len(out.Blackboard)
	for j := range ours.Blackboard {
		if oo[j] < 0 {
			bo[j] = len(out.Blackboard)
			out.Blackboard = append(out.Blackboard, ours.Blackboard[j])
		}
	}
	theirsStart := len(out.Blackboard)
	taken := map[int]bool{} // ours' added parameters already paired with theirs'
	for j := range theirs.Blackboard {
		if tt[j] >= 0 {
			continue
		}
		p := &theirs.Blackboard[j]
		if k := addedTwin(out.Blackboard[oursStart:theirsStart], p, taken); k >= 0 {
			taken[k] = true
			k += oursStart
			// Both added a parameter of this name and type.
			kt := graph.AppendBlackboardParam(nil, p)
			if mg.decide(change.Path{"blackboard " + p.Name}, nil, graph.AppendBlackboardParam(nil, &out.Blackboard[k]), kt) == sideTheirs {
				out.Blackboard[k] = *p
			}
			bt[j] = k
			continue
		}
		bt[j] = len(out.Blackboard)
		out.Blackboard = append(out.Blackboard, *p)
	}
	return bb, bo, bt
}

// addedTwin is the index in ps of the first parameter not yet taken with p's name and type, or -1.
func addedTwin(ps []graph.BlackboardParam, p *graph.BlackboardParam, taken map[int]bool) int {
	for k := range ps {
		if !taken[k] && ps[k].Name == p.Name && ps[k].Type == p.Type {
			return k
		}
	}
	return -1
}

func fill(n int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = -1
	}
	return s
}

// functions merges the expression functions into out. Functions are matched through the
// sources that use them (the same property or input of matched nodes), then by equal text,
// then by index; a function is merged by its text, a function one side added is appended.
// The conflict path names the first node in base that uses the function.
func (mg *merger) functions(out, ours, theirs *graph.Document, mo, mt matching) (fb, fo, ft []int) {
	base := mg.base
	fb, fo, ft = fill(nfn(base)), fill(nfn(ours)), fill(nfn(theirs))
	if base.Expressions == nil && ours.Expressions == nil && theirs.Expressions == nil {
		return fb, fo, ft
	}
	ob, oo := matchFunctions(base, ours, mo)
	tb, tt := matchFunctions(base, theirs, mt)
	x := &graph.Expressions{}
	out.Expressions = x
	text := func(d *graph.Document, k int) []byte {
		if k < 0 {
			return nil
		}
		return appendString(nil, d.Expressions.Functions[k].Text)
	}
	for i := 0; i < nfn(base); i++ {
		o, t := ob[i], tb[i]
		s := mg.decide(functionPath(base, i), text(base, i), text(ours, o), text(theirs, t))
		var f *graph.Function
		switch {
		case s == sideOurs && o >= 0:
			f = &ours.Expressions.Functions[o]
		case s == sideTheirs && t >= 0:
			f = &theirs.Expressions.Functions[t]
		}
		if f == nil {
			continue
		}
		k := len(x.Functions)
		nf := graph.Function{Text: f.Text}
		if bf := base.Expressions.Functions[i]; f.Text != bf.Text {
			// The text as parsed lets the build compile this function alone into base's
			// module, leaving every other function's instructions where they were.
			pt := bf.Text
			if bf.ParsedText != nil {
				pt = *bf.ParsedText
			}
			nf.ParsedText = &pt
		} else {
			nf.ParsedText = bf.ParsedText
		}
		x.Functions = append(x.Functions, nf)
		fb[i] = k
		if o >= 0 {
			fo[o] = k
		}
		if t >= 0 {
			ft[t] = k
		}
	}
	for _, s := range []struct {
		d    *graph.Document
		back []int
		to   []int
	}{{ours, oo, fo}, {theirs, tt, ft}} {
		for j := 0; j < nfn(s.d); j++ {
			if s.back[j] < 0 {
				s.to[j] = len(x.Functions)
				x.Functions = append(x.Functions, graph.Function{Text: s.d.Expressions.Functions[j].Text})
			}
		}
	}
	version := func(d *graph.Document) []byte { return expressionsVersion(d) }
	vs := mg.decide(change.Path{"expressions version"}, version(base), version(ours), version(theirs))
	switch from := [...]*graph.Document{base, ours, theirs}[vs]; {
	case from.Expressions != nil:
		x.Version = from.Expressions.Version
	case len(x.Functions) == 0:
		// The side that won dropped the expression binary, and no function is left.
		out.Expressions = nil
	case base.Expressions != nil:
		x.Version = base.Expressions.Version
	default:
		x.Version = max(exprVersion(ours), exprVersion(theirs))
	}
	return fb, fo, ft
}

// exprVersion is d's expression binary version, 0 without one.
func exprVersion(d *graph.Document) uint32 {
	if d.Expressions == nil {
		return 0
	}
	return d.Expressions.Version
}

func nfn(d *graph.Document) int {
	if d.Expressions == nil {
		return 0
	}
	return len(d.Expressions.Functions)
}

// functionPath names function i of d by the first node using it: {node, "input X",
// "expression"}, or {"expression function i"} when no node does.
func functionPath(d *graph.Document, i int) change.Path {
	for k := range d.Nodes {
		var p change.Path
		(&view{d: d}).eachExpression(&d.Nodes[k], func(steps []string, fn int) {
			if fn == i && p == nil {
				p = append(append(change.Path{NodeStep(&d.Nodes[k])}, steps...), "expression")
			}
		})
		if p != nil {
			return p
		}
	}
	return change.Path{"expression function " + strconv.Itoa(i)}
}

// matchFunctions pairs the functions of a and b: through the sources of matched nodes, then
// by equal text, then by index among those left.
func matchFunctions(a, b *graph.Document, m matching) (ab, ba []int) {
	ab, ba = fill(nfn(a)), fill(nfn(b))
	pair := func(i, j int) {
		if i >= 0 && j >= 0 && i < len(ab) && j < len(ba) && ab[i] < 0 && ba[j] < 0 {
			ab[i], ba[j] = j, i
		}
	}
	for i := range a.Nodes {
		j := m.ab[i]
		if j < 0 {
			continue
		}
		used := map[string]int{}
		(&view{d: a}).eachExpression(&a.Nodes[i], func(steps []string, fn int) { used[strings.Join(steps, "/")] = fn })
		(&view{d: b}).eachExpression(&b.Nodes[j], func(steps []string, fn int) {
			if f, ok := used[strings.Join(steps, "/")]; ok {
				pair(f, fn)
			}
		})
	}
	for i := range ab {
		if ab[i] >= 0 {
			continue
		}
		for j := range ba {
			if ba[j] < 0 && a.Expressions.Functions[i].Text == b.Expressions.Functions[j].Text {
				pair(i, j)
				break
			}
		}
	}
	for i := range ab {
		if ab[i] < 0 && i < len(ba) && ba[i] < 0 {
			pair(i, i)
		}
	}
	return ab, ba
}

// attachments merges the attachments into out, matched through the nodes that list them
// (the same place in matched nodes' lists) and then by index, compared in the merged
// numbering; it returns each side's attachment index -> out's.
func (mg *merger) attachments(out *graph.Document, vb, vo, vt *view, mo, mt matching) (ab, ao, at []int) {
	base := mg.base
	ob, oo := matchAttachments(base, vo.d, mo)
	tb, tt := matchAttachments(base, vt.d, mt)
	ab, ao, at = fill(len(base.Attachments)), fill(len(vo.d.Attachments)), fill(len(vt.d.Attachments))
	key := func(v *view, k int) []byte {
		if k < 0 {
			return nil
		}
		a := v.attachment(&v.d.Attachments[k])
		return graph.AppendAttachment(nil, &a)
	}
	for i := range base.Attachments {
		o, t := ob[i], tb[i]
		s := mg.decide(change.Path{"attachment " + strconv.Itoa(i) + " " + base.Attachments[i].Name}, key(vb, i), key(vo, o), key(vt, t))
		var a graph.Attachment
		switch {
		case s == sideOurs && o >= 0:
			a = vo.attachment(&vo.d.Attachments[o])
		case s == sideTheirs && t >= 0:
			a = vt.attachment(&vt.d.Attachments[t])
		default:
			continue
		}
		k := len(out.Attachments)
		out.Attachments = append(out.Attachments, a)
		ab[i] = k
		if o >= 0 {
			ao[o] = k
		}
		if t >= 0 {
			at[t] = k
		}
	}
	for _, s := range []struct {
		v    *view
		back []int
		to   []int
	}{{vo, oo, ao}, {vt, tt, at}} {
		for j := range s.v.d.Attachments {
			if s.back[j] < 0 {
				s.to[j] = len(out.Attachments)
				out.Attachments = append(out.Attachments, s.v.attachment(&s.v.d.Attachments[j]))
			}
		}
	}
	return ab, ao, at
}

func matchAttachments(a, b *graph.Document, m matching) (ab, ba []int) {
	ab, ba = fill(len(a.Attachments)), fill(len(b.Attachments))
	pair := func(i, j int) {
		if i >= 0 && j >= 0 && i < len(ab) && j < len(ba) && ab[i] < 0 && ba[j] < 0 {
			ab[i], ba[j] = j, i
		}
	}
	for i := range a.Nodes {
		if j := m.ab[i]; j >= 0 {
			x, y := a.Nodes[i].Attachments, b.Nodes[j].Attachments
			for k := 0; k < len(x) && k < len(y); k++ {
				pair(x[k], y[k])
			}
		}
	}
	for i := range ab {
		if ab[i] < 0 && i < len(ba) && ba[i] < 0 {
			pair(i, i)
		}
	}
	return ab, ba
}

// document merges the document's own fields.
// lists holds the views the replacements and the enum relocations are read through (see relink).
func (mg *merger) document(out *graph.Document, vb, vo, vt *view, lists [2][3]*view) {
	b, o, t := vb.d, vo.d, vt.d
	from := func(s side) *graph.Document { return [...]*graph.Document{b, o, t}[s] }
	str := func(s string) []byte { return appendString(nil, s) }
	num := func(v uint32) []byte { return strconv.AppendUint(nil, uint64(v), 10) }
	bl := func(v bool) []byte { return strconv.AppendBool(nil, v) }
	out.Version = from(mg.decide(change.Path{"version"}, num(b.Version), num(o.Version), num(t.Version))).Version
	out.Filename = from(mg.decide(change.Path{"filename"}, str(b.Filename), str(o.Filename), str(t.Filename))).Filename
	out.Category = from(mg.decide(change.Path{"category"}, str(b.Category), str(o.Category), str(t.Category))).Category
	out.ModuleCall = from(mg.decide(change.Path{"moduleCall"}, moduleCall(b), moduleCall(o), moduleCall(t))).ModuleCall
	out.Section58 = from(mg.decide(change.Path{"section58"}, section58(b), section58(o), section58(t))).Section58
	out.HasSection6C = from(mg.decide(change.Path{"hasSection6C"}, bl(b.HasSection6C), bl(o.HasSection6C), bl(t.HasSection6C))).HasSection6C
	r := lists[0]
	s := mg.decide(change.Path{"replacements"}, replacements(r[0]), replacements(r[1]), replacements(r[2]))
	out.Replacements = r[s].replacementList()
	r = lists[1]
	s = mg.decide(change.Path{"enumRelocations"}, relocations(r[0]), relocations(r[1]), relocations(r[2]))
	out.EnumRelocations = r[s].relocationList()
}

func (v *view) replacementList() []graph.Replacement {
	if v.d.Replacements == nil {
		return nil
	}
	out := make([]graph.Replacement, len(v.d.Replacements))
	for k, r := range v.d.Replacements {
		r.Node = v.nodeID(r.Node)
		if r.New != nil {
			n := v.nodeID(*r.New)
			r.New = &n
		}
		out[k] = r
	}
	return out
}

func (v *view) relocationList() []graph.EnumRelocation {
	out := make([]graph.EnumRelocation, len(v.d.EnumRelocations))
	for k, r := range v.d.EnumRelocations {
		if r.Target != nil && r.Target.Node != nil {
			t := *r.Target
			n := v.nodeID(*t.Node)
			t.Node = &n
			r.Target = &t
		}
		out[k] = r
	}
	return out
}

// commands merges the commands by name.
func (mg *merger) commands(out *graph.Document, vb, vo, vt *view) {
	key := func(v *view, k int) []byte {
		if k < 0 {
			return nil
		}
		c := v.command(k)
		return graph.AppendCommand(nil, &c)
	}
	for _, name := range unionNames(func(d *graph.Document) []string {
		s := make([]string, len(d.Commands))
		for k := range d.Commands {
			s[k] = d.Commands[k].Name
		}
		return s
	}, vb.d, vo.d, vt.d) {
		kb, ko, kt := commandIndex(vb.d, name), commandIndex(vo.d, name), commandIndex(vt.d, name)
		switch mg.decide(change.Path{"command " + name}, key(vb, kb), key(vo, ko), key(vt, kt)) {
		case sideOurs:
			if ko >= 0 {
				out.Commands = append(out.Commands, vo.command(ko))
			}
		case sideTheirs:
			if kt >= 0 {
				out.Commands = append(out.Commands, vt.command(kt))
			}
		}
	}
}

func (v *view) command(k int) graph.Command {
	c := v.d.Commands[k]
	c.Root, c.Secondary = v.nodeID(c.Root), v.nodeID(c.Secondary)
	return c
}

// modules merges the modules by path.
func (mg *merger) modules(out, ours, theirs *graph.Document) {
	key := func(d *graph.Document, k int) []byte {
		if k < 0 {
			return nil
		}
		return graph.AppendModule(nil, &d.Modules[k])
	}
	base := mg.base
	for _, path := range unionNames(func(d *graph.Document) []string {
		s := make([]string, len(d.Modules))
		for k := range d.Modules {
			s[k] = d.Modules[k].Path
		}
		return s
	}, base, ours, theirs) {
		kb, ko, kt := moduleIndex(base, path), moduleIndex(ours, path), moduleIndex(theirs, path)
		switch mg.decide(change.Path{"module " + path}, key(base, kb), key(ours, ko), key(theirs, kt)) {
		case sideOurs:
			if ko >= 0 {
				out.Modules = append(out.Modules, ours.Modules[ko])
			}
		case sideTheirs:
			if kt >= 0 {
				out.Modules = append(out.Modules, theirs.Modules[kt])
			}
		}
	}
	if out.Modules == nil {
		out.Modules = []graph.Module{}
	}
}

// unionNames lists the names of the three documents' items, base's first, each once.
func unionNames(names func(*graph.Document) []string, ds ...*graph.Document) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range ds {
		for _, n := range names(d) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// dangling reports references to nodes the merge removed: one side linked to a node the
// other side deleted. That is a conflict in meaning the places cannot show, so it is an error
// naming both.
func (mg *merger) dangling(d *graph.Document) error {
	ids := make(map[int]bool, len(d.Nodes))
	for i := range d.Nodes {
		ids[d.Nodes[i].ID] = true
	}
	var errs []error
	ref := func(where string, id int) {
		if id != graph.NoNode && id >= 0 && !ids[id] {
			errs = append(errs, fmt.Errorf("%s: links to node %d, which the other side removed", where, id))
		}
	}
	for _, c := range d.Commands {
		ref("command "+c.Name, c.Root)
		if c.Secondary >= 0 {
			ref("command "+c.Name+" secondary", c.Secondary)
		}
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		eachLink(n, func(kind linkKind, plug string, id int) {
			if id == graph.NoNode || id < 0 || ids[id] {
				return
			}
			where := NodeStep(n) + " " + linkWords[kind]
			if kind == linkInput || kind == linkProperty {
				where += " " + plug
			}
			ref(where, id)
		})
	}
	return errors.Join(errs...)
}
