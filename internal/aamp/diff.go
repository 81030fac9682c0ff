package aamp

import (
	"bytes"
	"fmt"
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/jsontext"
)

// Diff lists the changes that turn a into b: the header ({"version"}, {"type"}) and then the
// tree from param_root, lists and objects matched by name hash, parameters by name, in b's
// order. A step is the name when the names table, the documents' own strings or a numbered
// guess knows it, else the hash as 0x%08x. A name that repeats in one list or object (the
// format allows it) is matched by occurrence: its second use is the step "NAME#2".
//
// Values are the package's JSON form: a parameter's {"hash","name","type","value"}, an
// object's {"hash","name","params"}, a list's {"hash","name","lists","objects"}. A parameter
// whose type changed (an int that became an f32) is one Changed. Parameters are compared by
// their JSON text, so two NaNs with different payloads compare equal.
func Diff(a, b *ParameterIO) []change.Change {
	d := &differ{w: &jsonWriter{nm: NewNamer(b), limit: jsontext.NoLimit}, old: NewNamer(a)}
	if a.Version != b.Version {
		d.out = append(d.out, change.Change{Op: change.Changed, Path: change.Path{"version"},
			Old: strconv.AppendUint(nil, uint64(a.Version), 10), New: strconv.AppendUint(nil, uint64(b.Version), 10)})
	}
	if a.Type != b.Type {
		d.out = append(d.out, change.Change{Op: change.Changed, Path: change.Path{"type"},
			Old: jsontext.AppendString(nil, a.Type), New: jsontext.AppendString(nil, b.Type)})
	}
	d.list(change.Path{"param_root"}, &a.Root, &b.Root)
	return d.out
}

type differ struct {
	w   *jsonWriter
	old *Namer
	out []change.Change
}

// step names h, the index-th child of parent.
func (d *differ) step(h Name, index int, parent Name, nth int) string {
	s, ok := d.w.nm.Name(h, index, parent)
	if !ok {
		s, ok = d.old.Name(h, index, parent)
	}
	if !ok {
		s = fmt.Sprintf("%#08x", uint32(h))
	}
	if nth > 1 {
		s += "#" + strconv.Itoa(nth)
	}
	return s
}

// match pairs the names of two sequences by occurrence: for each element of a, the index of
// its partner in b or -1; nth numbers each element's occurrence of its name.
func match(na, nb []Name) (pair []int, nthA, nthB []int) {
	pair, nthA, nthB = make([]int, len(na)), make([]int, len(na)), make([]int, len(nb))
	where := map[Name][]int{}
	seen := map[Name]int{}
	for j, h := range nb {
		seen[h]++
		nthB[j] = seen[h]
		where[h] = append(where[h], j)
	}
	seen = map[Name]int{}
	for i, h := range na {
		seen[h]++
		nthA[i] = seen[h]
		pair[i] = -1
		if w := where[h]; len(w) >= nthA[i] {
			pair[i] = w[nthA[i]-1]
		}
	}
	return
}

func (d *differ) list(p change.Path, a, b *ParameterList) {
	na, nb := make([]Name, len(a.Lists)), make([]Name, len(b.Lists))
	for i, l := range a.Lists {
		na[i] = l.Name
	}
	for j, l := range b.Lists {
		nb[j] = l.Name
	}
	pair, nthA, nthB := match(na, nb)
	matched := make([]bool, len(nb))
	for i, l := range a.Lists {
		if j := pair[i]; j >= 0 {
			matched[j] = true
			d.list(p.Child(d.step(l.Name, j, b.Name, nthB[j])), l, b.Lists[j])
		} else {
			js, _ := d.w.list(nil, l, i, a.Name)
			d.out = append(d.out, change.Change{Op: change.Removed, Path: p.Child(d.step(l.Name, i, a.Name, nthA[i])), Old: js})
		}
	}
	for j, l := range b.Lists {
		if !matched[j] {
			js, _ := d.w.list(nil, l, j, b.Name)
			d.out = append(d.out, change.Change{Op: change.Added, Path: p.Child(d.step(l.Name, j, b.Name, nthB[j])), New: js})
		}
	}
	na, nb = make([]Name, len(a.Objects)), make([]Name, len(b.Objects))
	for i, o := range a.Objects {
		na[i] = o.Name
	}
	for j, o := range b.Objects {
		nb[j] = o.Name
	}
	pair, nthA, nthB = match(na, nb)
	matched = make([]bool, len(nb))
	for i, o := range a.Objects {
		if j := pair[i]; j >= 0 {
			matched[j] = true
			d.object(p.Child(d.step(o.Name, j, b.Name, nthB[j])), o, b.Objects[j])
		} else {
			d.out = append(d.out, change.Change{Op: change.Removed, Path: p.Child(d.step(o.Name, i, a.Name, nthA[i])), Old: d.objectJSON(o, i, a.Name)})
		}
	}
	for j, o := range b.Objects {
		if !matched[j] {
			d.out = append(d.out, change.Change{Op: change.Added, Path: p.Child(d.step(o.Name, j, b.Name, nthB[j])), New: d.objectJSON(o, j, b.Name)})
		}
	}
}

// objectJSON writes one object as the JSON form's list writer does.
func (d *differ) objectJSON(o *ParameterObject, idx int, parent Name) []byte {
	b := d.w.head(nil, o.Name, idx, parent)
	b = append(b, `,"params":[`...)
	for j := range o.Params {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, d.paramJSON(&o.Params[j], j, o.Name)...)
	}
	return append(b, "]}"...)
}

func (d *differ) paramJSON(p *Parameter, idx int, parent Name) []byte {
	b := d.w.head(nil, p.Name, idx, parent)
	b = append(b, `,"type":`...)
	b = jsontext.AppendString(b, p.Type.String())
	b = append(b, `,"value":`...)
	b, err := d.w.value(b, p)
	if err != nil {
		return []byte("null")
	}
	return append(b, '}')
}

func (d *differ) object(path change.Path, a, b *ParameterObject) {
	na, nb := make([]Name, len(a.Params)), make([]Name, len(b.Params))
	for i := range a.Params {
		na[i] = a.Params[i].Name
	}
	for j := range b.Params {
		nb[j] = b.Params[j].Name
	}
	pair, nthA, nthB := match(na, nb)
	matched := make([]bool, len(nb))
	for i := range a.Params {
		pa := &a.Params[i]
		if j := pair[i]; j >= 0 {
			matched[j] = true
			ja, jb := d.paramJSON(pa, j, b.Name), d.paramJSON(&b.Params[j], j, b.Name)
			if !bytes.Equal(ja, jb) {
				d.out = append(d.out, change.Change{Op: change.Changed, Path: path.Child(d.step(pa.Name, j, b.Name, nthB[j])), Old: ja, New: jb})
			}
		} else {
			d.out = append(d.out, change.Change{Op: change.Removed, Path: path.Child(d.step(pa.Name, i, a.Name, nthA[i])), Old: d.paramJSON(pa, i, a.Name)})
		}
	}
	for j := range b.Params {
		if !matched[j] {
			d.out = append(d.out, change.Change{Op: change.Added, Path: path.Child(d.step(b.Params[j].Name, j, b.Name, nthB[j])), New: d.paramJSON(&b.Params[j], j, b.Name)})
		}
	}
}
