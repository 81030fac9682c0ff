package ainb

// Groups holds an element's lists of one family (properties, inputs, outputs or plugs), one
// list per param type or plug kind K. Most elements have no lists of a family, so the lists
// live in a block of their own that the element points at, and an empty family costs one
// word instead of six slice headers. The zero value has no lists.
//
// Copies of an Element share their blocks: Set and SetAll never write into an existing
// block, they install a new one.
type Groups[K ParamType | PlugKind, T any] struct {
	lists *[groupCount][]T
}

// groupCount is the number of lists in a family: param types and plug kinds both count 6.
const groupCount = NumParamTypes

var _ [groupCount - NumPlugKinds]struct{} // the two counts must stay equal
var _ [NumPlugKinds - groupCount]struct{}

// GroupsOf returns a family holding lists, or the empty family when all lists are empty.
func GroupsOf[K ParamType | PlugKind, T any](lists [groupCount][]T) Groups[K, T] {
	var g Groups[K, T]
	g.SetAll(lists)
	return g
}

// Of is the list of type (or kind) k; nil when it is empty.
func (g Groups[K, T]) Of(k K) []T {
	if g.lists == nil {
		return nil
	}
	return g.lists[k]
}

// Lists returns all lists, in table order.
func (g Groups[K, T]) Lists() [groupCount][]T {
	if g.lists == nil {
		return [groupCount][]T{}
	}
	return *g.lists
}

// Before is the number of entries in the lists before the one of type k: the index in one
// flat list, grouped by type, of entry i of type k is Before(k)+i.
func (g Groups[K, T]) Before(k K) int {
	n := 0
	if g.lists != nil {
		for _, l := range g.lists[:k] {
			n += len(l)
		}
	}
	return n
}

// Len is the number of entries in all lists together.
func (g Groups[K, T]) Len() int {
	n := 0
	if g.lists != nil {
		for _, l := range g.lists {
			n += len(l)
		}
	}
	return n
}

// Empty reports whether every list is empty.
func (g Groups[K, T]) Empty() bool {
	if g.lists != nil {
		for _, l := range g.lists {
			if len(l) > 0 {
				return false
			}
		}
	}
	return true
}

// Set replaces the list of type k. It copies the other lists into a new block, so an
// Element copied before is not changed; to fill several lists, use SetAll once.
func (g *Groups[K, T]) Set(k K, list []T) {
	lists := g.Lists()
	lists[k] = list
	g.SetAll(lists)
}

// SetAll replaces all lists.
func (g *Groups[K, T]) SetAll(lists [groupCount][]T) {
	for _, l := range lists {
		if len(l) > 0 {
			b := new([groupCount][]T)
			*b = lists
			g.lists = b
			return
		}
	}
	g.lists = nil
}

// Blocks hands out family blocks from shared chunks, so code building many elements (the
// reader, the document build) does not allocate one block per element. The zero value is
// ready to use.
type Blocks[T any] struct{ free [][groupCount][]T }

func (p *Blocks[T]) put(lists *[groupCount][]T) *[groupCount][]T {
	for _, l := range lists {
		if len(l) > 0 {
			if len(p.free) == 0 {
				p.free = make([][groupCount][]T, 64)
			}
			b := &p.free[0]
			p.free = p.free[1:]
			*b = *lists
			return b
		}
	}
	return nil
}

// GroupsIn returns a family holding lists (the empty family when all are empty), with its
// block from p.
func GroupsIn[K ParamType | PlugKind, T any](p *Blocks[T], lists *[groupCount][]T) Groups[K, T] {
	return Groups[K, T]{p.put(lists)}
}
