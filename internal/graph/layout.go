package graph

import (
	"math"
	"slices"
	"unicode/utf8"

	"ainbeditor/internal/shelf"
)

// Node boxes. The browser draws nodes with the same metrics, so boxes placed here never
// overlap there.
const (
	NodeWidth    = 260.0
	HeaderHeight = 30.0
	RowHeight    = 18.0
	FooterHeight = 8.0
	gapX         = 80.0 // between a node and its children, and between a reader and what it reads
	gapY         = 24.0 // between sibling subtrees
	gapTrees     = 80.0 // between two trees
)

// DefaultAspect is the width-to-height ratio a layout aims at when the caller does not know
// the screen: an editor canvas on a desktop screen, beside the side panel.
const DefaultAspect = 1.6

// MaxCoord bounds node positions, either way on both axes. Layouts of the largest uploads
// stay far inside it; a document or view beyond it is hostile or broken (past 2^53 adding a
// grid step no longer moves a coordinate, and the browser's grid loop never ended).
const MaxCoord = 1e9

// A long title wraps onto more lines of the header, each TitleLine high: the header holds
// TitleFirst characters of the title on its first line (beside the id and badges) and
// TitleMore on each further one, at most MaxTitleLines in all (the game's longest class
// name, 72 characters, fits). Counted in characters, not measured, so that the server lays
// out the boxes the browser draws; the browser wraps the text into the lines counted here.
const (
	TitleLine     = 16.0
	TitleFirst    = 24
	TitleMore     = 30
	MaxTitleLines = 3
)

// Title is what a node's header says: the class of a user-defined node, the type otherwise.
func Title(n *Node) string {
	if n.Type == "UserDefined" {
		if n.Name == "" {
			return "UserDefined"
		}
		return n.Name
	}
	return string(n.Type)
}

// TitleLines is how many lines the header gives a title of that many characters.
func TitleLines(chars int) int {
	if chars <= TitleFirst {
		return 1
	}
	return min(MaxTitleLines, 1+(chars-TitleFirst+TitleMore-1)/TitleMore)
}

// HeaderHeightOf is the height of node n's header, its title's lines included.
func HeaderHeightOf(n *Node) float64 {
	t := Title(n)
	if len(t) <= TitleFirst {
		return HeaderHeight // no more characters than bytes: one line, without counting them
	}
	chars := len(t) // a title of plain ASCII, the usual, has as many characters as bytes
	if !ascii(t) {
		chars = utf8.RuneCountInString(t)
	}
	return HeaderHeight + float64(TitleLines(chars)-1)*TitleLine
}

// ascii reports whether s has no byte of 0x80 or more. It only ORs s together eight bytes at
// a time: every node of a file is measured, and the titles of long names were a sixth of the
// layout's cost when scanned for what JSON quoting stops at.
func ascii(s string) bool {
	word := func(i int) uint64 {
		w := s[i : i+8]
		return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	}
	var or uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		or |= word(i)
	}
	if i < len(s) && len(s) >= 8 {
		or |= word(len(s) - 8) // the last bytes, with some already seen
	} else {
		for ; i < len(s); i++ {
			or |= uint64(s[i])
		}
	}
	return or&0x8080808080808080 == 0
}

// NodeHeight is the height of a node's box: a header, one row per property, one row per
// input/output pair, one per child, jump and attachment.
func NodeHeight(n *Node) float64 {
	rows := len(n.Properties) + max(len(n.Inputs), len(n.Outputs)) + len(n.Children) + len(n.Jumps) + len(n.Attachments)
	return HeaderHeightOf(n) + float64(rows)*RowHeight + FooterHeight
}

// Layout is LayoutAspect for a screen of DefaultAspect.
func Layout(d *Document) { LayoutAspect(d, DefaultAspect) }

// LayoutAspect places every node that is not pinned, so that no two boxes overlap and the
// whole arrangement is about aspect times as wide as it is high (so that fitting it on a
// screen of that shape leaves it readable, not a strip).
//
// The graph is cut into trees. A tree grows to the right of its root, children stacked top to
// bottom; the nodes a node reads (its queries and the nodes its inputs take values from) sit
// to its left, so every link runs left to right. A node reached twice is placed at its first
// visit; cycles end there. Trees start at the commands' roots, then at jump targets, then at
// nodes that nothing unplaced refers to, then at whatever is left (cycles no command
// reaches). The trees are then stacked into columns whose height is chosen for the aspect.
//
// Pinned nodes keep their places; automatic nodes are kept off them. Pinned nodes that
// overlap each other are moved down, in document order, until they do not (they stay pinned).
// The result depends only on the document and aspect (references to ids that do not exist
// are ignored).
func LayoutAspect(d *Document, aspect float64) {
	if !(aspect >= 0.01 && aspect <= 100) {
		aspect = DefaultAspect
	}
	sc := layoutScratches.Get()
	if sc == nil {
		sc = new(layoutScratch)
	}
	defer sc.release()
	l := newLayouter(d, sc)
	defer func() { sc.order, sc.blocks, sc.sizes = l.order, l.blocks, l.sizes }()
	l.pack(aspect)
}

// newLayouter cuts d into trees (see LayoutAspect), in the storage of sc.
func newLayouter(d *Document, sc *layoutScratch) *layouter {
	n := len(d.Nodes)
	floats, ints, bools := sc.take(n)
	l := &layouter{
		d: d, index: nodeIndex(d),
		heights: floats[0*n : 1*n], relX: floats[1*n : 2*n], relY: floats[2*n : 3*n],
		blockW: floats[3*n : 4*n], blockH: floats[4*n : 5*n], nodeX: floats[5*n : 6*n],
		firstSrc: ints[0*n : 1*n], firstKid: ints[1*n : 2*n], lastSrc: ints[2*n : 3*n], lastKid: ints[3*n : 4*n], sib: ints[4*n : 5*n],
		order: slices.Grow(sc.order[:0], n), blocks: slices.Grow(sc.blocks[:0], n), placed: bools[:n],
		sizes: sc.sizes[:0], sc: sc,
	}
	for i := range d.Nodes {
		l.heights[i] = NodeHeight(&d.Nodes[i])
		l.firstSrc[i], l.firstKid[i], l.sib[i] = -1, -1, -1
	}
	l.pins = separatePinned(d, l.heights)

	var roots []int
	for _, c := range d.Commands {
		roots = append(roots, l.index(c.Root))
		if c.Secondary >= 0 {
			roots = append(roots, l.index(c.Secondary))
		}
	}
	l.trees(roots, true)
	// Nodes no command reaches: first those nothing unplaced refers to, so that a node
	// read by another one is laid out beside its reader.
	referred := bools[n : 2*n]
	for i := range d.Nodes {
		if !l.placed[i] {
			l.refs(i, func(j int, _ bool) {
				if j != i {
					referred[j] = true
				}
			})
		}
	}
	roots = roots[:0]
	for i := range d.Nodes {
		if !l.placed[i] && !referred[i] {
			roots = append(roots, i)
		}
	}
	l.trees(roots, false)
	roots = roots[:0]
	for i := range d.Nodes {
		if !l.placed[i] {
			roots = append(roots, i)
		}
	}
	l.trees(roots, false)
	return l
}

// layoutScratch holds a layout's per-node arrays between layouts: the server lays out a
// document on every parse, and the arrays (close to a megabyte for 7,000 nodes) would
// otherwise be garbage each time.
type layoutScratch struct {
	floats []float64
	ints   []int32
	bools  []bool
	order  []int32
	blocks []block
	sizes  [][2]float64
	cols   []float64 // the column index's sums
}

var layoutScratches shelf.Of[layoutScratch]

// maxShelvedNodes is the most nodes whose arrays are kept for the next layout, for good
// (see shelf): about 1.5 MB.
const maxShelvedNodes = 16384

// release puts s back on the shelf unless its arrays are larger than worth keeping.
func (s *layoutScratch) release() {
	if cap(s.floats) <= 6*maxShelvedNodes && cap(s.ints) <= 5*maxShelvedNodes && cap(s.blocks) <= maxShelvedNodes {
		layoutScratches.Put(s)
	}
}

// take returns six float, five int and two bool arrays of n elements each, all zero.
func (s *layoutScratch) take(n int) ([]float64, []int32, []bool) {
	s.floats = grownClear(s.floats, 6*n)
	s.ints = grownClear(s.ints, 5*n)
	s.bools = grownClear(s.bools, 2*n)
	return s.floats, s.ints, s.bools
}

// grownClear returns v at length n, every element zero, reusing its storage when it is
// large enough.
func grownClear[T any](v []T, n int) []T {
	if cap(v) < n {
		return make([]T, n)
	}
	v = v[:n]
	clear(v)
	return v
}

type layouter struct {
	d       *Document
	index   func(int) int
	heights []float64
	placed  []bool
	pins    *pinIndex

	// The trees, as first-child/next-sibling lists: what a node reads (sources) and its
	// children, each in the order they were reached; last* are the tails.
	firstSrc, firstKid, lastSrc, lastKid, sib []int32
	order                                     []int32 // every node, tree by tree, each tree in preorder
	blocks                                    []block
	sizes                                     [][2]float64 // each tree's width and height, in order
	sc                                        *layoutScratch

	relX, relY     []float64 // a node's place in its tree's box
	blockW, blockH []float64 // the box of the subtree of a node
	nodeX          []float64 // where the node sits in its subtree's box
}

// block is one tree: nodes order[start:end], the first being its root.
type block struct {
	start, end int
	x, y       float64
}

// refs calls fn for each node i links to: what it reads (src true), then its children.
func (l *layouter) refs(i int, fn func(j int, src bool)) {
	nd := &l.d.Nodes[i]
	add := func(id int, src bool) {
		if j := l.index(id); j >= 0 {
			fn(j, src)
		}
	}
	for _, q := range nd.Queries {
		add(q, true)
	}
	for k := range nd.Inputs {
		in := &nd.Inputs[k]
		if in.Sources != nil {
			for _, s := range in.Sources {
				if s.Node != nil {
					add(*s.Node, true)
				}
			}
		} else if in.Source != nil && in.Source.Node != nil {
			add(*in.Source.Node, true)
		}
	}
	for k := range nd.Properties {
		if s := nd.Properties[k].Source; s != nil && s.Node != nil {
			add(*s.Node, true)
		}
	}
	for _, c := range nd.Children {
		add(c.Node, false)
	}
}

// trees lays out a tree from each root not placed yet, in order; with jumps, the targets of
// jumps found on the way start trees after them.
func (l *layouter) trees(roots []int, jumps bool) {
	type frame struct{ node, k int }
	var cand []int32 // candidates of the frames on the stack, with a kind bit
	var stack []frame
	var starts []int // where each frame's candidates begin in cand
	for len(roots) > 0 {
		r := roots[0]
		roots = roots[1:]
		if r < 0 || r >= len(l.placed) || l.placed[r] {
			continue
		}
		start := len(l.order)
		push := func(i int) {
			l.placed[i] = true
			l.order = append(l.order, int32(i))
			starts = append(starts, len(cand))
			l.refs(i, func(j int, src bool) {
				v := int32(j) << 1
				if src {
					v |= 1
				}
				cand = append(cand, v)
			})
			if jumps {
				for _, jp := range l.d.Nodes[i].Jumps {
					if j := l.index(jp.Node); j >= 0 {
						roots = append(roots, j)
					}
				}
			}
			stack = append(stack, frame{node: i, k: starts[len(starts)-1]})
		}
		push(r)
		for len(stack) > 0 {
			fr := &stack[len(stack)-1]
			// Skip what a sibling's subtree placed meanwhile.
			for fr.k < len(cand) && l.placed[cand[fr.k]>>1] {
				fr.k++
			}
			if fr.k == len(cand) {
				cand = cand[:starts[len(starts)-1]]
				starts = starts[:len(starts)-1]
				stack = stack[:len(stack)-1]
				continue
			}
			c := cand[fr.k]
			fr.k++
			p, j := fr.node, int(c>>1)
			head, tail := &l.firstKid[p], &l.lastKid[p]
			if c&1 == 1 {
				head, tail = &l.firstSrc[p], &l.lastSrc[p]
			}
			if *head < 0 {
				*head = int32(j)
			} else {
				l.sib[*tail] = int32(j)
			}
			*tail = int32(j)
			push(j)
		}
		l.blocks = append(l.blocks, block{start: start, end: len(l.order)})
	}
}

// pinIndex finds pinned boxes by uniform grid cells.
type pinIndex struct {
	cells map[[2]int32][]int32
	boxes [][4]float64 // by node index; only pinned nodes are set
}

const pinCell = 512.0

func cellOf(v float64) int32 { return int32(math.Floor(v / pinCell)) }

func (p *pinIndex) add(i int, b [4]float64) {
	p.boxes[i] = b
	for cy := cellOf(b[1]); cy <= cellOf(b[3]); cy++ {
		for cx := cellOf(b[0]); cx <= cellOf(b[2]); cx++ {
			k := [2]int32{cx, cy}
			p.cells[k] = append(p.cells[k], int32(i))
		}
	}
}

// lowest returns the bottom of the lowest pinned box that overlaps b, or NaN for none.
func (p *pinIndex) lowest(b [4]float64) float64 {
	bottom := math.NaN()
	if p == nil || len(p.cells) == 0 {
		return bottom
	}
	for cy := cellOf(b[1]); cy <= cellOf(b[3]); cy++ {
		for cx := cellOf(b[0]); cx <= cellOf(b[2]); cx++ {
			for _, i := range p.cells[[2]int32{cx, cy}] {
				o := p.boxes[i]
				if o[0] < b[2] && b[0] < o[2] && o[1] < b[3] && b[1] < o[3] && !(o[3] <= bottom) {
					bottom = o[3]
				}
			}
		}
	}
	return bottom
}

// separatePinned moves each pinned node that overlaps an earlier one down below it, and
// returns the index of the pinned boxes.
func separatePinned(d *Document, heights []float64) *pinIndex {
	p := &pinIndex{cells: map[[2]int32][]int32{}}
	// Where the last node pinned at each place ended up: nodes pinned at one place (a file
	// whose positions are all zero) start below the one before, not at the top of the pile,
	// which would make the work grow with the square of their number.
	last := map[[2]float64]float64{}
	for i := range d.Nodes {
		nd := &d.Nodes[i]
		if !nd.Pinned {
			continue
		}
		if p.boxes == nil {
			p.boxes = make([][4]float64, len(d.Nodes))
		}
		at := [2]float64{nd.X, nd.Y}
		if y, ok := last[at]; ok {
			nd.Y = y
		}
		for {
			b := [4]float64{nd.X, nd.Y, nd.X + NodeWidth, nd.Y + heights[i]}
			bottom := p.lowest(b)
			if math.IsNaN(bottom) || nd.Y >= MaxCoord {
				p.add(i, b)
				break
			}
			nd.Y = min(bottom+gapY, MaxCoord)
		}
		last[at] = nd.Y
	}
	return p
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

// measure sizes every subtree, from the leaves up: what the node reads is stacked at its
// left, right-aligned against it; its children are stacked at its right. A subtree's box
// is as high as the tallest of the node and the two stacks.
func (l *layouter) measure() {
	for k := len(l.order) - 1; k >= 0; k-- {
		i := l.order[k]
		srcW, srcH := l.stack(l.firstSrc[i])
		kidW, kidH := l.stack(l.firstKid[i])
		left := 0.0
		if srcW > 0 {
			left = srcW + gapX
		}
		w := left + NodeWidth
		if kidW > 0 {
			w += gapX + kidW
		}
		l.nodeX[i], l.blockW[i], l.blockH[i] = left, w, max(l.heights[i], srcH, kidH)
	}
}

// stack returns the width and height of the subtrees of a list stacked top to bottom.
func (l *layouter) stack(first int32) (w, h float64) {
	for j := first; j >= 0; j = l.sib[j] {
		if h > 0 {
			h += gapY
		}
		w, h = max(w, l.blockW[j]), h+l.blockH[j]
	}
	return w, h
}

// place sets relX and relY of every node from the root down, each tree's box at (0, 0).
func (l *layouter) place() {
	for _, b := range l.blocks {
		r := l.order[b.start]
		l.relX[r], l.relY[r] = l.nodeX[r], 0
		for _, i := range l.order[b.start:b.end] {
			// The subtree of i has its box's left edge at relX-nodeX and its top at relY.
			x, y := l.relX[i], l.relY[i]
			sy := y
			for j := l.firstSrc[i]; j >= 0; j = l.sib[j] {
				// Right-aligned: the reader's sources end gapX left of it.
				l.relX[j] = x - gapX - l.blockW[j] + l.nodeX[j]
				l.relY[j] = sy
				sy += l.blockH[j] + gapY
			}
			ky := y
			for j := l.firstKid[i]; j >= 0; j = l.sib[j] {
				l.relX[j] = x + NodeWidth + gapX + l.nodeX[j]
				l.relY[j] = ky
				ky += l.blockH[j] + gapY
			}
		}
	}
}

// pack stacks the trees into columns, choosing the column height whose arrangement comes
// closest to the aspect, then places them for real, keeping them off pinned nodes.
func (l *layouter) pack(aspect float64) {
	if len(l.blocks) == 0 {
		return
	}
	l.measure()
	l.place()
	tallest, total := 0.0, 0.0
	for _, b := range l.blocks {
		h := l.blockH[l.order[b.start]]
		tallest = max(tallest, h)
		total += h + gapTrees
	}
	// Taller columns make a narrower arrangement: bisect for the column height where the
	// aspect crosses the one wanted, then keep the closer of the two sides.
	// The bisection packs every tree twenty-odd times: it reads the trees' sizes from one
	// list in tree order, not through the node arrays.
	sizes := l.treeSizes()
	ix, exact := newColumnIndex(sizes, &l.sc.cols)
	score := func(ht float64) float64 {
		var w, h float64
		if exact {
			w, h = ix.size(ht)
		} else {
			w, h = columnSize(sizes, ht)
		}
		return math.Log(w / h / aspect)
	}
	lo, hi := tallest, total
	for k := 0; k < 60 && hi-lo > 1; k++ {
		mid := (lo + hi) / 2
		if score(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	best := lo
	if math.Abs(score(hi)) < math.Abs(score(lo)) {
		best = hi
	}
	l.columns(best, true)
	for _, b := range l.blocks {
		for _, i := range l.order[b.start:b.end] {
			if nd := &l.d.Nodes[i]; !nd.Pinned {
				nd.X, nd.Y = b.x+l.relX[i], b.y+l.relY[i]
			}
		}
	}
}

// columns walks the trees into columns of height ht and returns the width and height of
// the arrangement. With set, it records where each tree goes, moving trees down (or to the
// next column) until none of their automatic nodes overlaps a pinned node.
func (l *layouter) columns(ht float64, set bool) (w, h float64) {
	x, y, colW := 0.0, 0.0, 0.0
	for k := range l.blocks {
		b := &l.blocks[k]
		r := l.order[b.start]
		bw, bh := l.blockW[r], l.blockH[r]
		for {
			if y > 0 && y+bh > ht {
				x, y, colW = x+colW+gapTrees, 0, 0
			}
			if !set {
				break
			}
			bottom := l.hitsPins(b, x, y)
			if math.IsNaN(bottom) || y >= MaxCoord {
				break
			}
			y = max(y, bottom+gapY)
			if colW == 0 {
				continue // an empty column only grows down: the loop ends below every pin
			}
			if y+bh > ht {
				x, y, colW = x+colW+gapTrees, 0, 0
			}
		}
		b.x, b.y = x, y
		colW = max(colW, bw)
		h = max(h, y+bh)
		w = max(w, x+colW)
		y += bh + gapTrees
	}
	return max(w, 1), max(h, 1)
}

// treeSizes lists the width and height of each tree, in order, once measured.
func (l *layouter) treeSizes() [][2]float64 {
	sizes := slices.Grow(l.sizes[:0], len(l.blocks))
	for _, b := range l.blocks {
		r := l.order[b.start]
		sizes = append(sizes, [2]float64{l.blockW[r], l.blockH[r]})
	}
	l.sizes = sizes
	return sizes
}

// columnSize is the width and height of trees of the given sizes in columns of height ht:
// what columns without set returns (without pins every tree goes where it first fits), in
// one pass over a list. Sizes are never negative or NaN, so the comparisons below are the
// max of columns; the width is the last column's right edge, since columns only move right.
func columnSize(sizes [][2]float64, ht float64) (w, h float64) {
	x, y, colW := 0.0, 0.0, 0.0
	for _, s := range sizes {
		bw, bh := s[0], s[1]
		if y > 0 && y+bh > ht {
			x, y, colW = x+colW+gapTrees, 0, 0
		}
		if bw > colW {
			colW = bw
		}
		if y+bh > h {
			h = y + bh
		}
		y += bh + gapTrees
	}
	w = x + colW
	return max(w, 1), max(h, 1)
}

// columnIndex answers columnSize for the many column heights the bisection tries over one
// list of tree sizes, without walking every tree each time: with the trees' tops as running
// sums, a column's last tree is found by bisection (bottoms only grow down the list) and its
// widest from the widest of each run of widestRun trees up to and from each tree (a column
// of the 7,130-node file spans a hundred trees, which a walk tree by tree made most of the
// layout's cost). It takes sums that float64 holds exactly, which then equal columnSize's
// own, tree by tree: whole numbers, as every size a layout makes is.
type columnIndex struct {
	top     []float64 // top[k]: the heights of the trees before k, each with gapTrees
	bottom  []float64 // bottom[k]: top[k] plus tree k's height
	width   []float64
	runTo   []float64 // runTo[k]: the widest of tree k and those before it in its run
	runFrom []float64 // runFrom[k]: the widest of tree k and those after it in its run
}

const widestRun = 32

// newColumnIndex indexes sizes in *buf's storage; false when a size or the total is not a
// whole number below 2^50 (sums of those are exact).
func newColumnIndex(sizes [][2]float64, buf *[]float64) (*columnIndex, bool) {
	n := len(sizes)
	*buf = slices.Grow((*buf)[:0], 5*n+1)[:5*n+1]
	b := *buf
	c := &columnIndex{top: b[:n+1], bottom: b[n+1 : 2*n+1], width: b[2*n+1 : 3*n+1],
		runTo: b[3*n+1 : 4*n+1], runFrom: b[4*n+1:]}
	const limit = 1 << 50
	whole := func(v float64) bool { return v >= 0 && v < limit && v == math.Trunc(v) }
	c.top[0] = 0
	for k, s := range sizes {
		w, h := s[0], s[1]
		if !whole(w) || !whole(h) || c.top[k] >= limit {
			return nil, false
		}
		c.width[k] = w
		c.bottom[k] = c.top[k] + h
		c.top[k+1] = c.bottom[k] + gapTrees
		c.runTo[k] = w
		if k%widestRun != 0 {
			c.runTo[k] = max(w, c.runTo[k-1])
		}
	}
	for k := n - 1; k >= 0; k-- {
		c.runFrom[k] = c.width[k]
		if k+1 < n && (k+1)%widestRun != 0 {
			c.runFrom[k] = max(c.width[k], c.runFrom[k+1])
		}
	}
	return c, c.top[n] < limit
}

// size is columnSize(sizes, ht).
func (c *columnIndex) size(ht float64) (w, h float64) {
	n := len(c.width)
	x, colW := 0.0, 0.0
	for s := 0; s < n; {
		// The column from tree s ends before the first later tree whose bottom, measured
		// from the column's top, is below ht.
		base := c.top[s]
		lo, hi := s+1, n
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if c.bottom[m]-base > ht {
				hi = m
			} else {
				lo = m + 1
			}
		}
		e := lo
		colW = c.widestIn(s, e)
		h = max(h, c.bottom[e-1]-base)
		if e < n {
			x = x + colW + gapTrees
		}
		s = e
	}
	w = x + colW
	return max(w, 1), max(h, 1)
}

// widestIn is the width of the widest of trees s to e-1 (0 for none).
func (c *columnIndex) widestIn(s, e int) float64 {
	m := 0.0
	if s >= e {
		return m
	}
	first, last := s/widestRun, (e-1)/widestRun
	if first == last {
		for ; s < e; s++ {
			m = max(m, c.width[s])
		}
		return m
	}
	// The rest of s's run, the whole runs between (each the widest from its first tree on),
	// and the start of e-1's run.
	m = max(m, c.runFrom[s], c.runTo[e-1])
	for j := first + 1; j < last; j++ {
		m = max(m, c.runFrom[j*widestRun])
	}
	return m
}

// hitsPins returns the bottom of the lowest pinned box an automatic node of the tree would
// overlap with the tree's box at (x, y), or NaN for none.
func (l *layouter) hitsPins(b *block, x, y float64) float64 {
	bottom := math.NaN()
	if l.pins == nil || len(l.pins.cells) == 0 {
		return bottom
	}
	r := l.order[b.start]
	if math.IsNaN(l.pins.lowest([4]float64{x, y, x + l.blockW[r], y + l.blockH[r]})) {
		return bottom
	}
	for _, i := range l.order[b.start:b.end] {
		if l.d.Nodes[i].Pinned {
			continue
		}
		nx, ny := x+l.relX[i], y+l.relY[i]
		if v := l.pins.lowest([4]float64{nx, ny, nx + NodeWidth, ny + l.heights[i]}); !(v <= bottom) && !math.IsNaN(v) {
			bottom = v
		}
	}
	return bottom
}
