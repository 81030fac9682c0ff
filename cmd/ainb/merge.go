package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"ainbeditor/internal/change"
	archive "ainbeditor/internal/pack"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/zs"
)

// ainb merge [-prefer ours|theirs] [-zsdic PATH] BASE OURS THEIRS -o OUT: exit 0 having
// written OUT, 1 on conflicts (listed, nothing written), 2 on trouble.
func mergeCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", stderr)
	zsdic := zsdicFlag(fs)
	out := fs.String("o", "", "output file")
	preferFlag := fs.String("prefer", "", "settle every conflict with this side's value: ours or theirs")
	files, ok := parseArgs(fs, args)
	if !ok || len(files) != 3 || *out == "" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	prefer, err := change.ParsePrefer(*preferFlag)
	if err != nil {
		say(stderr, "ainb: -prefer: %v", err)
		return 2
	}
	c, err := loadZs(*zsdic)
	if err != nil {
		say(stderr, "ainb: -zsdic: %v", err)
		return 2
	}
	defer c.Close()
	var raw, data [3][]byte
	for k, name := range files {
		if raw[k], err = os.ReadFile(name); err == nil {
			data[k], _, err = newReader(c, len(raw[k])).unwrapAll(raw[k])
		}
		if err != nil {
			say(stderr, "ainb: %s: %v", name, err)
			return 2
		}
	}
	f := archive.Format(data[0])
	for k := 1; k < 3; k++ {
		if g := archive.Format(data[k]); g != f {
			say(stderr, "ainb: %s is %s, %s is %s: not one format", files[0], formatName(f), files[k], formatName(g))
			return 2
		}
	}
	var merged []byte
	var conflicts []change.Conflict
	switch t, ok := trees[f]; {
	case ok && t.merge != nil:
		merged, conflicts, err = t.merge(data[0], data[1], data[2], prefer)
	case f == "sarc":
		var p *archive.Pack
		if p, conflicts, err = mergePack(data, prefer); err == nil && p != nil {
			// The merged pack keeps OURS's wrapping (kind, dictionary, alignment).
			var po *archive.Pack
			if po, err = archive.Open(raw[1], c, 0); err == nil {
				p.Wrapping = po.Wrapping
				merged, err = p.Save(c, zs.Smallest)
			}
		}
	default:
		say(stderr, "ainb: merge of %s files: not yet", formatName(f))
		return 2
	}
	if err != nil {
		say(stderr, "ainb: merge: %v", err)
		return 2
	}
	var list []byte
	for _, k := range conflicts {
		list = append(k.AppendText(list), '\n')
	}
	stdout.Write(termSafeText(list))
	if merged == nil {
		say(stderr, "ainb: %d conflicts; nothing written (-prefer ours or -prefer theirs settles them)", len(conflicts))
		return 1
	}
	if len(conflicts) > 0 {
		say(stderr, "ainb: %d conflicts settled with the values of %s", len(conflicts), *preferFlag)
	}
	if f == "sarc" {
		if err := os.WriteFile(*out, merged, 0o644); err != nil {
			say(stderr, "ainb: %v", err)
			return 2
		}
		return 0
	}
	if code := writeOutput(fs, *out, merged, 0, *zsdic, stderr); code != 0 {
		return 2
	}
	return 0
}

// mergePack merges three versions of an archive member by member: a member one side changed
// (added, removed or edited) takes that side's version; a member both changed alike is taken
// once; a member both changed differently is merged as its format's tree when it has one
// (AINB), and is otherwise a conflict. The merged archive starts from OURS's, so its members
// keep their order and places. Conflicts name the member first; without a preference a pack
// with conflicts is not made (nil).
func mergePack(data [3][]byte, prefer change.Prefer) (*archive.Pack, []change.Conflict, error) {
	var as [3]*sarc.Archive
	for k := range data {
		a, err := sarc.Read(data[k])
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", [...]string{"base", "ours", "theirs"}[k], err)
		}
		as[k] = a
	}
	base, ours, theirs := as[0], as[1], as[2]
	var names []string
	seen := map[string]bool{}
	for _, a := range as {
		for _, f := range a.Files {
			if !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, f.Name)
			}
		}
	}
	var conflicts []change.Conflict
	for _, name := range names {
		b, inB := base.Lookup(name)
		o, inO := ours.Lookup(name)
		t, inT := theirs.Lookup(name)
		same := func(x []byte, inX bool, y []byte, inY bool) bool { return inX == inY && bytes.Equal(x, y) }
		var take []byte
		var present bool
		switch {
		case same(o, inO, t, inT), same(t, inT, b, inB):
			continue // ours already holds it
		case same(o, inO, b, inB):
			take, present = t, inT
		default:
			tr, ok := trees[archive.Format(b)]
			if inB && inO && inT && ok && tr.merge != nil && archive.Format(o) == archive.Format(b) && archive.Format(t) == archive.Format(b) {
				m, cs, err := tr.merge(b, o, t, prefer)
				if err != nil {
					return nil, nil, fmt.Errorf("member %s: %w", name, err)
				}
				for _, c := range cs {
					c.Path = append(change.Path{"member " + name}, c.Path...)
					conflicts = append(conflicts, c)
				}
				take, present = m, m != nil
				if m == nil {
					continue
				}
				break
			}
			summary := func(x []byte, in bool) []byte {
				if !in {
					return nil
				}
				return memberSummary(x)
			}
			conflicts = append(conflicts, change.Conflict{Path: change.Path{"member " + name}, Base: summary(b, inB), Ours: summary(o, inO), Theirs: summary(t, inT)})
			if prefer != change.Theirs {
				continue
			}
			take, present = t, inT
		}
		var err error
		switch {
		case present && inO:
			err = ours.Replace(name, take)
		case present:
			err = ours.Add(name, take)
		default:
			err = ours.Remove(name)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("member %s: %w", name, err)
		}
	}
	if len(conflicts) > 0 && prefer == change.NoPreference {
		return nil, conflicts, nil
	}
	return &archive.Pack{Archive: ours}, conflicts, nil
}
