package graph

import (
	"ainbeditor/internal/ainb"
)

// Node boxes. The browser draws nodes with the same metrics, so boxes placed here never
// overlap there.
const (
	NodeWidth    = 260.0
	HeaderHeight = 30.0
	RowHeight    = 18.0
	FooterHeight = 8.0
	gapX         = 80.0 // between a node and its children
	gapY         = 24.0 // between sibling subtrees
	gapTrees     = 80.0 // between the trees of two commands
)

// NodeHeight is the height of a node's box: a header, one row per property, one row per
// input/output pair, one per child, jump and attachment.
func NodeHeight(e *ainb.Element) float64 {
	props, ins, outs := 0, 0, 0
	for t := range ainb.NumParamTypes {
		props += len(e.Properties[t])
		ins += len(e.Inputs[t])
		outs += len(e.Outputs[t])
	}
	rows := props + max(ins, outs) + len(e.Plugs[ainb.PlugChild]) + len(e.Plugs[ainb.PlugJump]) + len(e.Attachments)
	return HeaderHeight + float64(rows)*RowHeight + FooterHeight
}

// Layout places every node that is not pinned. Each command's tree grows to the right of its
// root, children stacked top to bottom; the nodes a node reads (queries and input sources)
// sit in its tree as extra children, so they end up beside it. Jump targets start trees of
// their own. A node reached twice is placed at its first visit; cycles end there. Nodes no
// command reaches are set out in rows below everything else. The result depends only on
// the file.
func Layout(d *Document) {
	f := d.File
	n := len(f.Elements)
	if len(d.Positions) != n {
		d.Positions = make([]Position, n)
	}
	l := &layouter{f: f, pos: d.Positions, placed: make([]bool, n), heights: make([]float64, n)}
	for i := range f.Elements {
		l.heights[i] = NodeHeight(&f.Elements[i])
		d.Positions[i].W, d.Positions[i].H = NodeWidth, l.heights[i]
	}
	// Pinned nodes keep their places, but their subtrees are still laid out around the
	// automatic ones: only the pinned box itself is left alone.
	y := 0.0
	var roots []int
	for _, c := range f.Commands {
		roots = append(roots, c.Root)
		if c.Secondary >= 0 {
			roots = append(roots, c.Secondary)
		}
	}
	for len(roots) > 0 {
		r := roots[0]
		roots = roots[1:]
		if r < 0 || r >= n || l.placed[r] {
			continue
		}
		h := l.tree(r, 0, y)
		y += h + gapTrees
		roots = append(roots, l.jumps...)
		l.jumps = l.jumps[:0]
	}
	// Everything else, in rows.
	x, rowH := 0.0, 0.0
	const rowWidth = 8 * (NodeWidth + gapX)
	for i := range f.Elements {
		if l.placed[i] {
			continue
		}
		if x+NodeWidth > rowWidth {
			x, y = 0, y+rowH+gapY
			rowH = 0
		}
		l.place(i, x, y)
		rowH = max(rowH, l.heights[i])
		x += NodeWidth + gapX
	}
}

type layouter struct {
	f       *ainb.File
	pos     []Position
	placed  []bool
	heights []float64
	jumps   []int
}

func (l *layouter) place(i int, x, y float64) {
	l.placed[i] = true
	p := &l.pos[i]
	if !p.Pinned {
		p.X, p.Y = x, y
	}
}

// next lists the nodes laid out to the right of i: its children, then what it reads.
func (l *layouter) next(i int) []int {
	e := &l.f.Elements[i]
	n := len(l.f.Elements)
	var out []int
	add := func(j int) {
		if j >= 0 && j < n && !l.placed[j] {
			out = append(out, j)
		}
	}
	for _, p := range e.Plugs[ainb.PlugChild] {
		add(int(p.Node))
	}
	for _, q := range e.Queries {
		add(q)
	}
	for t := range ainb.NumParamTypes {
		for _, in := range e.Inputs[t] {
			if in.IsMulti() {
				for _, s := range in.Sources {
					add(int(s.Node))
				}
			} else {
				add(int(in.Source.Node))
			}
		}
	}
	for _, p := range e.Plugs[ainb.PlugJump] {
		if j := int(p.Node); j >= 0 && j < n {
			l.jumps = append(l.jumps, j)
		}
	}
	return out
}

// tree lays out the subtree of root with its top at y, at the given depth, and returns its
// height. It walks with an explicit stack: real trees can be thousands of nodes deep.
func (l *layouter) tree(root, depth int, top float64) float64 {
	type frame struct {
		node, depth int
		top         float64 // where this subtree starts
		kids        []int
		k           int     // next child to lay out
		end         float64 // bottom of the last child laid out
		any         bool    // whether a child has been laid out
	}
	l.placed[root] = true
	stack := []frame{{node: root, depth: depth, top: top, kids: l.next(root)}}
	height := 0.0
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		// Skip children placed meanwhile by a sibling's subtree.
		for fr.k < len(fr.kids) && l.placed[fr.kids[fr.k]] {
			fr.k++
		}
		if fr.k < len(fr.kids) {
			c := fr.kids[fr.k]
			fr.k++
			l.placed[c] = true
			childTop := fr.top
			if fr.any {
				childTop = fr.end + gapY
			}
			d := fr.depth + 1
			stack = append(stack, frame{node: c, depth: d, top: childTop, kids: l.next(c)})
			continue
		}
		h := l.heights[fr.node]
		if fr.any {
			h = max(h, fr.end-fr.top)
		}
		l.place(fr.node, float64(fr.depth)*(NodeWidth+gapX), fr.top)
		done := *fr
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			height = h
			break
		}
		parent := &stack[len(stack)-1]
		parent.end, parent.any = done.top+h, true
	}
	return height
}
