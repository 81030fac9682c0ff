module ainbeditor

go 1.25.0

require github.com/spaolacci/murmur3 v1.1.0
