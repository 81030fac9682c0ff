package byml

import (
	"encoding/binary"
	"hash/fnv"
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/jsontext"
)

// maxEditDistance bounds the Myers search that aligns two arrays: past this many inserted
// and removed elements (after the common head and tail are set aside) the remaining middle
// is paired by position instead. The search keeps one diagonal vector per step, so its
// memory is at most about maxEditDistance² ints (8 MB), whatever the arrays' lengths.
const maxEditDistance = 1000

// DiffDocuments lists the changes from a to b: the header first (path {"version"} or
// {"bigEndian"}, when they differ), then the tree's (see Diff).
func DiffDocuments(a, b *Document) []change.Change {
	out, _ := DiffDocumentsLimit(a, b, jsontext.NoLimit)
	return out
}

// DiffDocumentsLimit is DiffDocuments stopping with a *jsontext.TooLargeError once the
// changes' paths and values pass about limit bytes. A file can share one subtree at many
// places, and a change inside it is then a change at every place: without a budget, a small
// file could list more changes than memory holds.
func DiffDocumentsLimit(a, b *Document, limit int) ([]change.Change, error) {
	var out []change.Change
	if a.Version != b.Version {
		out = append(out, change.Change{Op: change.Changed, Path: change.Path{"version"},
			Old: strconv.AppendUint(nil, uint64(a.Version), 10), New: strconv.AppendUint(nil, uint64(b.Version), 10)})
	}
	if a.BigEndian != b.BigEndian {
		out = append(out, change.Change{Op: change.Changed, Path: change.Path{"bigEndian"},
			Old: strconv.AppendBool(nil, a.BigEndian), New: strconv.AppendBool(nil, b.BigEndian)})
	}
	d := newDiffer(limit)
	d.out = out
	d.node(nil, a.Root, b.Root, 0)
	return d.out, d.err
}

// Diff lists the changes that turn the tree a into b, in document order, each value in the
// package's JSON form (the node objects of ToJSON).
//
// Hash members are matched by key (hash maps by hash, the step the decimal hash), so a key
// added or removed is one change. Array elements are aligned: a Myers diff over subtree
// hashes (after the common head and tail) finds the elements kept, so an inserted element is
// one Added change rather than a change of every later one. Between two kept elements, the
// removed and inserted elements are paired in order and each pair is diffed inside (an edited
// element shows as changes within it); the rest are Added or Removed. An array step is the
// element's index in b for Added and Changed, in a for Removed. Past maxEditDistance the
// alignment gives up and pairs the middle by position, keeping the work bounded.
//
// A kind that differs (an int that became a float) is one Changed at that place. A hash
// marked KeepOrder on either side, whose keys may repeat, is compared whole: one Changed.
func Diff(a, b *Node) []change.Change {
	d := newDiffer(jsontext.NoLimit)
	d.node(nil, a, b, 0)
	return d.out
}

type differ struct {
	out    []change.Change
	hashes map[*Node]uint64
	same   map[[2]*Node]bool
	limit  int   // the budget of the changes' (or conflicts') text
	left   int   // what is left of it
	err    error // the budget ran out: the walk stops
}

func newDiffer(limit int) *differ {
	return &differ{hashes: map[*Node]uint64{}, same: map[[2]*Node]bool{}, limit: limit, left: limit}
}

// nodeJSON is n in the JSON form; shared nodes inside n get ids and refs local to it.
func nodeJSON(n *Node) []byte {
	return newDiffer(jsontext.NoLimit).json(n)
}

// json is n in the JSON form within what is left of the budget (nil once it is spent).
func (d *differ) json(n *Node) []byte {
	if n == nil {
		return []byte("null")
	}
	if d.err != nil {
		return nil
	}
	w := &jsonWriter{limit: d.left}
	if n.Kind.IsContainer() { // only a container can share what it holds
		w.ids, w.uses = map[*Node]int{}, uses(n)
	}
	b, err := w.node(nil, n, 0)
	if _, ok := err.(*jsontext.TooLargeError); ok {
		d.err = &jsontext.TooLargeError{Limit: d.limit}
		return nil
	}
	if err != nil {
		return []byte("null")
	}
	return b
}

// charge takes a change's or conflict's size from the budget, false (and the walk stops)
// once it is spent. A step costs what it holds in memory, not only in the reply: its
// string header, and as much again for the paths of the places walked to reach it (a deep
// path is copied at every level), so the walk's memory stays a small multiple of the budget.
func (d *differ) charge(p change.Path, values ...[]byte) bool {
	if d.err != nil {
		return false
	}
	cost := 64
	for _, s := range p {
		cost += len(s) + 36
	}
	for _, v := range values {
		cost += len(v)
	}
	if cost > d.left {
		d.err = &jsontext.TooLargeError{Limit: d.limit, Where: p.String()}
		return false
	}
	d.left -= cost
	return true
}

// add lists a change, within the budget.
func (d *differ) add(c change.Change) {
	if d.charge(c.Path, c.Old, c.New) {
		d.out = append(d.out, c)
	}
}

// equal compares two subtrees: their hashes first, which decide every unequal pair at once,
// then, for equal hashes, the values themselves (a hash can collide), remembering only pairs
// confirmed equal, so a shared subtree is confirmed once.
func (d *differ) equal(a, b *Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || d.hash(a, 0) != d.hash(b, 0) {
		return false
	}
	if !equal(a, b, d.same) {
		// A collision: equal's marks of this comparison are not all true, so drop them all.
		d.same = map[[2]*Node]bool{}
		return false
	}
	return true
}

func (d *differ) node(p change.Path, a, b *Node, depth int) {
	if d.err != nil || d.equal(a, b) {
		return
	}
	if a == nil || b == nil || a.Kind != b.Kind || !a.Kind.IsContainer() || a.KeepOrder || b.KeepOrder || depth > 1024 {
		d.add(change.Change{Op: change.Changed, Path: p, Old: d.json(a), New: d.json(b)})
		return
	}
	if a.Kind == Array {
		d.array(p, a.Items, b.Items, depth)
		return
	}
	i, j := 0, 0
	for i < len(a.Entries) || j < len(b.Entries) {
		switch {
		case j == len(b.Entries) || i < len(a.Entries) && entryBefore(a.Kind, &a.Entries[i], &b.Entries[j]):
			d.add(change.Change{Op: change.Removed, Path: p.Child(entryStep(a, &a.Entries[i])), Old: d.json(a.Entries[i].Value)})
			i++
		case i == len(a.Entries) || entryBefore(a.Kind, &b.Entries[j], &a.Entries[i]):
			d.add(change.Change{Op: change.Added, Path: p.Child(entryStep(b, &b.Entries[j])), New: d.json(b.Entries[j].Value)})
			j++
		default:
			d.node(p.Child(entryStep(a, &a.Entries[i])), a.Entries[i].Value, b.Entries[j].Value, depth+1)
			i++
			j++
		}
	}
}

func entryStep(n *Node, e *Entry) string {
	if n.Kind == Hash {
		return e.Key
	}
	return strconv.FormatUint(e.Hash, 10)
}

// array diffs two arrays' items, aligned.
func (d *differ) array(p change.Path, a, b []*Node, depth int) {
	ha, hb := d.hashAll(a), d.hashAll(b)
	// Common head and tail: most edits touch few elements of a long array.
	head := 0
	for head < len(a) && head < len(b) && ha[head] == hb[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && ha[len(a)-1-tail] == hb[len(b)-1-tail] {
		tail++
	}
	for k := 0; k < head; k++ {
		d.node(p.Child(strconv.Itoa(k)), a[k], b[k], depth+1)
	}
	keep := myers(ha[head:len(a)-tail], hb[head:len(b)-tail], maxEditDistance)
	i, j := head, head
	gap := func(ei, ej int) {
		// Pair the removed and inserted elements between two kept ones in order.
		for i < ei && j < ej {
			d.node(p.Child(strconv.Itoa(j)), a[i], b[j], depth+1)
			i++
			j++
		}
		for ; i < ei; i++ {
			d.add(change.Change{Op: change.Removed, Path: p.Child(strconv.Itoa(i)), Old: d.json(a[i])})
		}
		for ; j < ej; j++ {
			d.add(change.Change{Op: change.Added, Path: p.Child(strconv.Itoa(j)), New: d.json(b[j])})
		}
	}
	for _, m := range keep {
		gap(head+m[0], head+m[1])
		d.node(p.Child(strconv.Itoa(j)), a[i], b[j], depth+1) // equal hashes: nothing, unless they collide
		i++
		j++
	}
	gap(len(a)-tail, len(b)-tail)
	for ; i < len(a); i++ {
		d.node(p.Child(strconv.Itoa(j)), a[i], b[j], depth+1)
		j++
	}
}

func (d *differ) hashAll(ns []*Node) []uint64 {
	h := make([]uint64, len(ns))
	for i, n := range ns {
		h[i] = d.hash(n, 0)
	}
	return h
}

// hash is a 64-bit FNV-1a digest of a subtree, computed once per node (a shared subtree
// once in all), so hashing a tree costs its node count.
func (d *differ) hash(n *Node, depth int) uint64 {
	if n == nil {
		return 0
	}
	if h, ok := d.hashes[n]; ok {
		return h
	}
	f := fnv.New64a()
	var w [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(w[:], v); f.Write(w[:]) }
	put(uint64(n.Kind))
	bits := n.Bits
	switch n.Kind {
	case Bool:
		if bits != 0 {
			bits = 1
		}
	case Int, Float, UInt:
		bits = uint64(uint32(bits))
	}
	put(bits)
	put(uint64(len(n.Str)))
	f.Write([]byte(n.Str))
	put(uint64(len(n.Data)))
	f.Write(n.Data)
	put(uint64(n.Align))
	if depth < 1024 {
		for _, it := range n.Items {
			put(d.hash(it, depth+1))
		}
		for _, e := range n.Entries {
			put(uint64(len(e.Key)))
			f.Write([]byte(e.Key))
			put(e.Hash)
			put(d.hash(e.Value, depth+1))
		}
	}
	h := f.Sum64()
	d.hashes[n] = h
	return h
}

// myers returns the pairs (i, j) of elements a[i] == b[j] kept by a shortest edit script,
// in order, or none (everything paired by position) when more than max edits are needed.
// It keeps the diagonal vector of every step, trimmed to the diagonals reachable at that
// step, so memory is O(D²) for D edits, not O(len(a)·len(b)).
func myers(a, b []uint64, max int) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	if max > n+m {
		max = n + m
	}
	var trace [][]int // trace[d][k+d] = furthest x on diagonal k after d edits
	prev := []int{0}
	for dd := 0; dd <= max; dd++ {
		v := make([]int, 2*dd+1)
		for k := -dd; k <= dd; k += 2 {
			var x int
			get := func(k int) int { return prev[k+dd-1] } // index into the previous step
			if dd == 0 {
				x = 0
			} else if k == -dd || k != dd && get(k-1) < get(k+1) {
				x = get(k + 1)
			} else {
				x = get(k-1) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[k+dd] = x
			if x >= n && y >= m {
				trace = append(trace, v)
				return backtrack(trace, a, b)
			}
		}
		trace = append(trace, v)
		prev = v
	}
	return nil
}

// backtrack walks the trace from the end, collecting the kept pairs.
func backtrack(trace [][]int, a, b []uint64) [][2]int {
	var keep [][2]int
	x, y := len(a), len(b)
	for dd := len(trace) - 1; dd >= 0; dd-- {
		k := x - y
		var px int
		var pk int
		if dd == 0 {
			for x > 0 && y > 0 {
				x--
				y--
				keep = append(keep, [2]int{x, y})
			}
			break
		}
		prev := trace[dd-1]
		get := func(k int) int { return prev[k+dd-1] }
		if k == -dd || k != dd && get(k-1) < get(k+1) {
			pk = k + 1
			px = get(pk)
		} else {
			pk = k - 1
			px = get(pk) + 1
		}
		py := px - k
		for x > px && y > py {
			x--
			y--
			keep = append(keep, [2]int{x, y})
		}
		x, y = get(pk), get(pk)-pk
	}
	for l, r := 0, len(keep)-1; l < r; l, r = l+1, r-1 {
		keep[l], keep[r] = keep[r], keep[l]
	}
	return keep
}
