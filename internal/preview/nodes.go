package preview

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"ainbeditor/internal/graph"
)

// nodes draws the visible nodes part by part, each part for all of them with one fill per
// colour (as render.js drawFull does for nodes apart from one another): bodies, headers,
// row stripes, borders, plugs, then the texts.
func (r *renderer) nodes() {
	s := r.f.s
	pw := float32(graph.NodeWidth * s)
	hh := float32(graph.HeaderHeight * s)
	rad := float32(6 * s)
	p := &r.pt.path
	_, wy0, _, wy1 := r.f.world()

	for _, i := range r.vis {
		n := &r.doc.Nodes[i]
		p.roundRect(float32(r.f.x(n.X)), float32(r.f.y(n.Y)), pw, float32(graph.NodeHeight(n)*s), rad, false, false)
	}
	r.pt.fill(colBody)

	byHeader := map[color.NRGBA][]int{}
	var headerOrder []color.NRGBA
	for _, i := range r.vis {
		c := headerColor(&r.doc.Nodes[i])
		if _, ok := byHeader[c]; !ok {
			headerOrder = append(headerOrder, c)
		}
		byHeader[c] = append(byHeader[c], i)
	}
	for _, c := range headerOrder {
		for _, i := range byHeader[c] {
			n := &r.doc.Nodes[i]
			p.roundRect(float32(r.f.x(n.X)), float32(r.f.y(n.Y)), pw, hh, rad, true, false)
		}
		r.pt.fill(c)
	}

	// The rows in sight of each node: a node of a million rows draws a picture's worth.
	inSight := make([][2]int, len(r.vis))
	for k, i := range r.vis {
		n := &r.doc.Nodes[i]
		total := rowCount(n)
		first := int(math.Max(0, math.Floor((wy0-n.Y-graph.HeaderHeight)/graph.RowHeight)))
		last := int(math.Min(float64(total), math.Ceil((wy1-n.Y-graph.HeaderHeight)/graph.RowHeight)))
		inSight[k] = [2]int{first, last}
		for row := first | 1; row < last; row += 2 {
			y := float32(r.f.y(n.Y + graph.HeaderHeight + float64(row)*graph.RowHeight))
			p.rect(float32(r.f.x(n.X))+1, y, pw-2, float32(graph.RowHeight*s))
		}
	}
	r.pt.fill(colStripe)

	// Borders: a ring between the box grown and shrunk by half the line's width.
	ring := func(n *graph.Node, lw float32) {
		x, y, h := float32(r.f.x(n.X)), float32(r.f.y(n.Y)), float32(graph.NodeHeight(n)*s)
		p.roundRect(x-lw/2, y-lw/2, pw+lw, h+lw, rad+lw/2, false, false)
		p.roundRect(x+lw/2, y+lw/2, pw-lw, h-lw, max(0, rad-lw/2), false, true)
	}
	for _, i := range r.vis {
		if n := &r.doc.Nodes[i]; !r.selected[n.ID] {
			ring(n, float32(max(1, s)))
		}
	}
	r.pt.fill(colBorder)
	for _, i := range r.vis {
		if n := &r.doc.Nodes[i]; r.selected[n.ID] {
			ring(n, float32(max(2, 2.5*s)))
		}
	}
	r.pt.fill(colSelect)

	r.plugs(inSight)
	r.texts(inSight)
}

func rowCount(n *graph.Node) int {
	return len(n.Properties) + max(len(n.Inputs), len(n.Outputs)) + len(n.Children) + len(n.Jumps) + len(n.Attachments)
}

// plugs draws each row's plugs and property marks: a disc on the left edge per input (a
// ring when no node feeds it), on the right per output, child and jump.
func (r *renderer) plugs(rows [][2]int) {
	s := r.f.s
	rad := float32(max(2.5, 4.2*s))
	lw := float32(max(1, 1.5*s))
	discs := map[color.NRGBA]*path{}
	var order []color.NRGBA
	disc := func(c color.NRGBA) *path {
		p, ok := discs[c]
		if !ok {
			p = &path{}
			p.reset()
			discs[c] = p
			order = append(order, c)
		}
		return p
	}
	open := &path{}
	open.reset()
	for k, i := range r.vis {
		n := &r.doc.Nodes[i]
		x0, x1 := float32(r.f.x(n.X)), float32(r.f.x(n.X+graph.NodeWidth))
		for row := rows[k][0]; row < rows[k][1]; row++ {
			cy := float32(r.f.y(rowY(n, row)))
			at := rowAt(n, row)
			switch at.kind {
			case rowProperty:
				disc(typeColor(n.Properties[at.a].Type)).rect(x0+float32(4*s), cy-float32(3*s), float32(max(1.5, 3*s)), float32(6*s))
			case rowIO:
				if at.a >= 0 {
					in := &n.Inputs[at.a]
					c := typeColor(in.Type)
					if fedByNode(in) {
						disc(c).circle(x0, cy, rad, false)
					} else {
						open.circle(x0, cy, rad, false)
						disc(c).circle(x0, cy, rad+lw/2, false)
						disc(c).circle(x0, cy, rad-lw/2, true)
					}
				}
				if at.b >= 0 {
					disc(typeColor(n.Outputs[at.b].Type)).circle(x1, cy, rad, false)
				}
			case rowChild:
				disc(colChild).circle(x1, cy, rad, false)
				if n.Children[at.a].Node == graph.NoNode {
					r.stub(disc(colWarn), x1, cy)
				}
			case rowJump:
				disc(colJump).circle(x1, cy, rad, false)
			}
		}
	}
	r.pt.fillPath(open, colBody)
	for _, c := range order {
		r.pt.fillPath(discs[c], c)
	}
}

// stub is the dashed stub of a child that leads to no node, ending in a ring (render.js
// drawStubs), drawn solid at this size.
func (r *renderer) stub(p *path, x, y float32) {
	s := float32(r.f.s)
	l, rad, lw := 40*s, 6*s, max(1.5, 1.5*s)
	p.rect(x, y-lw/2, l-rad, lw)
	p.circle(x+l, y, rad+lw/2, false)
	p.circle(x+l, y, rad-lw/2, true)
}

func fedByNode(in *graph.Input) bool {
	if in.Sources != nil {
		for k := range in.Sources {
			if in.Sources[k].Node != nil {
				return true
			}
		}
		return false
	}
	return in.Source != nil && in.Source.Node != nil
}

// Kinds of rows (metrics.js rowAt).
const (
	rowProperty = iota
	rowIO
	rowChild
	rowJump
	rowAttachment
)

// rowKind is what row r of a node holds: a property, input and output (a, b; -1 for none),
// child, jump or attachment (a).
type rowKind struct{ kind, a, b int }

func rowAt(n *graph.Node, r int) rowKind {
	props, io := len(n.Properties), max(len(n.Inputs), len(n.Outputs))
	switch {
	case r < props:
		return rowKind{rowProperty, r, -1}
	case r < props+io:
		k := r - props
		in, out := -1, -1
		if k < len(n.Inputs) {
			in = k
		}
		if k < len(n.Outputs) {
			out = k
		}
		return rowKind{rowIO, in, out}
	}
	r -= props + io
	if r < len(n.Children) {
		return rowKind{rowChild, r, -1}
	}
	r -= len(n.Children)
	if r < len(n.Jumps) {
		return rowKind{rowJump, r, -1}
	}
	return rowKind{rowAttachment, r - len(n.Jumps), -1}
}

// texts writes the titles, ids and, where the scale leaves them readable, the rows' texts
// (render.js prepareRow).
func (r *renderer) texts(rows [][2]int) {
	s := r.f.s
	pw := graph.NodeWidth * s
	showRows := r.row != nil && 12*s >= 7.5
	showIDs := s >= 0.8
	for k, i := range r.vis {
		n := &r.doc.Nodes[i]
		x, y := r.f.x(n.X), r.f.y(n.Y)
		mid := y + graph.HeaderHeight*s/2
		room := pw - 18
		if showIDs {
			id := "#" + strconv.Itoa(n.ID)
			room -= r.ids.draw(r.img, id, x+pw-8, r.ids.middle(mid), 2, colIDs) + 8
		}
		r.title.draw(r.img, r.title.fit(nodeClass(n), room), x+9*s, r.title.middle(mid), 0, colText)
		if !showRows {
			continue
		}
		for row := rows[k][0]; row < rows[k][1]; row++ {
			r.rowText(n, row, x, r.row.middle(r.f.y(rowY(n, row))))
		}
	}
}

// rowText writes row row of node n, whose box starts at x, on baseline y.
func (r *renderer) rowText(n *graph.Node, row int, x, y float64) {
	s := r.f.s
	w := graph.NodeWidth * s
	f := r.row
	left := func(text string, room float64, c color.Color) float64 {
		return f.draw(r.img, f.fit(text, room), x+12*s, y, 0, c)
	}
	right := func(text string, room float64, c color.Color) {
		f.draw(r.img, f.fit(text, room), x+w-12*s, y, 2, c)
	}
	at := rowAt(n, row)
	switch at.kind {
	case rowProperty:
		p := &n.Properties[at.a]
		lw := left(p.Name, w*0.5-14*s, colMuted)
		val, c := r.sourceText(p.Source, p.Type, p.Value, p.ClassName)
		right(val, w-24*s-lw-10*s, c)
	case rowIO:
		half := w*0.5 - 18*s
		if at.a >= 0 {
			in := &n.Inputs[at.a]
			name := in.Name
			if in.Sources != nil {
				name += " [" + strconv.Itoa(len(in.Sources)) + "]"
			}
			room := w * 0.45
			if at.b >= 0 {
				room = half
			}
			lw := left(name, room, colText)
			if in.Sources == nil && !fedByNode(in) {
				val, c := r.sourceText(in.Source, in.Type, in.Value, in.ClassName)
				if c == colText {
					c = colMuted
				}
				if rest := room - lw - 8*s; rest > 20*s {
					f.draw(r.img, f.fit(val, rest), x+12*s+lw+5*s, y, 0, c)
				}
			}
		}
		if at.b >= 0 {
			right(n.Outputs[at.b].Name, half, colText)
		}
	case rowChild:
		c := &n.Children[at.a]
		name := c.Name
		if name == "" {
			name = "child"
		}
		left(name, w*0.45, colText)
		def := (n.Type == "S32Selector" || n.Type == "F32Selector" || n.Type == "StringSelector") && at.a == len(n.Children)-1
		if cond := conditionText(r.doc, c.Condition, def); cond != "" {
			right(cond, w*0.5-18*s, colCond)
		} else if c.Node == graph.NoNode {
			right("→ no node", w*0.5-18*s, colMuted)
		} else {
			right("→ #"+strconv.Itoa(c.Node), w*0.5-18*s, colMuted)
		}
	case rowJump:
		j := &n.Jumps[at.a]
		label := "jump type " + strconv.Itoa(j.Type)
		if j.Command != "" {
			label = "jump → " + j.Command
		}
		left(label, w-60*s, colJump)
		right("#"+strconv.Itoa(j.Node), 50*s, colMuted)
	case rowAttachment:
		ref := n.Attachments[at.a]
		name := "attachment " + strconv.Itoa(ref)
		if ref >= 0 && ref < len(r.doc.Attachments) {
			name = r.doc.Attachments[ref].Name
		}
		left("• "+name, w-60*s, colMuted)
	}
}

// sourceText is what a property or input shows of its value: the expression or blackboard
// parameter it reads, else the immediate value.
func (r *renderer) sourceText(src *graph.Source, t graph.ValueType, v graph.Value, class string) (string, color.NRGBA) {
	if src != nil {
		switch {
		case src.Node != nil:
			return "", colText
		case src.Blackboard != nil:
			return r.blackboard(*src.Blackboard, src.Component), colBlackbrd
		case src.Expression != nil:
			return "ƒ" + strconv.Itoa(*src.Expression), colExpr
		}
	}
	return formatValue(t, v, class), colText
}

func (r *renderer) blackboard(k int, component string) string {
	comp := ""
	if component != "" {
		comp = "." + component
	}
	if k >= 0 && k < len(r.doc.Blackboard) {
		return "$" + r.doc.Blackboard[k].Name + comp
	}
	return "$#" + strconv.Itoa(k) + comp
}

// formatValue is an immediate value as the editor shows it (model.js formatValue).
func formatValue(t graph.ValueType, v graph.Value, class string) string {
	switch t {
	case "int":
		return strconv.FormatInt(v.Int, 10)
	case "u32":
		return strconv.FormatUint(uint64(uint32(v.Int)), 10)
	case "bool":
		if v.Int != 0 {
			return "true"
		}
		return "false"
	case "float":
		return formatFloat(v.Float)
	case "string":
		return strconv.Quote(cut(v.String, maxRunes))
	case "vec3f":
		return "(" + formatFloat(v.Vec[0]) + ", " + formatFloat(v.Vec[1]) + ", " + formatFloat(v.Vec[2]) + ")"
	case "pointer":
		if class == "" {
			return "ptr"
		}
		if k := strings.LastIndex(class, "::"); k >= 0 {
			return class[k+2:]
		}
		return class
	}
	return ""
}

func formatFloat(f graph.Float) string {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsNaN(v):
		return "NaN"
	case v == 0 && math.Signbit(v):
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 32)
}

// cut is s within n bytes, on a character boundary: a megabyte string value is not quoted
// whole to show its first characters.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// conditionText is a selector child's condition (model.js conditionText), "" for none.
func conditionText(doc *graph.Document, c *graph.Condition, isDefault bool) string {
	if isDefault {
		return "default"
	}
	if c == nil {
		return ""
	}
	bb := func(k int) string {
		if k >= 0 && k < len(doc.Blackboard) {
			return "$" + doc.Blackboard[k].Name
		}
		return "$#" + strconv.Itoa(k)
	}
	bound := func(v *graph.Float, b *int) string {
		if b != nil {
			return bb(*b)
		}
		if v == nil {
			return "0"
		}
		return formatFloat(*v)
	}
	switch {
	case c.Min != nil || c.Max != nil || c.MinBlackboard != nil || c.MaxBlackboard != nil:
		return "[" + bound(c.Min, c.MinBlackboard) + ", " + bound(c.Max, c.MaxBlackboard) + "]"
	case c.Weight != nil:
		return "w " + bound(c.Weight, c.Blackboard)
	case c.String != nil:
		return "== " + strconv.Quote(cut(*c.String, maxRunes))
	case c.Blackboard != nil:
		return "== " + bb(*c.Blackboard)
	case c.Int != nil:
		return "== " + strconv.Itoa(int(*c.Int))
	}
	return ""
}
