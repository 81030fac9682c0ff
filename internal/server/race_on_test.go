//go:build race

package server

// raceDetector says the tests run under -race, ten times slower: corpus-wide tests then take
// a sample (see TestTreeCorpusRoundTrip).
const raceDetector = true
