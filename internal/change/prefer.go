package change

// Prefer says how a three-way merge settles conflicts: not at all (the merge reports them and
// gives no result), or every one for one side.
type Prefer uint8

const (
	PreferNone   Prefer = iota // report conflicts, never choose
	PreferOurs                 // take our value at every conflict
	PreferTheirs               // take their value at every conflict
)
