package shelf

import (
	"sync"
	"testing"
)

// A shelf gives back what was put on it, holds at most Slots values, and starts empty.
func TestGetPut(t *testing.T) {
	var s Of[int]
	if v := s.Get(); v != nil {
		t.Fatalf("an empty shelf gave %v", *v)
	}
	vals := make([]int, Slots+2)
	for i := range vals {
		vals[i] = i
		s.Put(&vals[i])
	}
	s.Put(nil) // ignored
	got := map[*int]bool{}
	for range Slots {
		v := s.Get()
		if v == nil {
			t.Fatalf("the shelf gave nil after %d of %d values", len(got), Slots)
		}
		if got[v] {
			t.Fatalf("value %d came back twice", *v)
		}
		got[v] = true
	}
	if v := s.Get(); v != nil {
		t.Fatalf("a shelf of %d slots gave a value past them: %d", Slots, *v)
	}
	for i := range Slots {
		if !got[&vals[i]] {
			t.Errorf("value %d, put while there was room, was not given back", i)
		}
	}
}

// Goroutines taking and putting back values never share one: each value is held by one
// goroutine at a time (the race detector watches the writes).
func TestConcurrent(t *testing.T) {
	var s Of[[]int]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				v := s.Get()
				if v == nil {
					v = new([]int)
				}
				*v = append((*v)[:0], g, i)
				if (*v)[0] != g || (*v)[1] != i {
					t.Errorf("goroutine %d saw another's value %v", g, *v)
					return
				}
				s.Put(v)
			}
		}()
	}
	wg.Wait()
}
