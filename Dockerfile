# syntax=docker/dockerfile:1

# The AINB editor's server on distroless (with glibc: the server is built with cgo, so files
# are compressed by libzstd itself), run as a non-root user, with its shares in the /data
# volume.
#
#   docker build -t ainb-editor .
#   docker run -p 8080:8080 -v ainb-data:/data ainb-editor
#
# Every flag of the server has an environment twin (AINB_MAX_UPLOAD, AINB_WRITE_TIMEOUT, ...).

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Dependencies first, so editing the source does not download them again.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/ainb-server ./cmd/server
# The volume's mount point, owned by the runtime user so a fresh named volume is writable.
RUN mkdir -p /out/data

FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/ainb-server /ainb-server
COPY --from=build --chown=65532:65532 /out/data /data
# Inside the container the server must listen on every interface; the host decides what
# reaches it through -p.
ENV AINB_ADDR=0.0.0.0:8080 \
    AINB_DATA=/data
EXPOSE 8080
VOLUME ["/data"]
USER 65532:65532
ENTRYPOINT ["/ainb-server"]
