package server

import (
	"bytes"
	"errors"
	"flag"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	c, err := ParseConfig(nil, env(nil), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v, want %+v", c, want)
	}
	if c.Addr != "127.0.0.1:8080" || c.Data != "./data" || c.MaxUpload != 16<<20 || c.MaxDocument != 64<<20 {
		t.Fatalf("defaults %+v", c)
	}
}

func TestConfigEnvAndFlags(t *testing.T) {
	e := env(map[string]string{
		"AINB_ADDR":          "0.0.0.0:9000",
		"AINB_DATA":          "/data",
		"AINB_MAX_UPLOAD":    "1MiB",
		"AINB_MAX_DOCUMENT":  "2048",
		"AINB_WRITE_TIMEOUT": "5s",
		"AINB_ZSTD_DICTS":    "/a.zsdic:/b.zsdic",
	})
	c, err := ParseConfig([]string{"-addr", ":7000", "-read-timeout=3s", "-max-conversions", "3"}, e, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	// The flag wins over the variable; the variable over the default.
	if c.Addr != ":7000" || c.Data != "/data" || c.MaxUpload != 1<<20 || c.MaxDocument != 2048 ||
		c.WriteTimeout != 5*time.Second || c.ReadTimeout != 3*time.Second || c.MaxConversions != 3 ||
		!reflect.DeepEqual(c.ZstdDicts, []string{"/a.zsdic", "/b.zsdic"}) {
		t.Fatalf("config %+v", c)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"-max-upload", "lots"}, nil, `invalid value "lots" for flag -max-upload: want a size such as 16777216, 512KiB or 16MiB`},
		{nil, map[string]string{"AINB_MAX_UPLOAD": "-1"}, `AINB_MAX_UPLOAD="-1": want a size such as 16777216, 512KiB or 16MiB`},
		{nil, map[string]string{"AINB_READ_TIMEOUT": "soon"}, `AINB_READ_TIMEOUT="soon": parse error`},
		{[]string{"-max-upload", "0"}, nil, "max-upload: must be positive"},
		{[]string{"-idle-timeout", "0s"}, nil, "idle-timeout: must be positive"},
		{[]string{"extra"}, nil, `unexpected argument "extra"`},
		{[]string{"-nope"}, nil, "flag provided but not defined: -nope"},
	} {
		var out bytes.Buffer
		_, err := ParseConfig(c.args, env(c.env), &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: err %v, want %q", c.args, c.env, err, c.want)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%v %v: output %q does not say %q", c.args, c.env, out.String(), c.want)
		}
	}
	var out bytes.Buffer
	if _, err := ParseConfig([]string{"-h"}, env(nil), &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"-addr [AINB_ADDR]", "-max-upload [AINB_MAX_UPLOAD]", `(default "16MiB")`, "-zstd-dicts [AINB_ZSTD_DICTS]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q:\n%s", want, out.String())
		}
	}
}

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "16777216": 16 << 20, "512KiB": 512 << 10, "16MiB": 16 << 20, "16M": 16 << 20,
		"1GiB": 1 << 30, "2G": 2 << 30, "100B": 100, " 3 MiB ": 3 << 20, "64K": 64 << 10,
	} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "1.5MiB", "-1", "1TiB", "99999999999G", "0x10"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("Set(%q) = %d, want an error", in, b)
		}
	}
	for n, want := range map[int64]string{0: "0", 1536: "1536", 16 << 20: "16MiB", 512 << 10: "512KiB", 4 << 30: "4GiB", 1 << 40: "1024GiB"} {
		b := byteSize(n)
		if got := b.String(); got != want {
			t.Errorf("String(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOpenURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		"0.0.0.0:8080":   "http://localhost:8080/",
		"[::]:80":        "http://localhost:80/",
		"[::1]:8080":     "http://[::1]:8080/",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := openURL(a); got != want {
			t.Errorf("openURL(%s) = %q, want %q", addr, got, want)
		}
	}
}
