package static_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testcorpus"
)

// checkCompactScript reads each pair of files N.tagged.json and N.compact.json in the
// directory it is given and fails unless treemodel.fromCompact makes of the compact form
// exactly what linkShared makes of the JSON form: the same values, the same node objects
// shared at the same places, and the use counts useCounts finds by walking the tree.
const checkCompactScript = `
import { readFileSync, readdirSync } from "node:fs";
import { fromCompact, linkShared, useCounts } from "./treemodel.js";
const dir = process.argv[1];
let n = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".compact.json")).sort()) {
  const name = f.slice(0, -".compact.json".length);
  const want = linkShared(JSON.parse(readFileSync(dir + "/" + name + ".tagged.json", "utf8")));
  const got = fromCompact(JSON.parse(readFileSync(dir + "/" + f, "utf8")));
  const fail = (path, why) => { throw new Error(name + " at " + path + ": " + why); };
  if (got.version !== want.version || got.bigEndian !== want.bigEndian) fail("", "header " + JSON.stringify([got.version, got.bigEndian]));
  const same = new Map(), back = new Map();
  const walk = (a, b, path) => {
    if (a === null || b === null) return a === b || fail(path, "root " + b);
    if (same.has(a) || back.has(b)) return same.get(a) === b && back.get(b) === a || fail(path, "shared differently");
    same.set(a, b); back.set(b, a);
    const ka = Object.keys(a).sort().join(), kb = Object.keys(b).sort().join();
    if (ka !== kb || a.type !== b.type || a.unsorted !== b.unsorted) fail(path, "node " + kb + " " + b.type + ", want " + ka + " " + a.type);
    if (a.type === "array") {
      if (a.value.length !== b.value.length) fail(path, "length");
      a.value.forEach((c, i) => walk(c, b.value[i], path + "/" + i));
    } else if (["hash", "hashmap32", "hashmap64"].includes(a.type)) {
      if (a.value.length !== b.value.length) fail(path, "length");
      a.value.forEach(([k, c], i) => { if (k !== b.value[i][0]) fail(path, "key " + b.value[i][0] + ", want " + k); walk(c, b.value[i][1], path + "/" + k); });
    } else if (JSON.stringify(a.value) !== JSON.stringify(b.value) || typeof a.value !== typeof b.value) fail(path, "value " + JSON.stringify(b.value) + ", want " + JSON.stringify(a.value));
  };
  walk(want.root, got.root, "");
  const ua = useCounts(want), ub = useCounts(got);
  if (ua.size !== ub.size) fail("", ub.size + " use counts, want " + ua.size);
  for (const [node, k] of ua) if (ub.get(same.get(node)) !== k) fail("", "a node used " + ub.get(same.get(node)) + " times, want " + k);
  n++;
}
console.log(n);
`

// The compact form of every BYML file of the corpus and the games reads in the page
// (treemodel.fromCompact) as the JSON form does (linkShared), sharing and use counts
// included; a number that names no earlier node is an error.
func TestTreeCompactReadsAsJSONForm(t *testing.T) {
	node := nodePath(t)
	dir := t.TempDir()
	var paths []string
	filepath.WalkDir(filepath.Join(testcorpus.Dir(t), "byml"), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".byml") {
			paths = append(paths, p)
		}
		return nil
	})
	paths = append(paths, testcorpus.GameFiles(t, "byml")...)
	written := 0
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := byml.Read(data)
		if err != nil {
			continue // the game files Read does not take yet: no form of them
		}
		tagged, err := doc.ToJSON()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		compact, ok := byml.AppendCompactFile(nil, data, jsontext.NoLimit)
		if !ok {
			if compact, err = doc.AppendCompact(nil, jsontext.NoLimit); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		}
		for ext, b := range map[string][]byte{"tagged": tagged, "compact": compact} {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d.%s.json", i, ext)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		written++
	}
	out, err := exec.Command(node, "--input-type=module", "-e", checkCompactScript, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != fmt.Sprint(written) || written < 200 {
		t.Fatalf("checked %s of %d files", got, written)
	}
}
