package aamp

import (
	"errors"
	"strings"
	"testing"

	"ainbeditor/internal/jsontext"
)

// budgetDoc is a document whose one long string sits in param_root/Outer/Obj/Text.
func budgetDoc(t *testing.T) *ParameterIO {
	t.Helper()
	long := strings.Repeat("long ", 2000)
	pio, err := FromJSON([]byte(`{"version":0,"type":"xml","param_root":{"lists":[{"name":"Outer","lists":[],"objects":[
		{"name":"Obj","params":[{"name":"Short","type":"int","value":1},{"name":"Text","type":"string_ref","value":"` + long + `"}]}]}],"objects":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	return pio
}

// The JSON and YAML writers answer the whole text at its size and stop one byte short of it
// with the budget and the place; the long string is refused before it is written.
func TestTextBudget(t *testing.T) {
	pio := budgetDoc(t)
	for _, w := range []struct {
		name  string
		write func(limit int) ([]byte, error)
	}{
		{"json", func(limit int) ([]byte, error) { return AppendJSON(nil, pio, limit) }},
		{"yaml", func(limit int) ([]byte, error) { return ToYAMLLimit(pio, limit) }},
	} {
		full, err := w.write(jsontext.NoLimit)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := w.write(len(full)); err != nil || string(got) != string(full) {
			t.Errorf("%s at its own size %d: %v", w.name, len(full), err)
		}
		_, err = w.write(len(full) - 1)
		var tl *jsontext.TooLargeError
		if !errors.As(err, &tl) || tl.Limit != len(full)-1 {
			t.Errorf("%s one byte short: %v", w.name, err)
		}
		// The string is 10,000 bytes: with 1,000 allowed, nothing of it is written.
		_, err = w.write(1000)
		if !errors.As(err, &tl) || tl.Limit != 1000 || tl.Where != "param_root/Outer/Obj/Text" {
			t.Errorf("%s within 1000 bytes: %v", w.name, err)
		}
	}
	if j, _ := ToJSON(pio); !strings.Contains(string(j), `{"hash":1323941798,"name":"Short","type":"int","value":1}`) {
		t.Errorf("JSON form %.300s", j)
	}
}
