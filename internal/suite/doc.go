// Package suite has no code of its own. Its test holds the README's test command to what it
// promises: one command line, run exactly by CI, that tests every package of the module,
// with the race detector wherever the code starts goroutines (see "Run every test").
package suite
