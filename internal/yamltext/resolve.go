package yamltext

import (
	"strconv"
	"strings"
	"time"
)

// ResolvesToString reports whether yaml.v3 reads s, written plain and untagged, as a
// string: not as a bool, null, number, timestamp or merge key. yaml.v3's encoder quotes a
// string node for which this is false. The rules are yaml.v3's (YAML 1.2 core schema
// spellings, Go's number syntax with '_' separators, 0b and 0o prefixes, and dates).
func ResolvesToString(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
		"-.inf", "-.Inf", "-.INF", "<<":
		return false
	}
	switch c := s[0]; {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return !numberLike(s)
	}
	return true
}

// numberLike reports whether yaml.v3 resolves s, which starts with a sign or a digit, to
// a timestamp, an integer or a float.
func numberLike(s string) bool {
	if timestamp(s) {
		return true
	}
	p := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(p, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(p, 0, 64); err == nil {
		return true
	}
	if yamlFloat(p) {
		if _, err := strconv.ParseFloat(p, 64); err == nil {
			return true
		}
	}
	switch {
	case strings.HasPrefix(p, "0b"):
		return parses(p[2:], 2, false)
	case strings.HasPrefix(p, "-0b"):
		return parses(p[3:], 2, true)
	case strings.HasPrefix(p, "0o"):
		return parses(p[2:], 8, false)
	case strings.HasPrefix(p, "-0o"):
		return parses(p[3:], 8, true)
	}
	return false
}

func parses(digits string, base int, neg bool) bool {
	if neg {
		_, err := strconv.ParseInt("-"+digits, base, 64)
		return err == nil
	}
	if _, err := strconv.ParseInt(digits, base, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(digits, base, 64)
	return err == nil
}

// yamlFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, the float form
// yaml.v3 accepts besides Go's.
func yamlFloat(s string) bool {
	digits := func() int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s != "" && s[0] == '.' {
		s = s[1:]
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if s != "" && s[0] == '.' {
			s = s[1:]
			digits()
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}

var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// timestamp reports whether yaml.v3 reads s as a timestamp: four digits, a '-', then one
// of the layouts it tries.
func timestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, l := range timestampLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}
