package aamp

// Graft gives p, the original document as Read gave it, the edited one's values. The layout
// Read records follows the tree's walk order rather than its pointers, so the edited tree
// replaces the original's whole: Bytes keeps the layout while every structure and value
// still fits it.
func (p *ParameterIO) Graft(edited *ParameterIO) {
	p.Version, p.Type, p.Root = edited.Version, edited.Type, edited.Root
}
