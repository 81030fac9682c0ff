package docdecl

import (
	"bytes"
	"fmt"
	"go/ast"
	"strconv"
	"strings"
)

// nullable lists the members whose JSON may be null although their Go type cannot say so
// (the Go comment of each says how).
var nullable = map[string]bool{
	"Child.node":            true, // NoNode
	"Document.replacements": true, // 0x404 files have no table
}

// jsPreamble declares the types whose JSON form is written by hand in encode.go.
const jsPreamble = `/**
 * @typedef {"int" | "bool" | "float" | "string" | "vec3f" | "pointer" | "u32"} ValueType
 */

/**
 * A float: a number, or for NaN, infinities and -0 the string of its bits, "0x7fc00000".
 * @typedef {number | string} Float
 */

/**
 * An immediate value: number (int, u32), boolean (bool), Float (float), string (string),
 * Float[3] (vec3f), null (pointer).
 * @typedef {number | boolean | string | Float[] | null} Value
 */
`

// documentJS writes static/document.js: the format, each object's members in the order
// the server writes them, and JSDoc types for the editor's modules.
func (d *Declarations) documentJS() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\n//\n", header)
	b.WriteString("// The editor document as the front end sees it, declared in internal/graph/types.go and\n")
	b.WriteString("// described exactly by internal/graph/document.schema.json. Everything is plain JSON:\n")
	b.WriteString("// JSON.parse reads it and JSON.stringify writes it.\n\n")
	fmt.Fprintf(&b, "export const FORMAT = %s;\n\n", strconv.Quote(d.format))
	b.WriteString("// MEMBERS lists each object's members in the order the server writes them; REQUIRED\n")
	b.WriteString("// those it must have (the others may be left out).\n")
	b.WriteString("export const MEMBERS = Object.freeze({\n")
	for _, o := range d.objects {
		fmt.Fprintf(&b, "  %s: %s,\n", o.Name, jsList(o.Members, false))
	}
	b.WriteString("});\n\n")
	b.WriteString("export const REQUIRED = Object.freeze({\n")
	for _, o := range d.objects {
		fmt.Fprintf(&b, "  %s: %s,\n", o.Name, jsList(o.Members, true))
	}
	b.WriteString("});\n\n")
	b.WriteString(jsPreamble)
	for _, o := range d.objects {
		b.WriteString("\n/**\n")
		if o.Doc != "" {
			wrap(&b, " * ", o.Doc)
		}
		fmt.Fprintf(&b, " * @typedef {object} %s\n", o.Name)
		for _, m := range o.Members {
			t := jsType(m.Type)
			if nullable[o.Name+"."+m.JSON] {
				t += " | null"
			} else if _, ptr := m.Type.(*ast.StarExpr); ptr && !m.Optional {
				t += " | null"
			}
			name := m.JSON
			if m.Optional {
				name = "[" + name + "]"
			}
			line := fmt.Sprintf(" * @property {%s} %s", t, name)
			if m.Doc == "" {
				b.WriteString(line + "\n")
				continue
			}
			wrap(&b, line+" ", m.Doc)
		}
		b.WriteString(" */\n")
	}
	return b.Bytes()
}

func jsList(ms []member, requiredOnly bool) string {
	var q []string
	for _, m := range ms {
		if !requiredOnly || !m.Optional {
			q = append(q, strconv.Quote(m.JSON))
		}
	}
	return "Object.freeze([" + strings.Join(q, ", ") + "])"
}

func jsType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return jsType(t.X)
	case *ast.ArrayType:
		el := jsType(t.Elt)
		if strings.Contains(el, " ") {
			el = "(" + el + ")"
		}
		return el + "[]"
	case *ast.SelectorExpr:
		switch t.Sel.Name {
		case "GUID":
			return "string"
		case "F32":
			return "Float"
		}
	case *ast.Ident:
		switch t.Name {
		case "string", "NodeType":
			return "string"
		case "bool":
			return "boolean"
		case "float64":
			return "number"
		case "Float", "Value", "ValueType":
			return t.Name
		}
		if strings.HasPrefix(t.Name, "int") || strings.HasPrefix(t.Name, "uint") {
			return "number"
		}
		return t.Name
	}
	return "*"
}

// wrap writes text after first, continued on lines of at most 100 characters.
func wrap(b *bytes.Buffer, first, text string) {
	line := first
	cont := " *   "
	fresh := true
	for _, w := range strings.Fields(text) {
		if !fresh && len(line)+1+len(w) > 100 {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, fresh = cont, true
		}
		if fresh {
			line += w
			fresh = false
		} else {
			line += " " + w
		}
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}
