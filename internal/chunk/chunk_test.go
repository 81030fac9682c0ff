package chunk

import "testing"

func TestTake(t *testing.T) {
	var c Of[int]
	a, b := c.Take(3), c.Take(5)
	if len(a) != 3 || cap(a) != 3 || len(b) != 5 || cap(b) != 5 {
		t.Fatalf("lengths %d/%d and %d/%d", len(a), cap(a), len(b), cap(b))
	}
	for i := range a {
		a[i] = 1
	}
	for i := range b {
		if b[i] != 0 {
			t.Fatal("slices overlap")
		}
	}
	// Appending copies out instead of writing into b.
	a = append(a, 7)
	if b[0] != 0 || &a[0] == &b[0] {
		t.Fatal("append wrote into a neighbour")
	}
	if z := c.Take(0); z == nil || len(z) != 0 {
		t.Fatalf("Take(0) = %#v, want an empty non-nil slice", z)
	}
	if big := c.Take(Len); len(big) != Len || cap(big) != Len {
		t.Fatal("a long list")
	}
	c.Reserve(10)
	x := c.Take(10)
	if len(x) != 10 || len(c.free) != 0 {
		t.Fatalf("reserve: %d taken, %d left", len(x), len(c.free))
	}
	if p, q := c.New(), c.New(); p == q {
		t.Fatal("New gave one value twice")
	}
	if Clone(&c, []int{}) != nil {
		t.Fatal("Clone of empty")
	}
	if s := Clone(&c, []int{4, 5}); len(s) != 2 || s[1] != 5 {
		t.Fatalf("Clone: %v", s)
	}
}
