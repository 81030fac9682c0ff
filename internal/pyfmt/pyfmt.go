// Package pyfmt prints values the way Python does, for the JSON and disassembly text the
// community's Python tools write. It must never depend on any AINB or EXB type.
package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// Float formats f the way Python's repr formats a float: the shortest
// digits that read back to the same float64, in positional notation when
// the decimal exponent is in [-4, 16) and with a trailing ".0" for whole
// numbers, otherwise in scientific notation with a signed two-digit
// exponent ("1e-05", "1.5e+16"). The compat text depends on it.
func Float(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±dd
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	digits := strings.Replace(mant, ".", "", 1)
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	// decpt is where the decimal point goes relative to digits.
	decpt := exp + 1
	switch {
	case decpt <= -4 || decpt > 16:
		sb.WriteString(digits[:1])
		if len(digits) > 1 {
			sb.WriteByte('.')
			sb.WriteString(digits[1:])
		}
		sb.WriteByte('e')
		if exp < 0 {
			sb.WriteByte('-')
			exp = -exp
		} else {
			sb.WriteByte('+')
		}
		if exp < 10 {
			sb.WriteByte('0')
		}
		sb.WriteString(strconv.Itoa(exp))
	case decpt <= 0:
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -decpt))
		sb.WriteString(digits)
	case decpt >= len(digits):
		sb.WriteString(digits)
		sb.WriteString(strings.Repeat("0", decpt-len(digits)))
		sb.WriteString(".0")
	default:
		sb.WriteString(digits[:decpt])
		sb.WriteByte('.')
		sb.WriteString(digits[decpt:])
	}
	return sb.String()
}
