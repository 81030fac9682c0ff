package static_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/ainb"
)

// Deleting a node in a 0x404 file renumbers the enum relocations that patch later nodes'
// values and drops the ones that patched the deleted node.
func TestDeleteKeepsEnumRelocations(t *testing.T) {
	f := &ainb.File{Version: ainb.Version404, Filename: "Reloc", Category: "AI", HasSection6C: true}
	f.Commands = []ainb.Command{{Name: "Root", Root: 0, Secondary: -1}}
	f.Elements = make([]ainb.Element, 3)
	for i := range f.Elements {
		f.Elements[i].Name = "Leaf"
		f.Elements[i].StateInfo = &ainb.StateInfo{}
		f.Elements[i].Properties.Set(ainb.ParamInt, []ainb.Property{{Name: "Team", Value: ainb.Value{Int: int32(10 + i)}}})
	}
	f.Elements[0].Type = ainb.Sequential
	f.Elements[0].Name = ""
	f.Elements[0].Plugs.Set(ainb.PlugChild, []ainb.Plug{{Node: 1, Name: "a"}, {Node: 2, Name: "b"}})
	f.EnumRelocations = []ainb.EnumRelocation{
		{Target: &ainb.ValueRef{Element: 1, Type: ainb.ParamInt}, ClassName: "Lp::Team", ValueName: "Alpha"},
		{Target: &ainb.ValueRef{Element: 2, Type: ainb.ParamInt}, ClassName: "Lp::Team", ValueName: "Bravo"},
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "reloc.ainb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}

	p := newBrowser(t)
	p.open(path)
	p.run(`ainbEditor.setView({x: 400, y: 60, zoom: 1})`) // x, y: the view centre
	p.run(`document.getElementById("graph").focus()`)
	at := p.screenOf(1, -1, "")
	p.click(at)
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 1 {
		t.Fatalf("selected %v, want [1]; clicked %+v, view %v, positions %v", sel, at, eval[map[string]any](p, `ainbEditor.view()`), eval[any](p, `ainbEditor.document().nodes.map((n) => [n.id, n.x, n.y])`))
	}
	p.key(kb.Delete)
	saved := p.save()
	if len(saved.Elements) != 2 {
		t.Fatalf("%d nodes after the delete, want 2", len(saved.Elements))
	}
	if len(saved.EnumRelocations) != 1 {
		t.Fatalf("relocations %+v, want only Bravo's", saved.EnumRelocations)
	}
	r := saved.EnumRelocations[0]
	if r.ValueName != "Bravo" || r.Target == nil || *r.Target != (ainb.ValueRef{Element: 1, Type: ainb.ParamInt}) {
		t.Fatalf("relocation %+v (target %+v), want Bravo on node 1's Team", r, r.Target)
	}
	if v := saved.Elements[1].Properties.Of(ainb.ParamInt)[0].Value.Int; v != 12 {
		t.Fatalf("node 1's Team is %d, want 12 (the old node 2's)", v)
	}
}
