package aamp

import (
	"fmt"
	"hash/crc32"
	"strings"
)

// Name is the CRC32 (IEEE) hash of a parameter, object or list name. The binary format keeps
// only the hash; the text forms show a string when the name table knows one.
type Name uint32

// NameOf hashes a name the way the format does.
func NameOf(s string) Name { return Name(crc32.ChecksumIEEE([]byte(s))) }

// RootName is the hash of "param_root", the name every parameter IO's root list carries.
var RootName = NameOf("param_root")

// Type is a parameter's type byte (the last byte of a parameter record).
type Type uint8

// Parameter types, numbered as in the file.
const (
	TypeBool Type = iota
	TypeF32
	TypeInt
	TypeVec2
	TypeVec3
	TypeVec4
	TypeColor
	TypeString32
	TypeString64
	TypeCurve1
	TypeCurve2
	TypeCurve3
	TypeCurve4
	TypeBufferInt
	TypeBufferF32
	TypeString256
	TypeQuat
	TypeU32
	TypeBufferU32
	TypeBufferBinary
	TypeStringRef
	numTypes
)

var typeNames = [numTypes]string{
	"bool", "f32", "int", "vec2", "vec3", "vec4", "color", "string32", "string64",
	"curve1", "curve2", "curve3", "curve4", "buffer_int", "buffer_f32", "string256",
	"quat", "u32", "buffer_u32", "buffer_binary", "string_ref",
}

func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// IsString reports whether values of t live in the string section.
func (t Type) IsString() bool {
	return t == TypeString32 || t == TypeString64 || t == TypeString256 || t == TypeStringRef
}

// IsBuffer reports whether values of t are preceded by a u32 element count.
func (t Type) IsBuffer() bool {
	return t == TypeBufferInt || t == TypeBufferF32 || t == TypeBufferU32 || t == TypeBufferBinary
}

// maxStringLen is the capacity of the fixed-size string types (without the terminator);
// 0 means unbounded.
func (t Type) maxStringLen() int {
	switch t {
	case TypeString32:
		return 32
	case TypeString64:
		return 64
	case TypeString256:
		return 256
	}
	return 0
}

// Vector and colour values. Floats are kept as float32 so that every bit pattern
// (including NaN payloads) survives a binary round trip.
type (
	Vec2  [2]float32
	Vec3  [3]float32
	Vec4  [4]float32
	Color [4]float32 // r, g, b, a
	Quat  [4]float32
)

// Curve is one agl curve: two u32 header words and 30 floats (128 bytes).
type Curve struct {
	A, B   uint32
	Floats [30]float32
}

// Parameter is one named value. Value's Go type is fixed by Type:
//
//	bool: bool            f32: float32          int: int32         u32: uint32
//	vec2: Vec2            vec3: Vec3            vec4: Vec4         color: Color   quat: Quat
//	string32/64/256, string_ref: string
//	curve1..curve4: []Curve with 1..4 elements
//	buffer_int: []int32   buffer_f32: []float32 buffer_u32: []uint32 buffer_binary: []byte
type Parameter struct {
	Name  Name
	Type  Type
	Value any
}

// ParameterObject is a named, ordered set of parameters.
type ParameterObject struct {
	Name   Name
	Params []Parameter
}

// ParameterList holds child lists and objects, each in file order.
type ParameterList struct {
	Name    Name
	Lists   []*ParameterList
	Objects []*ParameterObject
}

// ParameterIO is a whole document: the root list (named param_root) plus the header's
// version and type string.
type ParameterIO struct {
	Version uint32
	Type    string
	Root    ParameterList

	// layout is what Read learned about where Nintendo's writer put every structure and
	// value; nil for documents built in memory or from text.
	layout *layout
	// names holds the names a text form spelled out, so that they survive a round trip
	// even when no name list knows them.
	names map[Name]string
}

// List returns the first child list named n, or nil.
func (l *ParameterList) List(n Name) *ParameterList {
	for _, c := range l.Lists {
		if c.Name == n {
			return c
		}
	}
	return nil
}

// Object returns the first child object named n, or nil.
func (l *ParameterList) Object(n Name) *ParameterObject {
	for _, c := range l.Objects {
		if c.Name == n {
			return c
		}
	}
	return nil
}

// Param returns the first parameter named n, or nil.
func (o *ParameterObject) Param(n Name) *Parameter {
	for i := range o.Params {
		if o.Params[i].Name == n {
			return &o.Params[i]
		}
	}
	return nil
}

// checkValue reports whether p.Value has the Go type its Type requires, and how many bytes
// the value takes in the data or string section (a buffer's count and a string's NUL
// included, no padding). It switches on the type byte and asserts the one Go type that fits:
// a type switch over every Go type cost a search per parameter.
func (p *Parameter) checkValue() (int, error) {
	ok, size := false, 0
	switch p.Type {
	case TypeBool:
		ok, size = is[bool](p.Value), 4
	case TypeF32:
		ok, size = is[float32](p.Value), 4
	case TypeInt:
		ok, size = is[int32](p.Value), 4
	case TypeU32:
		ok, size = is[uint32](p.Value), 4
	case TypeVec2:
		ok, size = is[Vec2](p.Value), 8
	case TypeVec3:
		ok, size = is[Vec3](p.Value), 12
	case TypeVec4:
		ok, size = is[Vec4](p.Value), 16
	case TypeColor:
		ok, size = is[Color](p.Value), 16
	case TypeQuat:
		ok, size = is[Quat](p.Value), 16
	case TypeString32, TypeString64, TypeString256, TypeStringRef:
		var v string
		if v, ok = p.Value.(string); ok {
			if m := p.Type.maxStringLen(); m > 0 && len(v) >= m {
				return 0, fmt.Errorf("aamp: parameter %#08x: %s value is %d bytes (at most %d)", uint32(p.Name), p.Type, len(v), m-1)
			}
			if i := strings.IndexByte(v, 0); i >= 0 {
				return 0, fmt.Errorf("aamp: parameter %#08x: string contains a NUL byte at %d", uint32(p.Name), i)
			}
			size = len(v) + 1
		}
	case TypeCurve1, TypeCurve2, TypeCurve3, TypeCurve4:
		n, curves := elems[Curve](p.Value)
		ok, size = curves && n == int(p.Type-TypeCurve1)+1, n*curveSize
	case TypeBufferInt:
		n, buf := elems[int32](p.Value)
		ok, size = buf, 4+4*n
	case TypeBufferF32:
		n, buf := elems[float32](p.Value)
		ok, size = buf, 4+4*n
	case TypeBufferU32:
		n, buf := elems[uint32](p.Value)
		ok, size = buf, 4+4*n
	case TypeBufferBinary:
		n, buf := elems[byte](p.Value)
		ok, size = buf, 4+n
	}
	if !ok {
		return 0, fmt.Errorf("aamp: parameter %#08x: value of Go type %T does not fit type %s", uint32(p.Name), p.Value, p.Type)
	}
	return size, nil
}

// is reports whether v holds a T.
func is[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// elems reports whether v holds a []T, and its length.
func elems[T any](v any) (int, bool) {
	s, ok := v.([]T)
	return len(s), ok
}

// Clone returns a deep copy. The copy keeps the recorded layout (which is read-only), so an
// unedited clone still writes back byte-identically.
func (pio *ParameterIO) Clone() *ParameterIO {
	c := &ParameterIO{Version: pio.Version, Type: pio.Type, layout: pio.layout}
	if pio.names != nil {
		c.names = make(map[Name]string, len(pio.names))
		for k, v := range pio.names {
			c.names[k] = v
		}
	}
	c.Root = *pio.Root.clone()
	return c
}

func (l *ParameterList) clone() *ParameterList {
	c := &ParameterList{Name: l.Name, Lists: make([]*ParameterList, len(l.Lists)), Objects: make([]*ParameterObject, len(l.Objects))}
	for i, x := range l.Lists {
		c.Lists[i] = x.clone()
	}
	for i, o := range l.Objects {
		co := &ParameterObject{Name: o.Name, Params: make([]Parameter, len(o.Params))}
		for j, p := range o.Params {
			co.Params[j] = Parameter{Name: p.Name, Type: p.Type, Value: cloneValue(p.Value)}
		}
		c.Objects[i] = co
	}
	return c
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case []Curve:
		return append([]Curve{}, v...)
	case []int32:
		return append([]int32{}, v...)
	case []float32:
		return append([]float32{}, v...)
	case []uint32:
		return append([]uint32{}, v...)
	case []byte:
		return append([]byte{}, v...)
	}
	return v
}
