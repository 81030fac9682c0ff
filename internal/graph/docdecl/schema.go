package docdecl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"io"
	"strings"
)

// jv is a JSON value that keeps its members' order and its numbers' text, so the schema
// is written back as it was but for what the declarations change.
type jv struct {
	kind byte // 'o' object, 'a' array, 's' any other value, written as raw
	keys []string
	vals []*jv
	raw  string
}

func (v *jv) get(key string) *jv {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// set replaces key's value, or adds key before the member named before (at the end when
// there is none).
func (v *jv) set(key string, val *jv, before string) {
	for i, k := range v.keys {
		if k == key {
			v.vals[i] = val
			return
		}
	}
	at := len(v.keys)
	for i, k := range v.keys {
		if k == before {
			at = i
			break
		}
	}
	v.keys = append(v.keys[:at], append([]string{key}, v.keys[at:]...)...)
	v.vals = append(v.vals[:at], append([]*jv{val}, v.vals[at:]...)...)
}

func (v *jv) remove(key string) {
	for i, k := range v.keys {
		if k == key {
			v.keys = append(v.keys[:i], v.keys[i+1:]...)
			v.vals = append(v.vals[:i], v.vals[i+1:]...)
			return
		}
	}
}

func readJV(data []byte) (*jv, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, fmt.Errorf("at byte %d: %v", dec.InputOffset(), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("at byte %d: text after the value", dec.InputOffset())
	}
	return v, nil
}

func readValue(dec *json.Decoder) (*jv, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '{' {
			v := &jv{kind: 'o'}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k.(string))
				v.vals = append(v.vals, val)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &jv{kind: 'a'}
		for dec.More() {
			val, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, val)
		}
		_, err := dec.Token()
		return v, err
	case string:
		return str(t), nil
	case json.Number:
		return &jv{kind: 's', raw: string(t)}, nil
	case bool:
		return &jv{kind: 's', raw: fmt.Sprint(t)}, nil
	default:
		return &jv{kind: 's', raw: "null"}, nil
	}
}

func str(s string) *jv {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return &jv{kind: 's', raw: strings.TrimSuffix(b.String(), "\n")}
}

func obj(kv ...any) *jv {
	v := &jv{kind: 'o'}
	for i := 0; i < len(kv); i += 2 {
		v.keys = append(v.keys, kv[i].(string))
		v.vals = append(v.vals, kv[i+1].(*jv))
	}
	return v
}

// write writes v as json.MarshalIndent does with a two-space indent.
func (v *jv) write(b *bytes.Buffer, indent string) {
	if v.kind == 's' {
		b.WriteString(v.raw)
		return
	}
	open, end := "[", "]"
	if v.kind == 'o' {
		open, end = "{", "}"
	}
	if len(v.vals) == 0 {
		b.WriteString(open + end)
		return
	}
	b.WriteString(open + "\n")
	for i, e := range v.vals {
		b.WriteString(indent + "  ")
		if v.kind == 'o' {
			b.WriteString(str(v.keys[i]).raw + ": ")
		}
		e.write(b, indent+"  ")
		if i < len(v.vals)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + end)
}

// schema gives the schema with each object's members named, ordered and required as
// types.go declares them.
func (d *Declarations) schema(data []byte) ([]byte, error) {
	root, err := readJV(data)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, fmt.Errorf("not an object")
	}
	w := &schemaWalk{d: d, root: root, done: map[*jv]bool{}}
	title := str("AINB editor document, format " + d.format)
	root.set("title", title, "description")
	if err := w.object(root, d.byName["Document"], "document"); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	root.write(&b, "")
	b.WriteByte('\n')
	return b.Bytes(), nil
}

type schemaWalk struct {
	d    *Declarations
	root *jv
	done map[*jv]bool
}

// object makes s, the schema of o's JSON objects, list o's members.
func (w *schemaWalk) object(s *jv, o *object, path string) error {
	if w.done[s] {
		return nil
	}
	w.done[s] = true
	props := s.get("properties")
	if props == nil || props.kind != 'o' {
		return fmt.Errorf("%s (%s) has no properties", path, o.Name)
	}
	declared := map[string]bool{}
	np := &jv{kind: 'o'}
	var req []*jv
	for _, m := range o.Members {
		declared[m.JSON] = true
		val := props.get(m.JSON)
		if val == nil {
			val = w.fromGo(m.Type)
		}
		np.keys = append(np.keys, m.JSON)
		np.vals = append(np.vals, val)
		if !m.Optional {
			req = append(req, str(m.JSON))
		}
	}
	for _, k := range props.keys {
		if !declared[k] {
			return fmt.Errorf("%s.%s is described but types.go's %s declares no such member", path, k, o.Name)
		}
	}
	s.set("properties", np, "")
	if len(req) > 0 {
		s.set("required", &jv{kind: 'a', vals: req}, "properties")
	} else {
		s.remove("required")
	}
	for _, m := range o.Members {
		t := w.d.byName[target(m.Type)]
		if t == nil {
			continue
		}
		sub := w.objectSchema(np.get(m.JSON))
		if sub == nil {
			return fmt.Errorf("%s.%s: no object schema for %s", path, m.JSON, t.Name)
		}
		if err := w.object(sub, t, path+"."+m.JSON); err != nil {
			return err
		}
	}
	return nil
}

// objectSchema follows references, items and alternatives from s to the schema of an
// object with properties.
func (w *schemaWalk) objectSchema(s *jv) *jv {
	for depth := 0; s != nil && s.kind == 'o' && depth < 16; depth++ {
		if s.get("properties") != nil {
			return s
		}
		if r := s.get("$ref"); r != nil {
			name := strings.TrimPrefix(strings.Trim(r.raw, `"`), "#/$defs/")
			defs := w.root.get("$defs")
			if defs == nil {
				return nil
			}
			s = defs.get(name)
			continue
		}
		if it := s.get("items"); it != nil {
			s = it
			continue
		}
		var next *jv
		for _, k := range []string{"oneOf", "anyOf"} {
			if alts := s.get(k); alts != nil {
				for _, a := range alts.vals {
					if o := w.objectSchema(a); o != nil {
						next = o
						break
					}
				}
			}
		}
		return next
	}
	return nil
}

// fromGo is a first schema for a member the schema does not describe yet, from its Go
// type; its constraints are for a person to write.
func (w *schemaWalk) fromGo(e ast.Expr) *jv {
	switch t := e.(type) {
	case *ast.StarExpr:
		return w.fromGo(t.X)
	case *ast.ArrayType:
		return obj("type", str("array"), "items", w.fromGo(t.Elt))
	case *ast.Ident:
		switch t.Name {
		case "string", "NodeType":
			return obj("type", str("string"))
		case "bool":
			return obj("type", str("boolean"))
		case "float64", "Float":
			return obj("type", str("number"))
		case "ValueType":
			return obj("$ref", str("#/$defs/valueType"))
		}
		if strings.HasPrefix(t.Name, "int") || strings.HasPrefix(t.Name, "uint") {
			return obj("type", str("integer"))
		}
		if w.d.byName[t.Name] != nil {
			return obj("type", str("object"), "additionalProperties", &jv{kind: 's', raw: "false"}, "properties", &jv{kind: 'o'})
		}
	}
	return &jv{kind: 'o'}
}
