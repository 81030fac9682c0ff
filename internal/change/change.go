// Package change is the vocabulary every diff and merge in the project speaks: a change at a
// place between two versions of a file, and a conflict where a three-way merge found two
// different changes to one place. The AINB document diff (internal/diff) and the BYML and AAMP
// tree diffs (in their own packages) all report in these terms, so the CLI and the server
// print, count and send them one way.
//
// The package holds data and its text forms only: it must never know a format, read a file or
// decide how a change is found.
package change

import (
	"fmt"
	"strings"

	"ainbeditor/internal/jsontext"
)

// Op says what happened at a place.
type Op uint8

const (
	Added   Op = iota + 1 // the place exists only in the new version
	Removed               // the place exists only in the old version
	Changed               // the place exists in both with different values
)

func (o Op) String() string {
	switch o {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Changed:
		return "changed"
	}
	return "op?"
}

// Sign is the one-character mark a readable diff puts before a change.
func (o Op) Sign() byte {
	switch o {
	case Added:
		return '+'
	case Removed:
		return '-'
	case Changed:
		return '~'
	}
	return '?'
}

// Path names a place in a file, outermost step first, in the format's own vocabulary:
// {"node 12 (Root)", "property Speed"} in an AINB document, {"Actors", "3", "Name"} in a BYML
// tree. Steps are readable text; a step may contain '/', which String escapes as "~1" (and '~'
// as "~0"), as a JSON pointer does, so a printed path reads back unambiguously.
type Path []string

// String joins the steps with '/', escaping as a JSON pointer does.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}

// Child returns p with one more step, never sharing p's backing array, so paths built from
// one parent in a loop do not overwrite each other.
func (p Path) Child(step string) Path {
	q := make(Path, len(p)+1)
	copy(q, p)
	q[len(p)] = step
	return q
}

// Prefer says how a three-way merge settles a conflict: by reporting it (NoPreference), or by
// taking our side's or their side's value.
type Prefer uint8

const (
	NoPreference Prefer = iota
	Ours
	Theirs
)

// Settle says how a merge settles its n-th conflict (from 0, in the order the merge meets
// them): Ours, Theirs, or NoPreference to leave it open, and a merge with a conflict left open
// gives no document. Conflicts are counted, not named by path, because a conflict's path can
// name an array index of the merged result, which moves with how earlier conflicts were
// settled; the order they are met in does not, since settling one never walks into it.
type Settle func(n int) Prefer

// Everywhere settles every conflict by p.
func (p Prefer) Everywhere() Settle { return func(int) Prefer { return p } }

// Each settles the n-th conflict by choices[n], and those past the list by rest.
func Each(choices []Prefer, rest Prefer) Settle {
	return func(n int) Prefer {
		if n < len(choices) {
			return choices[n]
		}
		return rest
	}
}

// Conflicts records a merge's conflicts as it meets them and settles each by Settle.
type Conflicts struct {
	Settle Settle
	List   []Conflict
	Open   bool // a conflict was left unsettled: the merge gives no document
}

// Record lists the conflict at p with its three values and answers how it is settled.
func (c *Conflicts) Record(p Path, base, ours, theirs []byte) Prefer {
	how := c.Settle(len(c.List))
	c.Open = c.Open || how == NoPreference
	c.List = append(c.List, Conflict{Path: p, Base: base, Ours: ours, Theirs: theirs})
	return how
}

// Pick is the three-way rule for one value: the side that changed it from base wins, both
// sides changing it alike is one change; ok is false when they changed it differently (a
// conflict; ours is returned).
func Pick[T comparable](base, ours, theirs T) (T, bool) {
	switch {
	case ours == theirs, base == theirs:
		return ours, true
	case base == ours:
		return theirs, true
	}
	return ours, false
}

// ParsePrefer reads "ours", "theirs" or "" (no preference).
func ParsePrefer(s string) (Prefer, error) {
	switch s {
	case "":
		return NoPreference, nil
	case "ours":
		return Ours, nil
	case "theirs":
		return Theirs, nil
	}
	return NoPreference, fmt.Errorf("preference %q: want ours or theirs", s)
}

// Change is one difference between an old and a new version of a file. Old and New are the
// values at Path as JSON text in the format's document form (nil where the place does not
// exist on that side), so a change can be printed, sent to the browser and applied back.
type Change struct {
	Op       Op
	Path     Path
	Old, New []byte
}

// Conflict is a place a three-way merge could not decide: both sides changed it from Base,
// differently. Each value is JSON text as in Change, nil where that side has no such place.
type Conflict struct {
	Path               Path
	Base, Ours, Theirs []byte
}

// AppendText appends one readable line (without newline): "~ Actors/3/Name: "a" -> "b"".
func (c Change) AppendText(b []byte) []byte {
	b = append(b, c.Op.Sign(), ' ')
	b = append(b, c.Path.String()...)
	switch c.Op {
	case Added:
		b = append(b, ": "...)
		b = append(b, c.New...)
	case Removed:
		b = append(b, ": "...)
		b = append(b, c.Old...)
	default:
		b = append(b, ": "...)
		b = append(b, c.Old...)
		b = append(b, " -> "...)
		b = append(b, c.New...)
	}
	return b
}

// AppendJSON appends the change as {"op","path":[...],"old","new"}; absent values are left
// out, so a reader tells "no such place" from a JSON null.
func (c Change) AppendJSON(b []byte) []byte {
	b = append(b, `{"op":`...)
	b = jsontext.AppendString(b, c.Op.String())
	b = appendPath(append(b, ','), c.Path)
	b = appendValue(b, "old", c.Old)
	b = appendValue(b, "new", c.New)
	return append(b, '}')
}

// AppendText appends one readable line (without newline) naming the three values.
func (c Conflict) AppendText(b []byte) []byte {
	b = append(b, "! "...)
	b = append(b, c.Path.String()...)
	for _, v := range [...]struct {
		name  string
		value []byte
	}{{"base", c.Base}, {"ours", c.Ours}, {"theirs", c.Theirs}} {
		b = append(b, ' ')
		b = append(b, v.name...)
		b = append(b, '=')
		if v.value == nil {
			b = append(b, "(none)"...)
		} else {
			b = append(b, v.value...)
		}
	}
	return b
}

// AppendJSON appends the conflict as {"path":[...],"base","ours","theirs"}, absent values left out.
func (c Conflict) AppendJSON(b []byte) []byte {
	b = appendPath(append(b, '{'), c.Path)
	b = appendValue(b, "base", c.Base)
	b = appendValue(b, "ours", c.Ours)
	b = appendValue(b, "theirs", c.Theirs)
	return append(b, '}')
}

// appendPath appends "path":[...].
func appendPath(b []byte, p Path) []byte {
	b = append(b, `"path":[`...)
	for i, s := range p {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, s)
	}
	return append(b, ']')
}

func appendValue(b []byte, name string, v []byte) []byte {
	if v == nil {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return append(b, v...)
}
