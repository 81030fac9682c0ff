package preview

import (
	"strconv"
	"strings"
	"unicode"

	"ainbeditor/internal/graph"
)

// Summary says in words what a share shows, for the page's title and link previews. Every
// field is plain text, one line, cut to a sensible length; escaping is the page's business.
type Summary struct {
	// Name is the file's name.
	Name string
	// Focus is what the view shows of the file: "node #12 Sequential" for a selection,
	// "command Root" for a command, or "" for neither.
	Focus string
	// Counts is "7,130 nodes, 12 commands, 85 blackboard parameters".
	Counts string
	// Title is the name and the focus: "Enemy.root.ainb — command Root".
	Title string
	// Description is the counts, the category and the file version, with the games that
	// use that version.
	Description string
}

// Lengths, in characters, past which texts are cut with an ellipsis: a name longer than a
// chat line helps nobody, and a share may hold names of any length.
const (
	maxName  = 80
	maxFocus = 80
	maxDesc  = 300
)

// Describe sums up a document and the view shared with it.
func Describe(doc *graph.Document, v View) Summary {
	s := Summary{Name: DocName(doc), Focus: focus(doc, v)}
	s.Counts = count(len(doc.Nodes), "node", "nodes") + ", " + count(len(doc.Commands), "command", "commands")
	if len(doc.Blackboard) > 0 {
		s.Counts += ", " + count(len(doc.Blackboard), "blackboard parameter", "blackboard parameters")
	}
	if len(doc.Modules) > 0 {
		s.Counts += ", " + count(len(doc.Modules), "module", "modules")
	}
	s.Title = s.Name
	if s.Focus != "" {
		s.Title += " — " + s.Focus
	}
	parts := []string{s.Counts}
	if c := Clean(doc.Category, maxName); c != "" {
		parts = append(parts, "category "+c)
	}
	parts = append(parts, versionText(doc.Version))
	s.Description = Clean(strings.Join(parts, " · "), maxDesc)
	return s
}

// DescribeTree sums up a shared BYML or AAMP tree: its name and kind.
func DescribeTree(name, kind string) Summary {
	s := Summary{Name: Clean(name, maxName)}
	if s.Name == "" {
		s.Name = "untitled"
	}
	s.Title = s.Name
	s.Description = treeKind(kind) + " in the AINB editor's tree view"
	return s
}

func treeKind(kind string) string {
	switch kind {
	case "byml":
		return "BYML file"
	case "aamp":
		return "AAMP parameter archive"
	}
	return "file"
}

// DocName is the name a document is known by: its upload name, else the name the file
// gives itself.
func DocName(doc *graph.Document) string {
	for _, n := range []string{doc.Name, doc.Filename} {
		if c := Clean(n, maxName); c != "" {
			return c
		}
	}
	return "untitled.ainb"
}

// focus names the selected node (the lowest id the document has) or the command in view.
func focus(doc *graph.Document, v View) string {
	if len(v.Selection) > 0 {
		ids := make(map[int]int, len(doc.Nodes))
		for i := range doc.Nodes {
			if _, dup := ids[doc.Nodes[i].ID]; !dup {
				ids[doc.Nodes[i].ID] = i
			}
		}
		found, first := 0, -1
		for _, id := range v.Selection {
			if i, ok := ids[id]; ok {
				if first < 0 {
					first = i
				}
				found++
			}
		}
		if first >= 0 {
			n := &doc.Nodes[first]
			f := "node #" + strconv.Itoa(n.ID) + " " + Clean(nodeClass(n), maxFocus)
			if found > 1 {
				f += " and " + count(found-1, "other", "others")
			}
			return Clean(f, maxFocus)
		}
	}
	if v.Command >= 0 && v.Command < len(doc.Commands) {
		if name := Clean(doc.Commands[v.Command].Name, maxFocus); name != "" {
			return Clean("command "+name, maxFocus)
		}
		return "command " + strconv.Itoa(v.Command)
	}
	return ""
}

// versionText is the file version with the games that write it (README).
func versionText(v uint32) string {
	s := "version 0x" + strconv.FormatUint(uint64(v), 16)
	switch v {
	case 0x404:
		s += " (Splatoon 3, Switch Sports)"
	case 0x407:
		s += " (Tears of the Kingdom, Super Mario Bros. Wonder)"
	}
	return s
}

// count is "1 node", "7,130 nodes".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Clean makes s one line of at most limit characters: control and format characters (line
// breaks, tabs, bidirectional overrides) become spaces, runs of spaces one, and a longer
// text is cut with an ellipsis. It reads at most limit+1 characters of s, however long s is.
func Clean(s string, limit int) string {
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if n >= limit {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if n >= limit {
				return strings.TrimRight(b.String(), " ") + "…"
			}
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// nodeClass is what a node's header shows (static/model.js nodeClass).
func nodeClass(n *graph.Node) string {
	if n.Type == "UserDefined" {
		if n.Name != "" {
			return n.Name
		}
		return "UserDefined"
	}
	return string(n.Type)
}
