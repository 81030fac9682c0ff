package byml

import (
	"fmt"
	"strconv"
	"strings"
)

// Warning is something about a document that the format allows to be read but that the game
// or other tools may not take as meant: a hash whose keys are not sorted or repeat, a key
// table out of order.
type Warning struct {
	Path    string // the container, as a JSON Pointer from the root: "/Actors/12"; "" for the root
	Offset  int64  // where the file holds it, or -1 when the document has no file layout
	Message string
}

// maxWarnings bounds the list: a hostile file could make every container warn.
const maxWarnings = 100

// maxRepeatedNamed is how many repeated keys a warning names.
const maxRepeatedNamed = 10

// maxWarningPaths bounds the bytes of the warnings' paths together: a path repeats the keys
// above it, so a deep file of long keys would make each path megabytes.
const maxWarningPaths = 1 << 20

// Warnings lists a key table out of order (for a document Read made), then the hashes marked
// KeepOrder whose entries break the format's order, each once however many parents share it,
// in document order: at most maxWarnings of them, and while their paths take at most
// maxWarningPaths bytes.
func (d *Document) Warnings() []Warning {
	var out []Warning
	if d.Root == nil {
		return out
	}
	if d.layout != nil {
		if msg := tableOrderProblem(d.layout.keys); msg != "" {
			out = append(out, Warning{Offset: int64(d.layout.keyOff), Message: msg})
		}
	}
	seen := map[*Node]bool{}
	// The path is the steps from the root, made into a string only for a warning: built
	// for every container, the paths of a deep file took its depth times its size.
	var steps []string
	pathBytes := 0
	full := func() bool { return len(out) >= maxWarnings || pathBytes > maxWarningPaths }
	var rec func(n *Node, depth int)
	rec = func(n *Node, depth int) {
		if !n.Kind.IsContainer() || seen[n] || full() || depth > maxDepth {
			return
		}
		seen[n] = true
		if n.KeepOrder {
			if msg := orderProblem(n); msg != "" {
				off := int64(-1)
				if d.layout != nil {
					if o, ok := d.layout.at[n]; ok {
						off = int64(o)
					}
				}
				path := ""
				if len(steps) > 0 {
					path = "/" + strings.Join(steps, "/")
				}
				pathBytes += len(path)
				out = append(out, Warning{Path: path, Offset: off, Message: msg})
			}
		}
		for i, it := range n.Items {
			if it.Kind.IsContainer() && !seen[it] {
				steps = append(steps, strconv.Itoa(i))
				rec(it, depth+1)
				steps = steps[:len(steps)-1]
			}
		}
		for _, e := range n.Entries {
			if e.Value.Kind.IsContainer() && !seen[e.Value] {
				steps = append(steps, pointerKey(n, e))
				rec(e.Value, depth+1)
				steps = steps[:len(steps)-1]
			}
		}
	}
	rec(d.Root, 0)
	return out
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointerKey is an entry's key as a JSON Pointer step ("~" and "/" escaped).
func pointerKey(n *Node, e Entry) string {
	if n.Kind != Hash {
		return strconv.FormatUint(e.Hash, 10)
	}
	return pointerEscaper.Replace(e.Key)
}

// orderProblem says what is wrong with a hash's order, or "" when nothing is: the repeated
// keys (how many times each) and the first key out of order.
func orderProblem(n *Node) string {
	count := map[Entry]int{}
	var repeated []Entry
	var unsorted string
	for i, e := range n.Entries {
		k := Entry{Key: e.Key, Hash: e.Hash}
		if count[k]++; count[k] == 2 {
			repeated = append(repeated, k)
		}
		if unsorted == "" && i > 0 && !entryBefore(n.Kind, &n.Entries[i-1], &n.Entries[i]) && count[k] == 1 {
			unsorted = fmt.Sprintf("%s comes after %s", quoteKey(n, e), quoteKey(n, n.Entries[i-1]))
		}
	}
	var parts []string
	for i, k := range repeated {
		if i == maxRepeatedNamed {
			// A message per repeated key would make the warnings as long as the hash.
			parts = append(parts, fmt.Sprintf("%d more keys repeat", len(repeated)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("key %s appears %d times", quoteKey(n, k), count[k]))
	}
	if unsorted != "" {
		parts = append(parts, "keys are not sorted ("+unsorted+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": the game binary-searches keys and may not find some entries. Saving keeps the entries as they are."
}

// tableOrderProblem says what is wrong with a key table's order, or "" when it is ascending:
// the first key repeated or out of order. The game looks a key up in the table by binary
// search before it looks up its index in a hash.
func tableOrderProblem(t *table) string {
	for i := 1; i < t.len(); i++ {
		what := ""
		switch a, b := t.strs[i-1], t.strs[i]; {
		case a == b:
			what = fmt.Sprintf("key %s is in it twice", strconv.Quote(b))
		case a > b:
			what = fmt.Sprintf("%s comes after %s", strconv.Quote(b), strconv.Quote(a))
		default:
			continue
		}
		return "the key table is not sorted (" + what + "): the game binary-searches it and may not find some keys. " +
			"Saving keeps it while the edits keep the file's layout (values changed in place, no container grown or shrunk, " +
			"no key or string the file lacks); otherwise the table is written sorted."
	}
	return ""
}

func quoteKey(n *Node, e Entry) string {
	if n.Kind == Hash {
		return strconv.Quote(e.Key)
	}
	return fmt.Sprintf("0x%x", e.Hash)
}
