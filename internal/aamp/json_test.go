package aamp

import (
	"ainbeditor/internal/jsontext"
	"bytes"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestCorpusJSON(t *testing.T) {
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pio, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		j, err := ToJSON(pio)
		if err != nil {
			t.Errorf("%s: ToJSON: %v", f, err)
			continue
		}
		back, err := FromJSON(j)
		if err != nil {
			t.Errorf("%s: FromJSON: %v", f, err)
			continue
		}
		if d := diffIO(pio, back); d != "" {
			t.Errorf("%s: JSON round trip: %s", f, d)
			continue
		}
		bin, err := back.Bytes()
		if err != nil || !bytes.Equal(bin, data) {
			t.Errorf("%s: binary from JSON differs (err %v)", f, err)
		}
	}
}

func TestJSONForm(t *testing.T) {
	pio := &ParameterIO{Version: 3, Type: "xml", Root: ParameterList{Name: RootName,
		Objects: []*ParameterObject{{Name: NameOf("Obj"), Params: []Parameter{
			{NameOf("F"), TypeF32, float32(math.Inf(-1))},
			{Name(12345), TypeBufferBinary, []byte{0, 255}},
			{NameOf("S"), TypeString32, "Obj"},
		}}}}}
	j, err := ToJSON(pio)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":3,"type":"xml","param_root":{"hash":2767637356,"name":"param_root","lists":[],"objects":[{"hash":2116784780,"name":"Obj","params":[{"hash":1304234792,"type":"f32","value":"-inf"},{"hash":12345,"type":"buffer_binary","value":[0,255]},{"hash":543223747,"type":"string32","value":"Obj"}]}]}}`
	if string(j) != want {
		t.Errorf("ToJSON:\n got %s\nwant %s", j, want)
	}
	back, err := FromJSON(j)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffIO(pio, back); d != "" {
		t.Error(d)
	}
	for _, bad := range []string{
		`{"version":0,"type":"xml"}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"params":[]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"name":"Obj","params":[]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[{"hash":2,"type":"vec3","value":[1,2]}]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[{"hash":2,"type":"nope","value":1}]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[{"hash":2,"type":"buffer_binary","value":[256]}]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[{"hash":2,"type":"curve2","value":[]}]}]}}`,
		`{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[{"hash":2,"type":"string32","value":"` + strings.Repeat("x", 40) + `"}]}]}}`,
		`{"version":0,"type":"xml","param_root":{"extra":1}}`,
	} {
		if _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// TestJSONErrors checks that errors say where, with the path of the parameter.
func TestJSONErrors(t *testing.T) {
	const head = `{"version":0,"type":"xml","param_root":{"objects":[{"hash":1,"params":[`
	for _, tc := range []struct{ in, want string }{
		{head + `{"hash":2,"type":"vec3","value":[1,2]}]}]}}`,
			"aamp: json at line 1, column 104 (in param_root/objects[0]/params[0]): want 3 numbers, have 2"},
		{head + `{"hash":2,"type":"nope","value":1}]}]}}`,
			`aamp: json at line 1, column 89 (in param_root/objects[0]/params[0]): unknown type "nope"`},
		{head + `{"hash":2,"hash":3}]}]}}`,
			`aamp: json at line 1, column 82 (in param_root/objects[0]/params[0]): a second member "hash" (member names must be unique)`},
		{head + `{"hash":2,"type":"int","value":2147483648}]}]}}`,
			"aamp: json at line 1, column 103 (in param_root/objects[0]/params[0]): 2147483648 is not an integer from -2147483648 to 2147483647"},
		{head + "\n{\"hash\":2,\"type\":\"int\",\"value\":1,}]}]}}",
			"aamp: invalid JSON at line 2, column 33 (in param_root/objects[0]/params[0]): a comma before } (trailing commas are not JSON)"},
		{`{"version":0,"type":"xml"}`, "aamp: json at line 1, column 1: missing param_root"},
		{`{"version":0,"Type":"xml"}`, `aamp: json at line 1, column 14: unknown member "Type"`},
	} {
		_, err := FromJSON([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.in, err, tc.want)
		}
		// Each is typed: a form error or a syntax error, with its place as fields.
		var fe *jsontext.FormError
		var se *jsontext.SyntaxError
		switch {
		case errors.As(err, &fe):
			if fe.Reader != "aamp" || fe.Line != 1 && fe.Line != 2 || fe.Column == 0 || !strings.Contains(tc.want, "column "+strconv.Itoa(fe.Column)) {
				t.Errorf("%s: form error %+v", tc.in, fe)
			}
		case errors.As(err, &se):
			if se.Column == 0 || se.Path != "param_root/objects[0]/params[0]" {
				t.Errorf("%s: syntax error %+v", tc.in, se)
			}
		default:
			t.Errorf("%s: untyped error %T", tc.in, err)
		}
	}
	var fe *jsontext.FormError
	_, err := FromJSON([]byte(head + `{"hash":2,"type":"vec3","value":[1,2]}]}]}}`))
	if !errors.As(err, &fe) || fe.Path != "param_root/objects[0]/params[0]" || fe.Line != 1 || fe.Column != 104 || fe.Offset != 103 {
		t.Errorf("form error %+v", fe)
	}
}
