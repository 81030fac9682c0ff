// Package preview draws the picture of a shared view that chat servers and forums show
// beside a pasted link (/s/{id}/preview.png), and says in words what the share shows (the
// page's title and description), both from the shared document and the editor's view.
//
// The picture has the editor's look (static/render.js: node boxes with their header colours,
// rows, plugs, links in the legend's colours) and stays readable when shrunk to a chat
// thumbnail: it is drawn at a zoom no smaller than MinScale around the view's centre, node
// titles at a legible size, under a band naming the file and its counts. Its work is bounded
// whatever the share holds: at most MaxNodes nodes and MaxLinks links are drawn, each text is
// cut to a fixed number of characters, and positions and zooms are clamped.
package preview

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"ainbeditor/internal/graph"
)

// View is what the editor saved of its view with the share (static/editor.js viewState):
// the command shown, the world point at the centre of the canvas, the zoom and the selected
// node ids. Fields the share lacks are left at their zero values, with Has* false.
type View struct {
	Command   int // index into the document's commands, -1 for none
	X, Y      float64
	Zoom      float64
	HasCentre bool
	Selection []int // node ids, ascending, at most maxSelection
}

// maxSelection bounds the ids read from a view: a selection is shown as a highlight, and no
// picture highlights more nodes than it draws.
const maxSelection = MaxNodes

// ParseView reads a share's view leniently, as the editor does (static/view.js set): what is
// missing, of the wrong type or not a finite number is ignored, coordinates are clamped to
// ±graph.MaxCoord and the zoom to the editor's range. raw may be empty.
func ParseView(raw []byte) View {
	v := View{Command: -1}
	var m struct {
		Command, X, Y, Zoom json.RawMessage
		Selection           []json.RawMessage
	}
	// A member of the wrong type fails alone; the others are still read.
	_ = json.Unmarshal(raw, &m)
	if c, ok := number(m.Command); ok && c >= 0 && c <= math.MaxInt32 && c == math.Trunc(c) {
		v.Command = int(c)
	}
	x, okx := number(m.X)
	y, oky := number(m.Y)
	z, okz := number(m.Zoom)
	if okx && oky && okz && z > 0 {
		v.X, v.Y = clampCoord(x), clampCoord(y)
		v.Zoom = min(max(z, minZoom), maxZoom)
		v.HasCentre = true
	}
	for _, r := range m.Selection {
		if len(v.Selection) >= maxSelection {
			break
		}
		if id, ok := number(r); ok && id >= 0 && id <= math.MaxInt32 && id == math.Trunc(id) {
			v.Selection = append(v.Selection, int(id))
		}
	}
	slices.Sort(v.Selection)
	v.Selection = slices.Compact(v.Selection)
	return v
}

// The editor's zoom range (static/view.js MIN_ZOOM, MAX_ZOOM).
const (
	minZoom = 0.002
	maxZoom = 4
)

func number(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 || len(raw) > 64 {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

func clampCoord(v float64) float64 { return min(max(v, -graph.MaxCoord), graph.MaxCoord) }
