package byml

// The server opens a file, sends its tree to the page, and gets an edited tree back to build;
// it keeps nothing between the two, so the original bytes come with the edit and Graft joins
// them, keeping the original's layout for whatever the edit left alone.

// Graft puts the edited tree into d's nodes (d is the original document, as Read gave it)
// wherever the two have the same shape, so that the preserve mode of Bytes, whose recorded
// layout names nodes by pointer, still finds every node it recorded: an unedited tree gives the original bytes,
// and a value edit that fits the layout changes that value's bytes only. Where the shapes
// differ the edited nodes are used as they are, and Bytes falls back to the canonical
// layout. A node the file shares between parents stays shared while every use of it is
// equal; a use that differs gets its own node.
func (d *Document) Graft(edited *Document) {
	d.Version, d.BigEndian = edited.Version, edited.BigEndian
	if d.Root == nil || edited.Root == nil {
		d.Root = edited.Root
		return
	}
	g := grafter{seen: map[*Node]bool{}}
	d.Root = g.graft(d.Root, edited.Root)
}

type grafter struct{ seen map[*Node]bool }

// graft returns the node to put where o was, holding e's values. Both trees are at most
// byml's nesting depth deep (FromJSON and Read refuse deeper ones).
func (g *grafter) graft(o, e *Node) *Node {
	if o.Kind != e.Kind {
		return e
	}
	if g.seen[o] {
		// Reached again through another parent: already holds the first use's values.
		if Equal(o, e) {
			return o
		}
		return e
	}
	g.seen[o] = true
	switch o.Kind {
	case Array:
		for i := range e.Items {
			if i < len(o.Items) {
				e.Items[i] = g.graft(o.Items[i], e.Items[i])
			}
		}
		o.Items = e.Items
	case Hash, HashMap32, HashMap64:
		if o.KeepOrder || e.KeepOrder {
			// Entries in the file's order, keys maybe repeated: match them by place.
			for i := range e.Entries {
				ee := &e.Entries[i]
				if i < len(o.Entries) && o.Entries[i].Key == ee.Key && o.Entries[i].Hash == ee.Hash {
					ee.Value = g.graft(o.Entries[i].Value, ee.Value)
				}
			}
			o.Entries, o.KeepOrder = e.Entries, e.KeepOrder
			break
		}
		// Both sides are sorted the same way (Read and FromJSON sort or keep the order,
		// others): walk them together, matching entries by key.
		j := 0
		for i := range e.Entries {
			ee := &e.Entries[i]
			for j < len(o.Entries) && entryLess(o.Kind, &o.Entries[j], ee) {
				j++
			}
			if j < len(o.Entries) && o.Entries[j].Key == ee.Key && o.Entries[j].Hash == ee.Hash {
				ee.Value = g.graft(o.Entries[j].Value, ee.Value)
				j++
			}
		}
		o.Entries = e.Entries
	default:
		o.Bits, o.Str, o.Data, o.Align = e.Bits, e.Str, e.Data, e.Align
	}
	return o
}

func entryLess(k Kind, a, b *Entry) bool {
	if k == Hash {
		return a.Key < b.Key
	}
	return a.Hash < b.Hash
}
