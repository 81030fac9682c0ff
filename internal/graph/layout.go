package graph

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

// MaxCoord bounds node positions, either way on both axes. Layouts of the largest uploads
// stay far inside it; a document or view beyond it is hostile or broken (past 2^53 adding a
// grid step no longer moves a coordinate, and the browser's grid loop never ended).
const MaxCoord = 1e9

// NodeHeight is the height of a node's box: a header, one row per property, one row per
// input/output pair, one per child, jump and attachment.
func NodeHeight(n *Node) float64 {
	rows := len(n.Properties) + max(len(n.Inputs), len(n.Outputs)) + len(n.Children) + len(n.Jumps) + len(n.Attachments)
	return HeaderHeight + float64(rows)*RowHeight + FooterHeight
}

// Layout places every node that is not pinned. Each command's tree grows to the right of its
// root, children stacked top to bottom; the nodes a node reads (queries and input sources)
// sit in its tree as extra children, so they end up beside it. Jump targets start trees of
// their own. A node reached twice is placed at its first visit; cycles end there. Nodes no
// command reaches are set out in rows below everything else. The result depends only on
// the document (references to ids that do not exist are ignored).
func Layout(d *Document) {
	n := len(d.Nodes)
	l := &layouter{d: d, placed: make([]bool, n), heights: make([]float64, n), index: nodeIndex(d)}
	for i := range d.Nodes {
		l.heights[i] = NodeHeight(&d.Nodes[i])
	}
	// Pinned nodes keep their places, but their subtrees are still laid out around the
	// automatic ones: only the pinned box itself is left alone.
	y := 0.0
	var roots []int
	for _, c := range d.Commands {
		roots = append(roots, l.index(c.Root))
		if c.Secondary >= 0 {
			roots = append(roots, l.index(c.Secondary))
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
	for i := range d.Nodes {
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

// nodeIndex returns a function from node id to index (-1 for none): by a slice when ids are
// small, as parsing makes them, by a map otherwise.
func nodeIndex(d *Document) func(int) int {
	n := len(d.Nodes)
	maxID := -1
	for i := range d.Nodes {
		maxID = max(maxID, d.Nodes[i].ID)
	}
	if maxID < 4*n+1024 {
		s := make([]int32, maxID+1)
		for i := range s {
			s[i] = -1
		}
		for i := range d.Nodes {
			if id := d.Nodes[i].ID; id >= 0 && s[id] < 0 {
				s[id] = int32(i)
			}
		}
		return func(id int) int {
			if id < 0 || id >= len(s) {
				return -1
			}
			return int(s[id])
		}
	}
	m := make(map[int]int, n)
	for i := range d.Nodes {
		if _, ok := m[d.Nodes[i].ID]; !ok {
			m[d.Nodes[i].ID] = i
		}
	}
	return func(id int) int {
		if i, ok := m[id]; ok {
			return i
		}
		return -1
	}
}

type layouter struct {
	d       *Document
	index   func(int) int
	placed  []bool
	heights []float64
	jumps   []int
}

func (l *layouter) place(i int, x, y float64) {
	l.placed[i] = true
	p := &l.d.Nodes[i]
	if !p.Pinned {
		p.X, p.Y = x, y
	}
}

// next lists the nodes laid out to the right of i: its children, then what it reads.
func (l *layouter) next(i int) []int {
	nd := &l.d.Nodes[i]
	var out []int
	add := func(id int) {
		if j := l.index(id); j >= 0 && !l.placed[j] {
			out = append(out, j)
		}
	}
	for _, c := range nd.Children {
		add(c.Node)
	}
	for _, q := range nd.Queries {
		add(q)
	}
	for k := range nd.Inputs {
		in := &nd.Inputs[k]
		if in.Sources != nil {
			for _, s := range in.Sources {
				if s.Node != nil {
					add(*s.Node)
				}
			}
		} else if in.Source != nil && in.Source.Node != nil {
			add(*in.Source.Node)
		}
	}
	for _, jp := range nd.Jumps {
		if j := l.index(jp.Node); j >= 0 {
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
