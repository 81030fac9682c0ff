package aamp

import (
	"bytes"
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/jsontext"
)

// Merge merges two edited versions of base, three ways, as byml.Merge does: a place changed
// on one side takes that side's value, the same change on both sides is made once, and a
// place changed differently on each side is a conflict with the three values (JSON form, nil
// where absent). With change.NoPreference any conflict means no document; change.Ours and
// change.Theirs settle every conflict for that side and still list them.
//
// Lists, objects and parameters are matched by name (and occurrence, as in Diff) and merge
// inside when both sides changed one. The merged members come in ours's order, then the
// members only theirs added, in theirs's order. The header's version and type merge as values.
func Merge(base, ours, theirs *ParameterIO, prefer change.Prefer) (*ParameterIO, []change.Conflict, error) {
	return MergeSettling(base, ours, theirs, prefer.Everywhere())
}

// MergeSettling is Merge with each conflict settled on its own (change.Settle); the archive
// is nil while any conflict is left open.
func MergeSettling(base, ours, theirs *ParameterIO, settle change.Settle) (*ParameterIO, []change.Conflict, error) {
	m := &merger{d: &differ{w: &jsonWriter{nm: NewNamer(ours), limit: jsontext.NoLimit}, old: NewNamer(base)}, Conflicts: change.Conflicts{Settle: settle}}
	out := &ParameterIO{Version: ours.Version, Type: ours.Type}
	if v, ok := change.Pick(base.Version, ours.Version, theirs.Version); ok {
		out.Version = v
	} else {
		f := func(v uint32) []byte { return strconv.AppendUint(nil, uint64(v), 10) }
		if m.Record(change.Path{"version"}, f(base.Version), f(ours.Version), f(theirs.Version)) == change.Theirs {
			out.Version = theirs.Version
		}
	}
	if v, ok := change.Pick(base.Type, ours.Type, theirs.Type); ok {
		out.Type = v
	} else {
		f := func(v string) []byte { return jsontext.AppendString(nil, v) }
		if m.Record(change.Path{"type"}, f(base.Type), f(ours.Type), f(theirs.Type)) == change.Theirs {
			out.Type = theirs.Type
		}
	}
	out.Root = *m.list(change.Path{"param_root"}, &base.Root, &ours.Root, &theirs.Root)
	if m.Open {
		return nil, m.List, nil
	}
	return out, m.List, nil
}

type merger struct {
	d *differ
	change.Conflicts
}

type key struct {
	name Name
	nth  int
}

// members merges three sequences of named members: text gives a member's JSON form (nil for
// none), inside merges a member present and changed on all three sides, or reports false
// when it cannot (parameters).
func members[T any](m *merger, p change.Path, parent Name, b, o, t []T, name func(T) Name, text func(T) []byte,
	inside func(change.Path, T, T, T) (T, bool)) []T {
	index := func(s []T) (map[key]T, []key) {
		idx, keys, seen := map[key]T{}, make([]key, len(s)), map[Name]int{}
		for i, x := range s {
			seen[name(x)]++
			keys[i] = key{name(x), seen[name(x)]}
			idx[keys[i]] = x
		}
		return idx, keys
	}
	ib, _ := index(b)
	io, ko := index(o)
	it, kt := index(t)
	var out []T
	var order []key
	order = append(order, ko...)
	for _, k := range kt {
		if _, ok := io[k]; !ok {
			order = append(order, k)
		}
	}
	for _, k := range order {
		vb, hb := ib[k]
		vo, ho := io[k]
		vt, ht := it[k]
		tb, to, tt := optText(hb, vb, text), optText(ho, vo, text), optText(ht, vt, text)
		var v T
		var keep bool
		switch {
		case bytes.Equal(to, tt), bytes.Equal(tb, tt):
			v, keep = vo, ho
		case bytes.Equal(tb, to):
			v, keep = vt, ht
		default:
			ok := false
			if hb && ho && ht {
				step := m.d.step(k.name, 0, parent, k.nth)
				v, ok = inside(p.Child(step), vb, vo, vt)
				keep = true
			}
			if !ok {
				v, keep = vo, ho
				if m.Record(p.Child(m.d.step(k.name, 0, parent, k.nth)), tb, to, tt) == change.Theirs {
					v, keep = vt, ht
				}
			}
		}
		if keep {
			out = append(out, v)
		}
	}
	return out
}

func optText[T any](has bool, v T, text func(T) []byte) []byte {
	if !has {
		return nil
	}
	return text(v)
}

func (m *merger) list(p change.Path, b, o, t *ParameterList) *ParameterList {
	out := &ParameterList{Name: o.Name}
	out.Lists = members(m, p, o.Name, b.Lists, o.Lists, t.Lists,
		func(l *ParameterList) Name { return l.Name },
		func(l *ParameterList) []byte { js, _ := m.d.w.list(nil, l, 0, 0); return js },
		func(p change.Path, b, o, t *ParameterList) (*ParameterList, bool) { return m.list(p, b, o, t), true })
	out.Objects = members(m, p, o.Name, b.Objects, o.Objects, t.Objects,
		func(x *ParameterObject) Name { return x.Name },
		func(x *ParameterObject) []byte { return m.d.objectJSON(x, 0, 0) },
		func(p change.Path, b, o, t *ParameterObject) (*ParameterObject, bool) {
			return &ParameterObject{Name: o.Name, Params: members(m, p, o.Name, b.Params, o.Params, t.Params,
				func(x Parameter) Name { return x.Name },
				func(x Parameter) []byte { return m.d.paramJSON(&x, 0, 0) },
				func(change.Path, Parameter, Parameter, Parameter) (Parameter, bool) { return Parameter{}, false })}, true
		})
	return out
}
