package diff

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/testcorpus"
)

// Merged files are read by the independent reference reader (../shared/tools/refcheck, which
// needs REF_AINB_SRC naming a git directory of dt-12345/AINB): every merged file whose base
// the reference reads. Without REF_AINB_SRC the test skips.
func TestMergedReadByReference(t *testing.T) {
	if os.Getenv("REF_AINB_SRC") == "" {
		t.Skip("REF_AINB_SRC is not set; the reference reader cannot run")
	}
	tool := filepath.Join(testcorpus.Dir(t), "..", "tools", "refcheck", "refcheck")
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("no reference check tool: %v", err)
	}
	dir := t.TempDir()
	var files []string
	for name, b := range corpusDocs(t) {
		base := parse(t, name, b)
		if _, err := base.Build(); err != nil {
			continue
		}
		g := newGenerator(base, uint64(len(b)))
		ea, eb := edits(g, 3), edits(g, 3)
		out, cs, err := Merge(base, applied(t, name, b, ea), applied(t, name, b, eb), change.NoPreference)
		if err != nil || len(cs) > 0 {
			t.Fatalf("%s: merge: %v, %d conflicts", name, err, len(cs))
		}
		data, err := out.Build()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		k := strconv.Itoa(len(files)/2) + "." + strings.TrimSuffix(filepath.Base(name), ".ainb")
		files = append(files, filepath.Join(dir, k+".base.ainb"), filepath.Join(dir, k+".merged.ainb"))
		if os.WriteFile(files[len(files)-2], b, 0o644) != nil || os.WriteFile(files[len(files)-1], data, 0o644) != nil {
			t.Fatal("cannot write the files to check")
		}
	}
	cmd := exec.Command(tool, files...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	cmd.Run() // exit 1 when any file fails, base files included; the lines say which
	ok := map[string]bool{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if f, found := strings.CutPrefix(sc.Text(), "ok "); found {
			ok[f] = true
		}
	}
	checked := 0
	for k := 0; k < len(files); k += 2 {
		if !ok[files[k]] {
			continue // the reference cannot read the base either
		}
		checked++
		if !ok[files[k+1]] {
			t.Errorf("%s: the reference does not read the merged file", files[k+1])
		}
	}
	if checked == 0 {
		t.Fatalf("the reference read no base file:\n%s", stdout.String())
	}
	t.Logf("%d merged files read by the reference (of %d)", checked, len(files)/2)
}
