package static_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

// Edits must be safe: from every corpus document, seeded random sequences of every operation
// the editor offers are applied by the page's own edit module (edits.js, under node, driven
// by testdata/editseq.mjs), and each result is built here and checked: the file reads back
// and validates, every string offset points at the start of a string (unless the original
// file pointed that very string into a tail), what was edited reads back as edited, and
// every node the sequence left alone is, in the community JSON, what it was (node indices
// renumbered).
//
// The seeds derive from a base seed, 1 unless AINB_EDITSEQ_SEED says otherwise; a failure
// names the file, the seed and the operations. To run one sequence again:
//
//	AINB_EDITSEQ_SEED=<base> go test ./static/ -run 'TestRandomEditSequences/<file>/<seed>$' -v
//
// AINB_EDITSEQ_OPS sets the number of operations per sequence (30; half on the largest file)
// for longer soak runs. With AINB_EDITSEQ_OUT set to a directory, the built files are written there as well (for
// the community reference reader: see the report of the change that added this test).
func TestRandomEditSequences(t *testing.T) {
	node := nodePath(t)
	files := testcorpus.AINB(t)
	nCorpus := len(files)
	// And every fourth of the games' own files, which modders start from: two sequences each.
	for i, path := range testcorpus.GameFiles(t, "ainb") {
		if i%4 == 0 {
			files = append(files, path)
		}
	}
	base := int64(1)
	if s := os.Getenv("AINB_EDITSEQ_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 || v > 4000 {
			t.Fatalf("AINB_EDITSEQ_SEED=%q: want a number from 0 to 4000", s)
		}
		base = v
	}
	opsPerSequence := 30
	if s := os.Getenv("AINB_EDITSEQ_OPS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("AINB_EDITSEQ_OPS=%q: want a positive number", s)
		}
		opsPerSequence = v
	}
	outDir := os.Getenv("AINB_EDITSEQ_OUT")
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	start := time.Now()
	tmp := t.TempDir()
	inDir, resDir := filepath.Join(tmp, "in"), filepath.Join(tmp, "out")
	for _, d := range []string{inDir, resDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	type job struct {
		Name    string  `json:"name"`
		Doc     string  `json:"doc"`
		Foreign string  `json:"foreign"`
		Seeds   []int64 `json:"seeds"`
		Ops     int     `json:"ops"`
	}
	var jobs []job
	origins := map[string]*seqOrigin{}
	for i, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		o := &seqOrigin{base: filepath.Base(path), bytes: data}
		if o.doc, err = graph.Parse(o.base, data); err != nil {
			t.Fatalf("%s: %v", o.base, err)
		}
		if o.file, err = ainb.Read(data); err != nil {
			t.Fatalf("%s: %v", o.base, err)
		}
		name := strings.TrimSuffix(o.base, ".ainb")
		origins[name] = o
		docPath := filepath.Join(inDir, name+".json")
		if err := os.WriteFile(docPath, o.doc.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
		// Five sequences of 30 edits per corpus file, two per game file; the 7,130-node file
		// gets two shorter ones.
		k, ops := 5, opsPerSequence
		if i >= nCorpus {
			k = 2
		}
		if len(o.doc.Nodes) > 2000 {
			k, ops = 2, opsPerSequence/2
		}
		j := job{Name: name, Doc: docPath, Ops: ops}
		for s := range k {
			j.Seeds = append(j.Seeds, base*1_000_000+int64(i)*100+int64(s))
		}
		jobs = append(jobs, j)
	}
	// Pastes come from another file of the corpus, of whatever version.
	for i := range jobs {
		jobs[i].Foreign = jobs[(i+7)%len(jobs)].Doc
		if o := origins[jobs[(i+7)%len(jobs)].Name]; len(o.doc.Nodes) > 2000 {
			jobs[i].Foreign = jobs[(i+8)%len(jobs)].Doc
		}
	}
	// -run TestRandomEditSequences/<file>/<seed> runs only that file's sequences in node.
	filtered := false
	if f := flag.Lookup("test.run"); f != nil {
		if parts := strings.Split(f.Value.String(), "/"); len(parts) >= 2 {
			if re, err := regexp.Compile(parts[1]); err == nil {
				var keep []job
				for _, j := range jobs {
					if re.MatchString(j.Name) {
						keep = append(keep, j)
					}
				}
				jobs, filtered = keep, true
			}
		}
	}
	manifest, err := json.Marshal(map[string]any{"out": resDir, "jobs": jobs})
	if err != nil {
		t.Fatal(err)
	}
	manifestPath := filepath.Join(tmp, "manifest.json")
	if err := os.WriteFile(manifestPath, manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "editseq.mjs"), manifestPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node testdata/editseq.mjs (base seed %d): %v\n%s", base, err, out)
	}
	t.Logf("edits.js ran the sequences in %v", time.Since(start).Round(time.Millisecond))

	sequences, applied, logged := 0, 0, 0
	opCounts := map[string]int{}
	for _, j := range jobs {
		o := origins[j.Name]
		for _, seed := range j.Seeds {
			data, err := os.ReadFile(filepath.Join(resDir, fmt.Sprintf("%s.%d.json", j.Name, seed)))
			if err != nil {
				t.Fatalf("%s seed %d: the driver wrote no result: %v", j.Name, seed, err)
			}
			var res seqResult
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatalf("%s seed %d: %v", j.Name, seed, err)
			}
			sequences++
			applied += res.Applied
			logged += len(res.Log)
			for _, e := range res.Log {
				var op string
				if len(e) > 0 {
					json.Unmarshal(e[0], &op)
				}
				opCounts[op]++
			}
			t.Run(j.Name+"/"+strconv.FormatInt(seed, 10), func(t *testing.T) {
				checkSequence(t, o, &res, base, outDir)
			})
		}
	}
	var ops []string
	for op, n := range opCounts {
		ops = append(ops, fmt.Sprintf("%s %d", op, n))
	}
	sort.Strings(ops)
	t.Logf("%d sequences from %d files, %d operations (%d made an edit, the rest were refused) in %v; base seed %d",
		sequences, len(jobs), logged, applied, time.Since(start).Round(time.Millisecond), base)
	t.Logf("operations: %s", strings.Join(ops, ", "))
	if filtered {
		return
	}
	for _, name := range []string{"setValue", "setSource", "connect", "disconnect", "setSourceExpression", "addSource", "renameItem", "renameNode",
		"setNodeFlag", "move", "setChild", "addChild", "removeChild", "setChildName", "setCondition", "addJump", "removeJump",
		"setJump", "addQuery", "removeQuery", "addNode", "duplicate", "copyPaste", "pasteForeign", "deleteNodes", "addCommand",
		"removeCommand", "renameCommand", "setCommandRoot", "addBlackboard", "renameBlackboard", "setBlackboardField",
		"setBlackboardValue", "removeBlackboard", "setExpressionText", "addExpression", "removeExpression", "undo", "redo",
		"addParam", "removeParam", "addLinked"} {
		if opCounts[name] == 0 {
			t.Errorf("no sequence did %s: the sequences must cover every operation", name)
		}
	}
}

// seqOrigin is a corpus file as read before any edit.
type seqOrigin struct {
	base   string
	bytes  []byte
	file   *ainb.File
	doc    *graph.Document
	compat []any // the community JSON's "Nodes", made when first needed
}

// seqResult is what the driver wrote for one sequence.
type seqResult struct {
	Seed            int64               `json:"seed"`
	Applied         int                 `json:"applied"`
	Log             [][]json.RawMessage `json:"log"`
	Document        string              `json:"document"`
	Invalid         string              `json:"invalid"`
	InvalidFunction int                 `json:"invalidFunction"`
}

func checkSequence(t *testing.T, o *seqOrigin, res *seqResult, base int64, outDir string) {
	fail := func(format string, args ...any) {
		t.Helper()
		var b strings.Builder
		fmt.Fprintf(&b, "%s, seed %d (AINB_EDITSEQ_SEED=%d): %s\noperations (last value of each: the module's answer):\n",
			o.base, res.Seed, base, fmt.Sprintf(format, args...))
		for k, e := range res.Log {
			parts := make([]string, len(e))
			for i, p := range e {
				parts[i] = string(p)
			}
			s := strings.Join(parts, " ")
			if len(s) > 300 {
				s = s[:300] + "..."
			}
			fmt.Fprintf(&b, "  %2d %s\n", k, s)
		}
		t.Fatal(b.String())
	}

	edited, err := graph.Decode([]byte(res.Document))
	if err != nil {
		fail("the edited document does not decode: %v", err)
	}
	out, err := edited.Build()
	if err != nil {
		fail("the edited document does not build: %v", seqProblems(err))
	}
	if outDir != "" {
		name := fmt.Sprintf("%s.%d.ainb", strings.TrimSuffix(o.base, ".ainb"), res.Seed)
		if err := os.WriteFile(filepath.Join(outDir, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := ainb.Read(out)
	if err != nil {
		fail("the built file does not read back: %v", err)
	}
	if err := f.Validate(); err != nil {
		fail("the built file does not validate: %v", err)
	}
	// Every string offset points at the start of a pool string, except for strings the
	// original itself pointed into a tail.
	was := map[string]bool{}
	for _, s := range o.file.Layout.Tails {
		was[s] = true
	}
	for _, s := range f.Layout.Tails {
		if !was[s] {
			fail("the built file points %q into the tail of another string; the original did not", s)
		}
	}

	// What was edited reads back as edited.
	back, err := graph.Parse(o.base, out)
	if err != nil {
		fail("the built file does not parse: %v", err)
	}
	want, _ := graph.Decode([]byte(res.Document))
	seqNormalize(want)
	seqNormalize(back)
	if a, b := seqIndented(want.Encode()), seqIndented(back.Encode()); !bytes.Equal(a, b) {
		fail("the file reads back differently from the edited document (normalized: ids as indices, no positions):\n%s", seqFirstDiff(a, b))
	}

	// Nothing else changed: every node the edits left alone (same document JSON but for its
	// place, and the same attachments) is the same in the community JSON, node indices mapped
	// from the original's to the edited document's.
	if o.compat == nil {
		o.compat = seqCompatNodes(t, o.file)
	}
	after := seqCompatNodes(t, f)
	newIndex := make(map[int]int, len(edited.Nodes))
	for i := range edited.Nodes {
		newIndex[edited.Nodes[i].ID] = i
	}
	untouched := 0
	for i := range o.doc.Nodes {
		j, ok := newIndex[o.doc.Nodes[i].ID]
		if !ok || seqTouched(o.doc, edited, i, j) {
			continue
		}
		before := seqRemapIndices(o.compat[i], func(k int) int {
			if k < 0 || k >= len(o.doc.Nodes) {
				return k
			}
			if m, ok := newIndex[o.doc.Nodes[k].ID]; ok {
				return m
			}
			return seqDeleted - k
		})
		if seqRefersToDeleted(before) {
			continue
		}
		untouched++
		if !reflect.DeepEqual(before, after[j]) {
			a, _ := json.MarshalIndent(before, "", " ")
			b, _ := json.MarshalIndent(after[j], "", " ")
			fail("node %d (index %d, now %d) was not edited, yet its community JSON changed:\n%s", o.doc.Nodes[i].ID, i, j, seqFirstDiff(a, b))
		}
	}
	if testing.Verbose() {
		t.Logf("%d of %d nodes left alone and unchanged; %d operations, %d edits", untouched, len(o.doc.Nodes), len(res.Log), res.Applied)
	}

	// An expression text that does not assemble is refused, with a problem on that text.
	if res.Invalid != "" {
		bad, err := graph.Decode([]byte(res.Invalid))
		if err != nil {
			fail("the document with an invalid expression does not decode: %v", err)
		}
		_, err = bad.Build()
		var pe *graph.ProblemsError
		if !errors.As(err, &pe) {
			fail("a document whose expression %d does not assemble built: %v", res.InvalidFunction, err)
		}
		path := fmt.Sprintf("expressions.functions[%d].text", res.InvalidFunction)
		found := false
		for _, p := range pe.Problems {
			found = found || p.Path == path
		}
		if !found {
			fail("expression %d does not assemble, yet no problem names %s: %v", res.InvalidFunction, path, seqProblems(err))
		}
	}
}

func seqProblems(err error) string {
	var pe *graph.ProblemsError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	var b strings.Builder
	for _, p := range pe.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// seqTouched says whether node i of the original and node j of the edited document differ in
// anything but their place, in the attachments they list (the community JSON holds those
// inline), or in the blackboard parameters they read: the same document index may name
// another parameter once parameters were removed and added, and the file names parameters
// by type and index within the type.
func seqTouched(orig, edited *graph.Document, i, j int) bool {
	a, b := orig.Nodes[i], edited.Nodes[j]
	a.X, a.Y, a.Pinned = 0, 0, false
	b.X, b.Y, b.Pinned = 0, 0, false
	if !bytes.Equal(seqNodeJSON(&a), seqNodeJSON(&b)) {
		return true
	}
	var props [][]graph.Property
	props = append(props, a.Properties)
	for _, k := range a.Attachments {
		if k >= len(orig.Attachments) || k >= len(edited.Attachments) {
			return true
		}
		x := graph.Document{Attachments: []graph.Attachment{orig.Attachments[k]}}
		y := graph.Document{Attachments: []graph.Attachment{edited.Attachments[k]}}
		if !bytes.Equal(x.Encode(), y.Encode()) {
			return true
		}
		props = append(props, orig.Attachments[k].Properties)
	}
	var refs []*int
	for _, ps := range props {
		for k := range ps {
			if s := ps[k].Source; s != nil {
				refs = append(refs, s.Blackboard)
			}
		}
	}
	for k := range a.Inputs {
		if s := a.Inputs[k].Source; s != nil {
			refs = append(refs, s.Blackboard)
		}
		for m := range a.Inputs[k].Sources {
			refs = append(refs, a.Inputs[k].Sources[m].Blackboard)
		}
	}
	for k := range a.Children {
		if c := a.Children[k].Condition; c != nil {
			refs = append(refs, c.Blackboard, c.MinBlackboard, c.MaxBlackboard)
		}
	}
	for _, r := range refs {
		if r != nil && seqParamKey(orig, *r) != seqParamKey(edited, *r) {
			return true
		}
	}
	return false
}

// seqParamKey is how a file names blackboard parameter k: its type and its index among the
// parameters of that type.
func seqParamKey(d *graph.Document, k int) string {
	if k < 0 || k >= len(d.Blackboard) {
		return "none"
	}
	t, n := d.Blackboard[k].Type, 0
	for _, p := range d.Blackboard[:k] {
		if p.Type == t {
			n++
		}
	}
	return fmt.Sprintf("%s %d", t, n)
}

// seqRefersToDeleted says whether a community JSON node, remapped, names a deleted node:
// only its stored mirror plugs can (the document has no such reference to cut), and they
// cannot be kept.
func seqRefersToDeleted(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := e.(json.Number); ok && (k == "Node Index" || k == "Replacement Node Index") {
				if i, err := strconv.Atoi(string(n)); err == nil && i <= seqDeleted {
					return true
				}
			} else if seqRefersToDeleted(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if seqRefersToDeleted(e) {
				return true
			}
		}
	}
	return false
}

// seqDeleted and below stand for the indices of deleted nodes.
const seqDeleted = -1000

func seqNodeJSON(n *graph.Node) []byte {
	d := graph.Document{Nodes: []graph.Node{*n}}
	return d.Encode()
}

// seqCompatNodes is the "Nodes" list of a file's community JSON, numbers kept as their text.
//
// The community JSON cannot hold NaN or infinities yet (ainb.File.CompatJSON fails on them:
// its Python-style NaN is no JSON for encoding/json), so they are replaced by a finite
// stand-in first. Only edited values are ever NaN or infinite (no corpus file has one), and
// edited nodes are not compared.
func seqCompatNodes(t *testing.T, f *ainb.File) []any {
	t.Helper()
	seqFinite(reflect.ValueOf(f))
	js, err := f.CompatJSON()
	if err != nil {
		t.Fatalf("community JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v struct{ Nodes []any }
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v.Nodes
}

// seqFinite replaces every NaN or infinite F32 reachable from v by a finite stand-in.
func seqFinite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			seqFinite(v.Elem())
		}
	case reflect.Struct:
		// A family of grouped lists (ainb.Groups) keeps them behind an unexported pointer:
		// walk the lists it returns, which share their entries with it.
		if m := v.MethodByName("Lists"); m.IsValid() && m.Type().NumIn() == 0 {
			seqFinite(m.Call(nil)[0])
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				seqFinite(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			seqFinite(v.Index(i))
		}
	case reflect.Float32:
		if x := v.Float(); (math.IsNaN(x) || math.IsInf(x, 0)) && v.CanSet() {
			v.SetFloat(-12345.5)
		}
	}
}

// seqRemapIndices copies a community JSON node with every node index (its own, its queries',
// its sources' and its plugs') mapped through m.
func seqRemapIndices(node any, m func(int) int) any {
	num := func(v any) any {
		n, ok := v.(json.Number)
		if !ok {
			return v
		}
		k, err := strconv.Atoi(string(n))
		if err != nil {
			return v
		}
		return json.Number(strconv.Itoa(m(k)))
	}
	var walk func(v any, key string) any
	walk = func(v any, key string) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if k == "Node Index" || k == "Replacement Node Index" {
					out[k] = num(e)
				} else {
					out[k] = walk(e, k)
				}
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				if key == "Queries" {
					out[i] = num(e)
				} else {
					out[i] = walk(e, key)
				}
			}
			return out
		}
		return v
	}
	return walk(node, "")
}

// seqNormalize makes a document comparable with another built from the same file: node ids
// become indices, positions go, the blackboard is in type order (as a build groups it),
// usesDefault is written only when it differs from the usual, conditions hold every value
// their selector stores, lists a build writes as empty are empty, and expression functions
// carry no parsed text (the page's note for the build, not something the file holds).
func seqNormalize(d *graph.Document) {
	d.Name, d.Layout = "", ""
	if d.Expressions != nil {
		for i := range d.Expressions.Functions {
			d.Expressions.Functions[i].ParsedText = nil
		}
	}
	index := make(map[int]int, len(d.Nodes))
	for i := range d.Nodes {
		index[d.Nodes[i].ID] = i
	}
	id := func(v int) int {
		if k, ok := index[v]; ok {
			return k
		}
		return -1_000_000 - v
	}
	idp := func(p *int) *int {
		if p == nil {
			return nil
		}
		v := id(*p)
		return &v
	}
	rank := map[graph.ValueType]int{"string": 0, "int": 1, "u32": 2, "float": 3, "bool": 4, "vec3f": 5, "pointer": 6}
	order := make([]int, len(d.Blackboard))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rank[d.Blackboard[order[a]].Type] < rank[d.Blackboard[order[b]].Type] })
	bbNew := make([]int, len(order))
	bb := make([]graph.BlackboardParam, len(order))
	for k, i := range order {
		bbNew[i] = k
		bb[k] = d.Blackboard[i]
	}
	d.Blackboard = bb
	bbp := func(p *int) *int {
		if p == nil {
			return nil
		}
		v := *p
		if v >= 0 && v < len(bbNew) {
			v = bbNew[v]
		}
		return &v
	}
	src := func(s *graph.Source) {
		s.Node = idp(s.Node)
		s.Blackboard = bbp(s.Blackboard)
	}
	usual := func(ud *bool, s *graph.Source) *bool {
		immediate := s == nil || s.Node == nil && s.Blackboard == nil && s.Expression == nil
		if ud != nil && *ud == immediate {
			return nil
		}
		return ud
	}
	props := func(ps []graph.Property) {
		for k := range ps {
			p := &ps[k]
			if p.Source != nil {
				s := *p.Source
				src(&s)
				p.Source = &s
			}
			p.UsesDefault = usual(p.UsesDefault, p.Source)
		}
	}
	for i := range d.Commands {
		c := &d.Commands[i]
		c.Root = id(c.Root)
		if c.Secondary != -1 {
			c.Secondary = id(c.Secondary)
		}
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		n.ID, n.X, n.Y, n.Pinned = i, 0, 0, false
		props(n.Properties)
		for k := range n.Inputs {
			in := &n.Inputs[k]
			if in.Source != nil {
				s := *in.Source
				src(&s)
				in.Source = &s
			}
			in.UsesDefault = usual(in.UsesDefault, in.Source)
			if in.Sources != nil {
				ss := make([]graph.Source, len(in.Sources))
				for m := range in.Sources {
					ss[m] = in.Sources[m]
					src(&ss[m])
					ss[m].UsesDefault = usual(ss[m].UsesDefault, &ss[m])
				}
				in.Sources = ss
			}
		}
		layout := seqChildLayout(n, d.Version)
		for k := range n.Children {
			ch := &n.Children[k]
			ch.Node = id(ch.Node)
			if layout == ainb.LayoutBasic {
				continue
			}
			var c graph.Condition
			if ch.Condition != nil {
				c = *ch.Condition
			}
			c.Blackboard, c.MinBlackboard, c.MaxBlackboard = bbp(c.Blackboard), bbp(c.MinBlackboard), bbp(c.MaxBlackboard)
			switch layout {
			case ainb.LayoutWordInt:
				if c.Int == nil {
					c.Int = new(int32)
				}
			case ainb.LayoutWordString:
				if c.String == nil {
					c.String = new(string)
				}
			case ainb.LayoutWordFloat:
				if c.Weight == nil {
					c.Weight = new(graph.Float)
				}
			case ainb.LayoutF32Range:
				if c.Min == nil {
					c.Min = new(graph.Float)
				}
				if c.Max == nil {
					c.Max = new(graph.Float)
				}
			}
			ch.Condition = &c
		}
		for k := range n.Jumps {
			n.Jumps[k].Node = id(n.Jumps[k].Node)
		}
		if n.Queries != nil {
			qs := make([]int, len(n.Queries))
			for k, q := range n.Queries {
				qs[k] = id(q)
			}
			n.Queries = qs
		}
	}
	for i := range d.Attachments {
		props(d.Attachments[i].Properties)
	}
	for i := range d.Replacements {
		r := &d.Replacements[i]
		r.Node = id(r.Node)
		r.New = idp(r.New)
	}
	for i := range d.EnumRelocations {
		if t := d.EnumRelocations[i].Target; t != nil {
			c := *t
			c.Node = idp(c.Node)
			d.EnumRelocations[i].Target = &c
		}
	}
	if d.Commands == nil {
		d.Commands = []graph.Command{}
	}
	if d.Attachments == nil {
		d.Attachments = []graph.Attachment{}
	}
	if d.Blackboard == nil {
		d.Blackboard = []graph.BlackboardParam{}
	}
	if d.Modules == nil {
		d.Modules = []graph.Module{}
	}
	if d.EnumRelocations == nil {
		d.EnumRelocations = []graph.EnumRelocation{}
	}
	if d.Replacements == nil && d.Version >= 0x407 {
		d.Replacements = []graph.Replacement{}
	}
}

// seqChildLayout is how the file stores the children of n: with which condition values.
func seqChildLayout(n *graph.Node, version uint32) ainb.PlugLayout {
	e := ainb.Element{Name: n.Name}
	for _, t := range ainb.ElementTypes() {
		if t.String() == "Element_"+string(n.Type) {
			e.Type = t
		}
	}
	l, _ := e.PlugLayout(ainb.PlugChild, version)
	return l
}

func seqIndented(js []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, js, "", " "); err != nil {
		return js
	}
	return b.Bytes()
}

// seqFirstDiff shows where two texts first differ, a few lines either side.
func seqFirstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	from := max(0, i-8)
	show := func(l []string) string {
		return strings.Join(l[from:min(len(l), i+6)], "\n")
	}
	return fmt.Sprintf("--- expected, from line %d:\n%s\n--- got:\n%s", from+1, show(la), show(lb))
}
