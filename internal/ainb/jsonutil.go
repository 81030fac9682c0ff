package ainb

import (
	"bytes"
	"encoding/json"
	"math"

	"ainbeditor/internal/pyfmt"
)

// object is a JSON object that keeps its key order, so dumps read like the reference tool's.
type object []member

type member struct {
	key string
	val any
}

func (o *object) set(k string, v any) { *o = append(*o, member{k, v}) }

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalNoEscape(m.val)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// pyFloat prints a float the way Python's repr does (1.0, 1e-05, -0.0), so dumps match the
// reference tool's text as well as its values.
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) { return []byte(PyFloat(float64(f))), nil }

// PyFloat formats x as Python's json module does: repr for finite values, NaN and Infinity
// otherwise.
func PyFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return pyfmt.Float(x)
}

// indentJSON marshals v with two-space indentation and without HTML escaping.
func indentJSON(v any) ([]byte, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
