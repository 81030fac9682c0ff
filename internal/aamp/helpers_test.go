package aamp

import (
	"bytes"
	"fmt"
)

// diffIO returns "" when a and b hold the same tree, header fields and values (floats
// compared bit for bit), else where they first differ.
func diffIO(a, b *ParameterIO) string { return diffIOMode(a, b, false) }

// diffIOText is diffIO with every NaN equal to every other: text forms keep only ".nan".
func diffIOText(a, b *ParameterIO) string { return diffIOMode(a, b, true) }

func diffIOMode(a, b *ParameterIO, nanEq bool) string {
	if a.Version != b.Version || a.Type != b.Type {
		return fmt.Sprintf("header: version %d type %q vs version %d type %q", a.Version, a.Type, b.Version, b.Type)
	}
	return diffList("param_root", &a.Root, &b.Root, nanEq)
}

func diffList(path string, a, b *ParameterList, nanEq bool) string {
	if a.Name != b.Name {
		return fmt.Sprintf("%s: name %#08x vs %#08x", path, uint32(a.Name), uint32(b.Name))
	}
	if len(a.Lists) != len(b.Lists) || len(a.Objects) != len(b.Objects) {
		return fmt.Sprintf("%s: %d lists %d objects vs %d lists %d objects", path, len(a.Lists), len(a.Objects), len(b.Lists), len(b.Objects))
	}
	for i := range a.Lists {
		if d := diffList(fmt.Sprintf("%s/list[%d]", path, i), a.Lists[i], b.Lists[i], nanEq); d != "" {
			return d
		}
	}
	for i := range a.Objects {
		oa, ob := a.Objects[i], b.Objects[i]
		p := fmt.Sprintf("%s/obj[%d]", path, i)
		if oa.Name != ob.Name || len(oa.Params) != len(ob.Params) {
			return fmt.Sprintf("%s: name %#08x with %d params vs %#08x with %d", p, uint32(oa.Name), len(oa.Params), uint32(ob.Name), len(ob.Params))
		}
		for j := range oa.Params {
			if d := diffParamMode(&oa.Params[j], &ob.Params[j], nanEq); d != "" {
				return fmt.Sprintf("%s/param[%d]: %s", p, j, d)
			}
		}
	}
	return ""
}

func diffParam(a, b *Parameter) string { return diffParamMode(a, b, false) }

func isNaNWord(w uint32) bool { return w&0x7f800000 == 0x7f800000 && w&0x7fffff != 0 }

func diffParamMode(a, b *Parameter, nanEq bool) string {
	if a.Name != b.Name || a.Type != b.Type {
		return fmt.Sprintf("%#08x %s vs %#08x %s", uint32(a.Name), a.Type, uint32(b.Name), b.Type)
	}
	if sa, ok := a.Value.(string); ok {
		if sb, _ := b.Value.(string); sa != sb {
			return fmt.Sprintf("%q vs %v", sa, b.Value)
		}
		return ""
	}
	if fmt.Sprintf("%T", a.Value) != fmt.Sprintf("%T", b.Value) {
		return fmt.Sprintf("Go type %T vs %T", a.Value, b.Value)
	}
	ea, eb := encodeValue(nil, a), encodeValue(nil, b)
	if bytes.Equal(ea, eb) {
		return ""
	}
	if nanEq && len(ea) == len(eb) {
		same := true
		for i := 0; i+4 <= len(ea); i += 4 {
			wa, wb := le.Uint32(ea[i:]), le.Uint32(eb[i:])
			isFloat := a.Type != TypeBufferInt && a.Type != TypeBufferU32 && a.Type != TypeBufferBinary &&
				a.Type != TypeInt && a.Type != TypeU32 && a.Type != TypeBool &&
				!(a.Type >= TypeCurve1 && a.Type <= TypeCurve4 && (i/4)%32 < 2) &&
				!(a.Type == TypeBufferF32 && i == 0)
			if wa != wb && !(isFloat && isNaNWord(wa) && isNaNWord(wb)) {
				same = false
			}
		}
		if same {
			return ""
		}
	}
	return fmt.Sprintf("value %v vs %v", a.Value, b.Value)
}
