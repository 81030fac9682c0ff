module ainbeditor

go 1.25.0

require (
	github.com/go-chi/chi/v5 v5.5.0 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/spaolacci/murmur3 v1.1.0 // indirect
)
