package graph

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendInt writes what strconv does, on both sides of every power of ten, at the ends of
// int64 and at random.
func TestAppendInt(t *testing.T) {
	vs := []int64{0, math.MaxInt64, math.MinInt64}
	for p := int64(1); p <= 1e18; p *= 10 {
		vs = append(vs, p-1, p, p+1, -p-1, -p, -p+1)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		vs = append(vs, r.Int64N(1e9)-5e8, int64(r.Uint64()))
	}
	for _, v := range vs {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
		if got, want := string(appendUint(nil, uint64(v))), strconv.FormatUint(uint64(v), 10); got != want {
			t.Fatalf("appendUint(%d) = %q, want %q", uint64(v), got, want)
		}
	}
}

// The type words go out as quoting gives them; any other type is quoted in full.
func TestAppendValueType(t *testing.T) {
	for _, vt := range []ValueType{"int", "bool", "float", "string", "vec3f", "pointer", "u32", "", "in\"t", "ints", "vec3"} {
		if got, want := string(appendValueType(nil, vt)), strconv.Quote(string(vt)); got != want {
			t.Errorf("appendValueType(%q) = %s, want %s", vt, got, want)
		}
	}
}
