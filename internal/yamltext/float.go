package yamltext

import (
	"bytes"
	"math"
	"strconv"
)

// AppendFloat appends f as YAML in oead's conventions: the shortest text that reads back as
// the same value at its size (bits: 32 or 64), always with a decimal point so that it is
// not taken for an integer; .nan, .inf and -.inf for the others.
func AppendFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, ".nan"...)
	case math.IsInf(f, 1):
		return append(b, ".inf"...)
	case math.IsInf(f, -1):
		return append(b, "-.inf"...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, bits)
	s := b[start:]
	if bytes.IndexByte(s, '.') >= 0 {
		return b
	}
	if i := bytes.IndexByte(s, 'e'); i >= 0 {
		// Insert ".0" before the exponent.
		b = append(b, ".0"...)
		copy(b[start+i+2:], b[start+i:len(b)-2])
		b[start+i], b[start+i+1] = '.', '0'
		return b
	}
	return append(b, ".0"...)
}
