// Package modeltext prints a Go value as text, one line per leaf with its path
// ("Elements[3].Properties.Groups[2][0].Value.Float = 1.1"), for tests that compare two models
// and show where they first differ. It is for tests only: it walks values by reflection, which
// the codecs never do.
package modeltext

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// Text prints v. Unexported fields are left out (they are caches and scratch space), except
// that a struct with none exported and a Lists method prints what Lists returns; maps are
// printed in key order; a nil pointer, slice or map prints as nil.
func Text(v any) []byte {
	var b strings.Builder
	walk(&b, "", reflect.ValueOf(v), 0)
	return []byte(b.String())
}

// maxDepth stops a cycle; the models are trees a few levels deep.
const maxDepth = 64

func walk(b *strings.Builder, path string, v reflect.Value, depth int) {
	if depth > maxDepth {
		fmt.Fprintf(b, "%s = (deeper than %d)\n", path, maxDepth)
		return
	}
	if !v.IsValid() {
		fmt.Fprintf(b, "%s = nil\n", path)
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			fmt.Fprintf(b, "%s = nil\n", path)
			return
		}
		walk(b, path, v.Elem(), depth+1)
	case reflect.Struct:
		t := v.Type()
		n := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			n++
			walk(b, join(path, f.Name), v.Field(i), depth+1)
		}
		if n > 0 {
			return
		}
		// A value that keeps its content behind unexported fields shows it through a
		// Lists method (ainb's parameter and plug groups); anything else prints as
		// opaque, never as the addresses it holds.
		if m := v.MethodByName("Lists"); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
			walk(b, path, m.Call(nil)[0], depth+1)
			return
		}
		fmt.Fprintf(b, "%s = (opaque %s)\n", path, t)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			fmt.Fprintf(b, "%s = nil\n", path)
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(b, "%s = % x\n", path, v.Bytes())
			return
		}
		fmt.Fprintf(b, "%s = len %d\n", path, v.Len())
		for i := range v.Len() {
			walk(b, fmt.Sprintf("%s[%d]", path, i), v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			fmt.Fprintf(b, "%s = nil\n", path)
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		fmt.Fprintf(b, "%s = len %d\n", path, v.Len())
		for _, k := range keys {
			walk(b, fmt.Sprintf("%s[%v]", path, k), v.MapIndex(k), depth+1)
		}
	case reflect.String:
		fmt.Fprintf(b, "%s = %q\n", path, v.String())
	case reflect.Float32, reflect.Float64:
		// The bits too: NaN payloads and -0 are part of a value.
		fmt.Fprintf(b, "%s = %v (%#x)\n", path, v.Float(), floatBits(v))
	default:
		fmt.Fprintf(b, "%s = %v\n", path, v)
	}
}

func floatBits(v reflect.Value) uint64 {
	if v.Kind() == reflect.Float32 {
		return uint64(math.Float32bits(float32(v.Float())))
	}
	return math.Float64bits(v.Float())
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
